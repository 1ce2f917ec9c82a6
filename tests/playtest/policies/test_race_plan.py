"""The race plan, the prior of the whole-deck policies: its routine choices that the evaluation does not judge."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate import new_game
from playtest.dreadgate.actions import DEPLOY, RECYCLE
from playtest.dreadgate.state import MAIN_PHASE
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES
from playtest.policies.lookahead import NEVER_ROUTINE
from playtest.simulation.catalog import starter_decks
from tests.playtest.dreadgate.factories import ability, game, give, put, talent, unit

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


HEAL = {"op": "heal", "amount": 2, "target": {"select": "chosen", "side": "friendly"}}
MARCH = {"op": "modify", "stat": "maneuver", "amount": 1, "duration": "end_of_turn",
         "target": {"select": "all", "side": "friendly"}}


def _tried(state, monkeypatch) -> list:
    """The actions the policy's search tries at its decision in `state` (the prior's choice and the candidates)."""
    policy = POLICIES["goldfish"]
    tried = []
    original = type(policy).candidates

    def recording(self, view, legal, rng):
        found = original(self, view, legal, rng)
        if view.seen() == SeatView(state, 0).seen():
            tried.extend(found)
        return found

    monkeypatch.setattr(type(policy), "candidates", recording)
    policy(SeatView(state, 0), random.Random(3))
    return tried


def test_goldfish_tries_only_the_cards_that_could_bring_the_win_closer_when_no_enemy_unit_is_there(monkeypatch):
    """A heal acts only in a fight, which a passive opponent never brings: goldfish doesn't try it; a maneuver
    bonus could bring the win closer: it is tried. With an enemy unit on the board, both are tried."""
    cards = (MIDDLE, talent("T-HEAL", ability("play", HEAL), cost=1), talent("T-MARCH", ability("play", MARCH), cost=1))
    state = game(*cards)
    put(state, 0, "U-MID", "b2")
    give(state, 0, "T-HEAL")
    give(state, 0, "T-MARCH")
    tried = {a[1] for a in _tried(state, monkeypatch)}
    assert state.by_code["T-MARCH"] in tried and state.by_code["T-HEAL"] not in tried
    enemy = game(*cards, BIG)
    put(enemy, 0, "U-MID", "b2")
    put(enemy, 1, "U-BIG", "d4")
    give(enemy, 0, "T-HEAL")
    give(enemy, 0, "T-MARCH")
    assert {enemy.by_code["T-HEAL"], enemy.by_code["T-MARCH"]} <= {a[1] for a in _tried(enemy, monkeypatch)}


@pytest.mark.parametrize("fmt", ["standard", "quick", "tactical"])
def test_the_scores_of_a_decision_are_those_of_score(fmt):
    """The plan scores a decision's actions with the reads they share made once (`scored`): the same scores, in
    the same order, as `score` gives each action alone, at every main-phase decision of matchup games."""
    decks = starter_decks(fmt)
    crafts = sorted(decks)
    checked = 0
    for i, craft in enumerate(crafts[:3]):
        state = new_game([decks[craft], decks[crafts[i + 1]]], 40 + i, fmt)
        rngs = [random.Random(1), random.Random(2)]
        while state.winner < 0 and state.turn < 12:
            seat = state.current_player
            view = SeatView(state, seat)
            policy = POLICIES["matchup"]
            if view.phase == MAIN_PHASE:
                plan, legal = policy.plan, view.legal_actions()
                hand = plan.hand_plan(view)
                assert plan.scored(view, legal, hand) == [
                    (plan.score(view, a, hand), a) for a in legal if a[0] not in NEVER_ROUTINE]
                checked += 1
            state.apply(policy(view, rngs[seat]))
    assert checked > 20
