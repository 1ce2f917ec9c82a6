"""No policy decides on a card its seat cannot see.

At every decision of real games, the same policy with the same random draws is asked twice: on the true state,
and on a state where every card the seat cannot see (the opponent's unseen hand, both decks' order, the random
source) has been shuffled among the hidden places. A fair policy decides the same; a policy that peeks at the
deck is caught by the same check.
"""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate import new_game
from playtest.dreadgate.actions import A_DRAW, A_END
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES
from playtest.simulation.catalog import starter_decks
from tests.playtest.dreadgate.test_view import hide_differently

PAIRS = [("sorcery", "champion"), ("artifice", "divine"), ("engineering", "hinter")]


def peeking(view: SeatView, rng: random.Random):
    """A cheat: draws only when the top of its own deck is a unit (it reads the true state behind the view)."""
    legal = view.legal_actions()
    state = view._s
    deck = state.deck[view.seat]
    if A_DRAW in legal and deck and state.inst[deck[-1]].kind == "unit":
        return A_DRAW
    return A_END if A_END in legal else legal[0]


def decisions_that_change(policy, policies_of_play: tuple[str, str], games: int) -> tuple[int, int]:
    """(decision points checked, decisions that changed when the hidden cards were shuffled)."""
    decks = starter_decks()
    points = changed = 0
    for g in range(games):
        a, b = PAIRS[g % len(PAIRS)]
        state = new_game([decks[a], decks[b]], 100 + g, "standard")
        play_rng = random.Random(g)
        while state.winner < 0 and state.turn < 40:
            seat = state.current_player
            twin = hide_differently(state, seat, random.Random(points))
            mine = policy(SeatView(state, seat), random.Random(points))
            theirs = policy(SeatView(twin, seat), random.Random(points))
            points += 1
            changed += mine != theirs
            state.apply(POLICIES[policies_of_play[seat]](SeatView(state, seat), play_rng))
    return points, changed


@pytest.mark.parametrize("name", ["goldfish", "matchup"])
def test_the_policies_decide_the_same_whatever_the_hidden_cards(name):
    points, changed = decisions_that_change(POLICIES[name], (name, "matchup"), games=8)
    assert points >= 1000
    assert changed == 0


def test_a_policy_that_peeks_at_its_deck_is_caught():
    points, changed = decisions_that_change(peeking, ("matchup", "matchup"), games=2)
    assert points >= 100 and changed > 0
