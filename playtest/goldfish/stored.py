"""A stored Dreadgate game's frames (docs/rules.md, RV-2): what each step showed, read without the engine.

    frames = stored_frames(table.frames)              # or sample_frames(sample), for a run's sample game
    replay_view(frames, step, faces, viewer="all")    # a replay step: the board and the log so far

A goldfish table keeps each seat's view and the full one; a run's sample game the full one only. What a viewer saw
at a step is drawn by the board's presenter, as a live position is (board.position_view).
"""

from __future__ import annotations

from typing import Any

from core.frames import FramesError, from_text, unpack
from playtest.goldfish.board import CardFaces, position_view

ALL = "all"  # the full view: every hand (a finished game's replay, DG-4.6)


def stored_frames(data: bytes | memoryview | None) -> list[dict[str, Any]] | None:
    """A table's packed frames, or None where it has none (or they can't be read)."""
    if not data:
        return None
    try:
        return unpack(data)
    except FramesError:
        return None


def sample_frames(sample: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A run's sample game's frames (text in the run's result), or None where it has none."""
    text = sample.get("frames")
    if not isinstance(text, str):
        return None
    try:
        return unpack(from_text(text))
    except FramesError:
        return None


def stored_over(frames: list[dict[str, Any]] | None) -> bool:
    """Whether the stored game had ended at its last step."""
    if not frames:
        return False
    last = frames[-1]
    seen = (last.get(ALL) or next(iter(last.values())))["seen"]
    return seen["phase"] == "over"


def frames_shown(frames: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]]:
    """The frames of the steps the seat `viewer` was shown (DG-15.7): an action it was not shown (its `said` is None,
    a pass in a window offered to the other seat) takes no step of its own, its position shown as the step before's,
    so that no count of the steps tells it."""
    out = [frames[0]]
    for frame in frames[1:]:
        if frame[viewer]["said"] is None:
            out[-1] = {viewer: {"seen": frame[viewer]["seen"], "said": out[-1][viewer]["said"]}}
        else:
            out.append(frame)
    return out


def replay_view(frames: list[dict[str, Any]] | None, step: int, faces: CardFaces, viewer: str = ALL,
                bottom: int | None = None, rules_version: str | None = None) -> dict[str, Any]:
    """The replay after `step` actions, from the stored frames: every card (`viewer` "all": a finished game, a
    sample game), or what the seat `viewer` ("0", "1") saw (a game still running, DG-2.6), with the log as that
    viewer read it; the board drawn from the side of the seat `bottom` (a table's person, whichever seat they had),
    else from the viewer's, or South's. `rules_version`: the older rules it was played under, named on the page
    (RV-4); no frames: nothing to show (RV-6)."""
    rules = {"rules_version": rules_version}
    if not frames or viewer not in frames[0]:
        return {"view": None, "log": [], "step": 0, "steps": 0, "previous": None, "next": None, "last": 0, **rules}
    last = len(frames) - 1
    step = max(0, min(step, last))
    seen = frames[step][viewer]["seen"]
    view = (position_view(seen, faces, reveal_all=True, bottom=bottom) if viewer == ALL
            else position_view(seen, faces, viewer=int(viewer), bottom=bottom))
    return {
        "view": view,
        "log": [said for k in range(1, step + 1) if (said := frames[k][viewer]["said"])],  # DG-15.7: None unseen
        "step": step,
        "steps": last,
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < last else None,
        "last": last,
        **rules,
    }
