"""core.frames: a stored game's frames, packed as changes between steps (docs/rules.md, RV-2)."""

from __future__ import annotations

import random

import pytest

from core import frames


def test_frames_come_back_as_they_were_packed():
    steps = [
        {"a": 1, "b": [1, 2], "c": {"x": "y"}, "log": []},
        {"a": 2, "b": [1, 3], "c": {"x": "y", "z": None}, "log": ["one"]},
        {"a": 2, "b": [1, 3, 4], "c": {"z": False}, "log": ["one", "two"]},
        {"a": True, "b": [], "c": {"z": 0}, "log": ["other"], "new": [(1, 2)]},
        {"a": True, "b": [], "c": {"z": 0}, "log": ["other"], "new": [[1, 2]]},
    ]
    assert frames.unpack(frames.pack(steps)) == [{**s, "new": [[1, 2]]} if "new" in s else s for s in steps]
    assert frames.unpack(frames.pack([])) == []


def test_random_documents_round_trip():
    rnd = random.Random(3)

    def value(depth=0):
        kind = rnd.randrange(6 if depth < 3 else 3)
        if kind == 0:
            return rnd.choice([0, 1, -1, True, False, None, 2.5])
        if kind == 1:
            return rnd.choice(["", "a", "b c"])
        if kind == 2:
            return rnd.randrange(5)
        if kind in (3, 4):
            return [value(depth + 1) for _ in range(rnd.randrange(4))]
        return {rnd.choice("abcd"): value(depth + 1) for _ in range(rnd.randrange(4))}

    steps = [value() for _ in range(300)]
    assert frames.unpack(frames.pack(steps)) == steps


def test_steps_added_to_stored_frames_pack_as_the_whole_game_would():
    rnd = random.Random(5)
    steps = [{"turn": t, "hand": sorted(rnd.sample(range(9), rnd.randrange(5))), "log": ["x"] * t} for t in range(40)]
    for stored in (1, 2, 17, 39, 40):
        added = frames.extend(frames.pack(steps[:stored]), steps[stored - 1:])
        assert added == frames.pack(steps), stored  # byte for byte: the same changes, the same compression
        assert frames.unpack(added) == steps


def test_steps_are_added_only_to_stored_frames_with_a_first_frame():
    with pytest.raises(frames.FramesError):
        frames.extend(frames.pack([]), [{"a": 1}, {"a": 2}])
    with pytest.raises(frames.FramesError):
        frames.extend(b"not zlib", [{"a": 1}, {"a": 2}])


def test_changes_between_steps_are_what_is_stored():
    big = {"board": [{"cell": f"a{i}", "card": "X" * 40} for i in range(25)], "turn": 0}
    steps = [{**big, "turn": t} for t in range(400)]
    assert len(frames.pack(steps)) < 2_000  # each later step is one changed number


def test_unreadable_frames_are_refused_by_name():
    with pytest.raises(frames.FramesError):
        frames.unpack(b"not zlib")
    with pytest.raises(frames.FramesError, match="format"):
        frames.unpack(__import__("zlib").compress(b'{"format": 99, "frames": []}'))
    with pytest.raises(frames.FramesError):
        frames.from_text("***")
    assert frames.unpack(frames.from_text(frames.to_text(frames.pack([{"a": 1}])))) == [{"a": 1}]


def test_the_first_difference_of_two_plays():
    a = [{"x": 1}, {"x": 2}, {"x": 3}]
    assert frames.first_difference(a, list(a)) is None
    assert frames.first_difference(a, [{"x": 1}, {"x": 5}, {"x": 3}]) == 1
    assert frames.first_difference(a, a[:2]) == 2  # the replay stopped (an action refused)
    assert frames.first_difference(a[:1], a) == 1
    assert frames.first_difference([{"x": (1, 2)}], [{"x": [1, 2]}]) is None
