"""Undo across the end of a turn puts back the influence a deploy of that turn spent down to nothing."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate import new_game
from playtest.dreadgate.actions import A_END, DEPLOY
from playtest.dreadgate.state import MAIN_PHASE
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES
from playtest.simulation.catalog import starter_decks

from .test_properties import full_state

pytestmark = pytest.mark.config_independent


def test_undoing_a_deploy_that_spent_all_influence_and_the_end_of_turn_restores_the_influence():
    decks = starter_decks()
    state = new_game([decks["champion"], decks["engineering"]], 1000, "standard")
    rng = random.Random(0)
    checked = 0
    while state.winner < 0 and checked < 3:
        if state.phase == MAIN_PHASE and any(state.infl):
            for action in [a for a in state.legal_actions() if a[0] == DEPLOY]:
                before = full_state(state)
                state.apply(action)
                if state.phase == MAIN_PHASE and not any(state.infl) and A_END in state.legal_actions():
                    state.apply(A_END)
                    state.undo()
                    checked += 1
                state.undo()
                assert full_state(state) == before
        state.apply(POLICIES["classic-matchup"](SeatView(state, state.current_player), rng))
    assert checked
