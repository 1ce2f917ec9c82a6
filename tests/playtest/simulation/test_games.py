"""Simulated games hand each policy a view of its own seat, never the true state."""

from __future__ import annotations

from playtest import policies
from playtest.dreadgate.view import SeatView
from playtest.policies import classic
from playtest.simulation import games
from tests.playtest.dreadgate.factories import FILLER


def test_each_policy_receives_only_its_seats_view(monkeypatch):
    seen = []

    def spy(view, rng):
        seen.append((type(view), view.seat, view.current_player))
        return classic.passive(view, rng)

    monkeypatch.setitem(policies.POLICIES, "spy", spy)
    games.play_game([FILLER, FILLER], "standard", 11, ["spy", "spy"])
    assert seen and all(kind is SeatView and seat == to_act for kind, seat, to_act in seen)
    assert {seat for _, seat, _ in seen} == {0, 1}
