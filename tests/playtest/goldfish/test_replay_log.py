"""The replay's log, read from the stored frames: a step a seat was not shown is left out of that seat's log."""

from __future__ import annotations

import pytest

from playtest.dreadgate.record import replay_frames
from playtest.goldfish.board import CardFaces
from playtest.goldfish.stored import replay_view
from tests.playtest.dreadgate.factories import ability, game, give, play, put, talent, unit

pytestmark = pytest.mark.config_independent

ZAP = talent("T-ZP", ability("instant", {"op": "damage", "amount": 1,
                                         "target": {"select": "chosen", "side": "enemy"}}, cost=1),
             cost=1, instant=True)  # fmt: skip


def test_a_window_the_opponent_passed_is_not_in_the_seats_replay_log():
    """DG-15.7: South draws, North passes its window: South's replay log says the draw only; North's the pass."""
    s = game(unit("U-PW"), ZAP)
    put(s, 0, "U-PW", "b2")
    give(s, 1, "T-ZP")
    s.tp[1] = 1
    start = s.copy()
    play(s, "draw", "pass")
    frames, _ = replay_frames(start, s.history[len(start.history):])
    faces = CardFaces({})
    assert replay_view(frames, 2, faces, viewer="0")["log"] == ["You draw a card"]
    assert replay_view(frames, 2, faces, viewer="1")["log"] == ["The opponent draws a card",
                                                               "You let it stand, without an instant"]  # fmt: skip
