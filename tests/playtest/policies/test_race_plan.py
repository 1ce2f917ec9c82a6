"""The race plan, the prior of the whole-deck policies: its routine choices that the evaluation does not judge."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate import new_game
from playtest.dreadgate.actions import DEPLOY, RECYCLE
from playtest.dreadgate.state import MAIN_PHASE
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES
from playtest.policies.classic import best_scored
from playtest.policies.lookahead import NEVER_ROUTINE, NEVER_ROUTINE_UNFIT
from playtest.simulation.catalog import starter_decks
from tests.playtest.dreadgate.factories import ability, game, give, put, talent, unit
from tests.playtest.dreadgate.test_properties import start

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


@pytest.mark.parametrize("name", ["goldfish", "matchup"])
@pytest.mark.parametrize("fmt", ["standard", "quick", "tactical"])
def test_the_plans_choice_is_the_best_by_score(fmt, name):
    """The plan chooses in one pass (`best`), with the reads a decision's actions share made once and the
    maneuvers that can't reach the best score so far not scored: the same choice, ties drawn alike, as
    best_scored over `score` for each action alone, at every main-phase decision of games (and, from a source
    that must break a tie, at the ones with one)."""
    decks = starter_decks(fmt)
    crafts = sorted(decks)
    policy = POLICIES[name]
    plan = policy.plan
    skip = NEVER_ROUTINE if plan.fight else NEVER_ROUTINE_UNFIT
    checked = tied = 0
    for i, craft in enumerate(crafts[:3]):
        state = new_game([decks[craft], decks[crafts[i + 1]]], 40 + i, fmt)
        rngs = [random.Random(1), random.Random(2)]
        while state.winner < 0 and state.turn < 12:
            seat = state.current_player
            view = SeatView(state, seat)
            if view.phase == MAIN_PHASE:
                legal = view.legal_actions()
                hand = plan.hand_plan(view)
                scored = [(plan.score(view, a, hand), a) for a in legal if a[0] not in skip]
                for k in range(3):
                    assert plan.best(view, legal, hand, random.Random(k)) == best_scored(scored, random.Random(k))
                checked += 1
                tied += sum(s == max(scored)[0] for s, _ in scored) > 1
            state.apply(policy(view, rngs[seat]))
    assert checked > 20 and tied > 0


@pytest.mark.parametrize("name", ["goldfish", "matchup"])
def test_the_plans_choice_is_the_best_by_score_in_random_play(name):
    """As above over the positions of random play, whose boards and hands games of the policies seldom reach."""
    plan = POLICIES[name].plan
    skip = NEVER_ROUTINE if plan.fight else NEVER_ROUTINE_UNFIT
    checked = 0
    for seed in range(8):
        state = start(seed, ("standard", "quick")[seed % 2])
        rnd = random.Random(seed)
        while not state.is_over() and state.turn < 60:
            if state.phase == MAIN_PHASE:
                view = SeatView(state, state.current_player)
                legal = view.legal_actions()
                hand = plan.hand_plan(view)
                scored = [(plan.score(view, a, hand), a) for a in legal if a[0] not in skip]
                assert plan.best(view, legal, hand, random.Random(seed)) == best_scored(scored, random.Random(seed))
                checked += 1
            state.apply(rnd.choice(state.legal_actions()))
    assert checked > 500
