"""The evaluation: its one-pass form gives exactly the values of its definition, term by term."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate.board import GATE, MASK_DIRS, RAYS, distance
from playtest.dreadgate.state import BEYOND_GOAL, BONEYARD_GOAL, DRAW_RESULT, MAIN_PHASE, TACTICAL
from playtest.policies.evaluation import (
    GOLDFISH_WEIGHTS,
    MATCHUP_WEIGHTS,
    WIN,
    Weights,
    evaluate,
    maneuvers_to_gate,
)
from tests.playtest.dreadgate.test_properties import start


def _lined_up(state, u) -> bool:
    """A grounded unit whose maneuver line reaches the Gateway through empty cells (DG-8.5)."""
    if u.flying:
        return False
    for d in MASK_DIRS[u.mdirs]:
        for step in RAYS[u.cell][d][: u.mnv]:
            if step == GATE:
                return True
            if state.board[step] >= 0:
                break
    return False


def _turns_to_pass(state, u) -> int:
    movable_now = state.active == u.owner and state.ap > 0 and u.moved != state.turn and state._can_act(u)
    moves = 1 if _lined_up(state, u) else maneuvers_to_gate(u.mdirs, max(u.mnv, 1))[u.cell]
    held = u.subdued_by >= 0 or u.stun > state.turn
    return (moves if movable_now else moves + 1) + (1 if held else 0)


def _threat(state, victim, w: Weights) -> float:
    for enemy in state.units.values():
        if enemy.owner == victim.owner or enemy.atk <= victim.dfn:
            continue
        if victim.flying and enemy.rng < 2:
            continue
        if distance(enemy.cell, victim.cell) <= max(enemy.rng, 1) + enemy.mnv and enemy.atk - victim.dfn >= victim.vit:
            return w.threatened * victim.vit
    return 0.0


def reference(state, me: int, w: Weights) -> float:
    """The evaluation unit by unit, as docs/ai.md defines it (a clear line to the Gateway read on the board)."""
    if state.winner >= 0:
        return 0.0 if state.winner == DRAW_RESULT else (WIN if state.winner == me else -WIN)
    fmt = state.fmt
    racing = fmt != TACTICAL
    beyond_goal = BEYOND_GOAL[fmt] or 1
    bone_goal = BONEYARD_GOAL[fmt]
    race = [float(state.beyond_score[0]), float(state.beyond_score[1])]
    strength = [0.0, 0.0]
    at_risk = [0.0, 0.0]
    for u in state.units.values():
        o = u.owner
        if racing:
            race[o] += u.vit * w.tempo ** _turns_to_pass(state, u)
        else:
            strength[o] += w.material * (u.atk + u.dfn) + 0.3 * u.vit
        if w.fight and o != state.active:
            at_risk[o] += _threat(state, u, w)
    opp = 1 - me
    points = race[me] - race[opp] + strength[me] - strength[opp]
    points += w.in_hand * len(state.hand[me]) - w.in_their_hand * len(state.hand[opp])
    if state.active == me and state.phase == MAIN_PHASE:
        points += w.action_point * state.ap + w.other_point * (state.rp + sum(state.infl))
    value = 100.0 * points / (beyond_goal if racing else bone_goal)
    value += 100.0 * (state.bone_score[opp] - state.bone_score[me] + at_risk[opp] - at_risk[me]) / bone_goal
    return value


@pytest.mark.parametrize("fmt", ["standard", "quick", "tactical"])
def test_the_evaluation_is_exactly_its_definition_over_random_play(fmt):
    checked = lined_up = 0
    for seed in range(6):
        state = start(seed, fmt)
        rnd = random.Random(seed)
        while not state.is_over() and state.turn < 60:
            for w in (GOLDFISH_WEIGHTS, MATCHUP_WEIGHTS):
                for me in (0, 1):
                    assert evaluate(state, me, w) == reference(state, me, w)
            checked += 1
            lined_up += any(_lined_up(state, u) for u in state.units.values())
            state.apply(rnd.choice(state.legal_actions()))
    assert checked > 300 and (lined_up > 20 or fmt == "tactical")
