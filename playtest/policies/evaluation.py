"""How good a Dreadgate position is for one seat: the evaluation the lookahead policies compare positions by.

Every term is first measured in **vitality points**, the currency of both win totals (DG-1.2 to DG-1.5), so
that a unit on the battlefield, a card in hand and an unspent action point can be weighed against a unit in
the Beyond; the sum is then scaled so that reaching a win total is worth 100. docs/ai.md explains each
weight and how it was tuned.

Only what the seat may know is read: the board, scores, the seat's own hand and the sizes of the hidden zones.
The policies evaluate determinized states (hidden cards resampled), so nothing here can leak a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from playtest.dreadgate.board import GATE, MASK_DIRS, RAYS, distance
from playtest.dreadgate.state import (
    BEYOND_GOAL,
    BONEYARD_GOAL,
    DRAW_RESULT,
    MAIN_PHASE,
    TACTICAL,
    State,
)

WIN = 1_000_000.0
GATE_DISTANCE = tuple(distance(cell, GATE) for cell in range(25))


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights (docs/ai.md): shares of a unit's vitality, or vitality points."""

    tempo: float = 0.75  # a point scored one own turn later is worth this share of a point scored now
    in_hand: float = 0.6  # any card in hand (its worth shows once it is played; a flat value keeps draws exact)
    in_their_hand: float = 0.6  # any card in the opponent's hand
    action_point: float = 0.6  # an action point left in the seat's own main phase
    other_point: float = 0.05  # influence or recycling points left this turn
    material: float = 0.08  # Tactical: per point of attack + defense of a unit on the battlefield
    threatened: float = 0.05  # share of a unit's vitality at risk when an enemy can kill it next turn
    fight: bool = False  # weigh threats (matchups); a goldfish opponent never attacks


GOLDFISH_WEIGHTS = Weights()
MATCHUP_WEIGHTS = Weights(fight=True, action_point=0.3, tempo=0.9)


UNREACHABLE = 9


@lru_cache(maxsize=4096)
def maneuvers_to_gate(mdirs: int, reach: int) -> tuple[int, ...]:
    """Per cell, the fewest grounded maneuvers (straight lines in the unit's directions, DG-8.2) that end on
    the Gateway on an empty board; the Gateway can't be passed over (DG-8.5)."""
    moves = [UNREACHABLE] * 25
    moves[GATE] = 0
    frontier = [GATE]
    for depth in range(1, UNREACHABLE):
        reached = []
        for cell in range(25):
            if moves[cell] != UNREACHABLE:
                continue
            for d in MASK_DIRS[mdirs]:
                if any(moves[step] == depth - 1 for step in _line(cell, d, reach)):
                    moves[cell] = depth
                    reached.append(cell)
                    break
        if not reached:
            break
        frontier = reached
    del frontier
    return tuple(moves)


def _line(cell: int, d: int, reach: int) -> tuple[int, ...]:
    """Cells a maneuver may end on along one direction: up to `reach`, stopping at the Gateway."""
    out = []
    for step in RAYS[cell][d][:reach]:
        out.append(step)
        if step == GATE:
            break
    return tuple(out)


@lru_cache(maxsize=16)
def _powers(tempo: float) -> tuple[float, ...]:
    """tempo ** turns for every number of own turns a unit may need to pass (at most UNREACHABLE maneuvers, this
    turn and one held turn): the very floats of the power, looked up."""
    return tuple(tempo**turns for turns in range(UNREACHABLE + 3))


def _threat(state: State, victim, w: Weights) -> float:
    """Vitality at risk: an enemy unit in range and line could kill the victim on its next turn."""
    for enemy in state.units.values():
        if enemy.owner == victim.owner or enemy.atk <= victim.dfn:
            continue
        if victim.flying and enemy.rng < 2:  # only a ranged attack reaches a flying unit (DG-10.4)
            continue
        if distance(enemy.cell, victim.cell) <= max(enemy.rng, 1) + enemy.mnv and enemy.atk - victim.dfn >= victim.vit:
            return w.threatened * victim.vit
    return 0.0


def evaluate(state: State, me: int, w: Weights = GOLDFISH_WEIGHTS) -> float:
    """The position's value for seat `me`: progress to its win totals minus the opponent's, in points."""
    if state.winner >= 0:
        return 0.0 if state.winner == DRAW_RESULT else (WIN if state.winner == me else -WIN)
    fmt = state.fmt
    racing = fmt != TACTICAL
    beyond_goal = BEYOND_GOAL[fmt] or 1
    bone_goal = BONEYARD_GOAL[fmt]
    race = [float(state.beyond_score[0]), float(state.beyond_score[1])]
    strength = [0.0, 0.0]
    at_risk = [0.0, 0.0]
    units = state.units.values()
    active, turn = state.active, state.turn
    if racing:
        # A unit's vitality is already 'on its way' to its owner's Beyond by `tempo` per own turn it still needs
        # before it can end a maneuver on the Gateway (a unit that can pass this turn is worth `tempo` of a unit
        # that has passed): the maneuvers it needs on an empty board (one for a unit lined up on the Gateway: a
        # line clear now is clear on an empty board), one more unless its owner can still spend an action point
        # on it this turn, one more if it is subdued or stunned into its owner's next turn.
        discount = _powers(w.tempo)
        can_spend = state.ap > 0
        for u in units:
            turns = maneuvers_to_gate(u.mdirs, max(u.mnv, 1))[u.cell]
            if not (u.owner == active and can_spend and u.moved != turn and u.deployed != turn and u.stun < turn
                    and u.subdued_by < 0):
                turns += 1
            if u.subdued_by >= 0 or u.stun > turn:
                turns += 1
            race[u.owner] += u.vit * discount[turns]
    else:  # in Tactical the units on the battlefield are the whole game
        material = w.material
        for u in units:
            strength[u.owner] += material * (u.atk + u.dfn) + 0.3 * u.vit
    if w.fight:
        for u in units:
            if u.owner != active:
                at_risk[u.owner] += _threat(state, u, w)
    opp = 1 - me
    # In vitality points: the race, combat strength, the hands, the points left this turn.
    points = race[me] - race[opp] + strength[me] - strength[opp]
    points += w.in_hand * len(state.hand[me]) - w.in_their_hand * len(state.hand[opp])
    if state.active == me and state.phase == MAIN_PHASE:
        points += w.action_point * state.ap + w.other_point * (state.rp + sum(state.infl))
    # Scaled so that reaching a win total is worth 100.
    value = 100.0 * points / (beyond_goal if racing else bone_goal)
    value += 100.0 * (state.bone_score[opp] - state.bone_score[me] + at_risk[opp] - at_risk[me]) / bone_goal
    return value
