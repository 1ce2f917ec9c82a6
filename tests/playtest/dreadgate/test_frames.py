"""What each step of a Dreadgate game showed, per viewer (docs/rules.md, RV-2): the frames a stored game keeps."""

from __future__ import annotations

import random

from core import frames as packed
from playtest.dreadgate import describe_action, game_frames, new_game
from playtest.dreadgate.record import game_frames_from, replay_frames
from playtest.simulation.catalog import starter_decks

from .factories import FILLER

FRAME_BOUND = 30_000  # bytes, packed, for a 400-action game with each seat's view and the full one


def played(decks, seed: int, steps: int):
    state = new_game(decks, seed)
    rnd = random.Random(seed)
    while not state.is_over() and len(state.history) < steps:
        state.apply(rnd.choice(state.legal_actions()))
    return state


def test_each_step_shows_each_seat_its_observation_and_the_words_of_the_action():
    state = played([FILLER, FILLER], 5, 30)
    frames = game_frames(state)
    assert len(frames) == 31 and set(frames[0]) == {"0", "1", "all"}
    fresh = state.replay(())
    for step, frame in enumerate(frames):
        for seat in (0, 1):
            obs = fresh.observation(seat)
            obs.pop("engine")
            assert frame[str(seat)]["seen"] == obs
            assert "hand" in frame[str(seat)]["seen"]["players"][seat]
            assert "hand" not in frame[str(seat)]["seen"]["players"][1 - seat]  # DG-2.6
        everything = frame["all"]["seen"]["players"]
        assert [len(p["hand"]) for p in everything] == [len(h) for h in fresh.hand]
        if step < len(state.history):
            action = state.history[step]
            assert frames[step + 1]["0"]["said"] == describe_action(fresh, action, 0)
            assert frames[step + 1]["all"]["said"] == describe_action(fresh, action, -1)
            fresh.apply(action)
    assert frames[0]["0"]["said"] is None
    assert frames[1]["0"]["said"].startswith(("You", "The opponent"))
    assert frames[1]["all"]["said"].startswith(("South", "North"))


def test_the_frames_from_a_step_are_those_of_the_whole_game_from_it():
    state = played([FILLER, FILLER], 7, 40)
    whole = game_frames(state)
    for step in (0, 1, 2, 17, 39, 40):
        assert game_frames_from(state, step) == whole[step:], step
        # added to the frames stored before the step, they pack as the whole game does (what a table stores)
        assert packed.extend(packed.pack(whole[:step + 1]), game_frames_from(state, step)) == packed.pack(whole)


def test_a_replay_under_rules_that_refuse_an_action_stops_there():
    state = played([FILLER, FILLER], 5, 10)
    actions = [list(a) for a in state.history]
    actions[6] = [99, 0, 0]
    frames, refused = replay_frames(state.replay(()), actions, ("all",))
    assert refused == 6 and len(frames) == 7 and set(frames[0]) == {"all"}


def test_a_400_action_game_packs_within_the_bound():
    """The figure behind the bound: bench/frames.py prints it for several games."""
    decks = starter_decks()
    names = sorted(decks)
    state = played([decks[names[0]], decks[names[1]]], 5, 400)  # seed 5 plays on past 400 actions
    frames = game_frames(state)
    data = packed.pack(frames)
    assert len(state.history) == 400 and len(data) < FRAME_BOUND
    assert packed.unpack(data) == frames
