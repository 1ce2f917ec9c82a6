"""The race plan, the prior of the whole-deck policies: its routine choices that the evaluation does not judge."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate.actions import DEPLOY, RECYCLE
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES
from tests.playtest.dreadgate.factories import game, give, unit

SMALL = unit("U-SMALL", vit=1)
MIDDLE = unit("U-MID", vit=3)
BIG = unit("U-BIG", vit=5)


def _decide(state, name):
    return POLICIES[name](SeatView(state, state.current_player), random.Random(3))


@pytest.mark.parametrize("name", ["goldfish", "matchup"])
def test_the_weakest_of_three_units_in_hand_pays_a_point_of_the_biggest(name):
    """DG-7.6 and DG-7.3: with three units in hand and nothing else, recycling the smallest pays one point of the
    5-vitality unit, which 4 action points alone can't deploy."""
    state = game(SMALL, MIDDLE, BIG)
    for code in ("U-SMALL", "U-MID", "U-BIG"):
        give(state, 0, code)
    state.ap = 4
    state._stamp += 1
    action = _decide(state, name)
    assert action == (RECYCLE, state.by_code["U-SMALL"], 0)
    state.apply(action)
    assert _decide(state, name)[:2] == (DEPLOY, state.by_code["U-BIG"])


@pytest.mark.parametrize("name", ["goldfish", "matchup"])
def test_two_units_in_hand_are_both_kept(name):
    """With only one other unit in hand, the smaller unit is not spent: the plan deploys what it can pay."""
    state = game(SMALL, BIG)
    for code in ("U-SMALL", "U-BIG"):
        give(state, 0, code)
    state.ap = 4
    state._stamp += 1
    assert _decide(state, name)[0] != RECYCLE
