"""The strong level (playtest/policies/strong.py): `matchup`'s candidates judged by playing the opponent's replies
out on sampled worlds, decided by its seed and iteration budget alone."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate import new_game
from playtest.dreadgate.actions import A_END, ATTACK, MOVE
from playtest.dreadgate.board import GATE
from playtest.dreadgate.state import MAIN_PHASE
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES
from playtest.policies.lookahead import matchup
from playtest.policies.strong import DECIDED, Strong
from playtest.simulation.catalog import starter_decks
from tests.playtest.dreadgate.factories import game, put, unit

pytestmark = pytest.mark.config_independent

STRONG = POLICIES["strong"]


def _play(decks, seed: int, policies, turns: int = 12) -> list:
    state = new_game(decks, seed, "standard")
    rngs = [random.Random(seed * 2 + s) for s in (0, 1)]
    while state.winner < 0 and state.turn < turns:
        seat = state.current_player
        state.apply(policies[seat](SeatView(state, seat), rngs[seat]))
    return list(state.history)


def test_a_seed_and_a_budget_give_the_same_game():
    decks = starter_decks()
    pair = [decks["champion"], decks["sorcery"]]
    small = Strong("strong", matchup, budget=3)
    first = _play(pair, 41, [small, matchup])
    assert first == _play(pair, 41, [Strong("strong", matchup, budget=3), matchup])
    # The budget is what decides, not the clock: a cap far beyond the budget's time changes nothing.
    assert first == _play(pair, 41, [small.with_deadline(3600.0), matchup])
    # ... and the budget does decide: with a larger one the game goes otherwise.
    assert first != _play(pair, 41, [Strong("strong", matchup, budget=48), matchup])


def test_a_wall_time_cap_stops_the_search_after_one_iteration():
    decks = starter_decks()
    state = new_game([decks["champion"], decks["sorcery"]], 5, "standard")
    rng = random.Random(5)
    searched = []

    class Counting(Strong):
        def playout(self, world, action, me, rng):
            searched.append(action)
            return super().playout(world, action, me, rng)

    capped = Counting("strong", matchup, budget=50, deadline=0.0)
    while not searched and state.winner < 0:
        seat = state.current_player
        view = SeatView(state, seat)
        if view.phase == MAIN_PHASE and len(view.legal_actions()) > 2:
            capped(view, random.Random(1))
            assert not searched or len(searched) == len(set(searched)) > 1  # one world: each candidate once
        state.apply(matchup(SeatView(state, seat), rng))
    assert searched


def test_it_takes_a_win_available_now():
    """South's runner stands one maneuver from the Gateway with the vitality to win by the Beyond total: the search
    values passing above ending the turn, and the policy passes."""
    state = game(unit("U-RUN", vit=30, atk=1, dfn=1, rng=1, mnv=1))
    put(state, 0, "U-RUN", "c2")
    state.beyond_score[0] = 15  # 30 more reach Standard's 40 (DG-1.2)
    state._stamp += 1
    view = SeatView(state, 0)
    win = next(a for a in view.legal_actions() if a[0] == MOVE and a[2] == GATE)
    assert STRONG.search(view, [A_END, win], random.Random(3)) == win
    action = STRONG(view, random.Random(3))
    state.apply(action)
    assert state.winner == 0


def test_it_stops_a_win_of_the_opponent_next_turn():
    """North's runner stands one maneuver from the Gateway with the vitality to win by the Beyond total, and South's
    guard beside it can destroy it now: the search, which plays North's turn out, finds that ending the turn loses
    and attacks (the policy does so too, its prior's safety step agreeing)."""
    runner = unit("U-RUN", vit=19, atk=0, dfn=0, rng=1, mnv=1)  # one short of the Boneyard total
    guard = unit("U-GRD", vit=3, atk=40, dfn=1, rng=1, mnv=1)
    state = game(runner, guard)
    put(state, 1, "U-RUN", "c4")
    put(state, 0, "U-GRD", "b4")
    state.beyond_score[1] = 25  # 19 more reach Standard's 40
    state._stamp += 1
    assert state.current_player == 0
    view = SeatView(state, 0)
    world = view.determinize(random.Random(0))
    assert STRONG.playout(world, A_END, 0, random.Random(0)) == -DECIDED  # ending the turn loses
    attack = next(a for a in view.legal_actions() if a[0] == ATTACK)
    assert STRONG.search(view, [A_END, attack], random.Random(3)) == attack
    state.apply(STRONG(view, random.Random(3)))
    while state.winner < 0 and not (state.phase == MAIN_PHASE and state.current_player == 0):
        state.apply(STRONG(SeatView(state, state.current_player), random.Random(3)))  # the combat it started
    assert not any(u.owner == 1 for u in state.units.values())
