"""Policies that play Dreadgate: pure Python over the engine, seeded, swappable per seat.

- `passive`: the goldfish opponent; keeps its hand and does nothing.
- `random`: a uniformly random legal action, the baseline.
- `classic-goldfish`: races to the Beyond win (DG-1.2): deploys legends then the biggest units it can pay for,
  recycles spare cards to pay, advances on the Gateway, grounds fliers that can reach it, draws
  when it has nothing better to do.
- `classic-matchup`: the goldfish plan, plus attacks that win their combat and a defence that hurts melee attackers.

Each policy scores the legal actions and takes the best, ties broken by the seat's own random source,
so a game is replayable from its seed. A policy receives a SeatView (what its seat may see), never the State.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from playtest.dreadgate.actions import (
    ATTACK,
    DEFEND,
    DEPLOY,
    DRAW,
    END,
    EQUIP,
    GROUND,
    KEEP,
    MOVE,
    MULLIGAN,
    PASS,
    RECYCLE,
    STRIKE,
    TARGET_UNIT,
    Action,
)  # fmt: skip
from playtest.dreadgate.board import GATE, MASK_DIRS, RAYS, distance, turn_mask
from playtest.dreadgate.state import (
    COMBAT_PHASE,
    DEFENSE_PHASE,
    MAIN_PHASE,
    MULLIGAN_PHASE,
    RESPONSE_PHASE,
    TACTICAL,
)
from playtest.dreadgate.view import SeatView

Policy = Callable[[SeatView, random.Random], Action]
BOARD_KINDS = ("unit", "legend")
GATE_DISTANCE = tuple(distance(cell, GATE) for cell in range(25))


def passive(view: SeatView, rng: random.Random) -> Action:
    legal = view.legal_actions()
    for preferred in ((KEEP, 0, 0), (END, 0, 0), (PASS, 0, 0), (STRIKE, 0, 0)):
        if preferred in legal:
            return preferred
    return legal[0]


def random_legal(view: SeatView, rng: random.Random) -> Action:
    return rng.choice(view.legal_actions())


def best_scored(scored: list[tuple[float, Action]], rng: random.Random) -> Action:
    top, best = scored[0][0], []
    for score, action in scored:
        if score > top:
            top, best = score, [action]
        elif score == top:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


def _gate_reach(view: SeatView, cell: int, mdirs: int, reach: int) -> bool:
    """Whether a grounded unit on `cell` could end a maneuver on the Gateway (DG-8.5)."""
    board = view.board
    for d in MASK_DIRS[mdirs]:
        for step in RAYS[cell][d][:reach]:
            if step == GATE:
                return True
            if board[step] >= 0:
                break
    return False


class GoldfishPlan:
    """Scores for the race to the Beyond; `matchup` adds combat on top."""

    def __init__(self, fight: bool = False):
        self.fight = fight

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        phase = view.phase
        legal = view.legal_actions()
        if phase == MULLIGAN_PHASE:
            has_board_card = any(view.inst[iid].kind in BOARD_KINDS for iid in view.hand)
            return (KEEP, 0, 0) if has_board_card or (MULLIGAN, 0, 0) not in legal else (MULLIGAN, 0, 0)
        if phase == MAIN_PHASE:
            hand = self.hand_plan(view)
            return best_scored([(self.score(view, a, hand), a) for a in legal], rng)
        if phase == COMBAT_PHASE:
            return self.combat(view, legal, rng)
        if phase == DEFENSE_PHASE:
            return self.defend(view, legal, rng)
        if phase == RESPONSE_PHASE:
            return (PASS, 0, 0)  # the plan plays no instants: it lets the opponent's action stand (DG-15.5)
        if legal and legal[0][0] == TARGET_UNIT:
            me = view.current_player
            enemies = [a for a in legal if view.units[a[1]].owner != me]
            return rng.choice(enemies or legal)
        return rng.choice(legal)

    def hand_plan(self, view: SeatView) -> tuple[bool, bool]:
        """Once per decision: (a unit or legend in hand can be paid now, recycling would pay for one)."""
        inst = view.inst
        hand = view.hand
        spare = sum(1 for iid in hand if inst[iid].kind not in BOARD_KINDS)
        payable = recyclable = False
        for iid in hand:
            c = inst[iid]
            if c.kind in BOARD_KINDS:
                short = c.vit - view.available(c.craft)
                payable = payable or short <= 0
                recyclable = recyclable or (0 < short <= spare and view.ap >= 1)
        return payable, recyclable

    def score(self, view: SeatView, action: Action, hand: tuple[bool, bool]) -> float:
        kind, a, b = action
        p = view.active
        racing = view.fmt != TACTICAL
        if kind == MOVE:
            u = view.units[a]
            if b == GATE:
                return 1000 + u.vit
            if not racing:
                return self.advance_score(view, u, b) if self.fight else -1
            return self.advance_score(view, u, b)
        if kind == DEPLOY:
            c = view.defs[a]
            if c.kind == "legend":
                return 900 + (c.influence or 0)
            mdirs = turn_mask(c.mdirs, p)
            lined_up = racing and _gate_reach(view, b, mdirs, 2)
            return 500 + 10 * c.vit + (20 if lined_up else 0) - GATE_DISTANCE[b]
        if kind == GROUND:
            u = view.units[a]
            return 950 if racing and _gate_reach(view, u.cell, u.mdirs, u.mnv) else -1
        if kind == RECYCLE:
            # Recycle a card that is not a unit or legend when that lets a unit in hand be paid for.
            return 300 if hand[1] and view.defs[a].kind not in BOARD_KINDS else -1
        if kind == ATTACK:
            return self.attack_score(view, a, b) if self.fight else -1
        if kind == EQUIP:
            return 40 if b >= 0 and view.ap >= 2 else -1
        if kind == DRAW:
            return 20 if hand[0] else 100
        if kind == END:
            return 0
        return -1  # talents, glyphs and other abilities: not part of the plan

    def advance_score(self, view: SeatView, u, cell: int) -> float:
        before, after = GATE_DISTANCE[u.cell], GATE_DISTANCE[cell]
        lined_up = _gate_reach(view, cell, u.mdirs, u.mnv) and not u.flying
        gain = (before - after) * 50 + (100 if lined_up else 0)
        return 200 + gain if gain > 0 else -1

    def attack_score(self, view: SeatView, attacker: int, target: int) -> float:
        u, t = view.units[attacker], view.units[target]
        melee = distance(u.cell, t.cell) == 1
        if u.atk > t.dfn:
            kills = u.atk - t.dfn >= t.vit
            return 600 + (200 if kills else 0) + 10 * t.vit + (0 if melee else 50)
        if not melee:
            return 150 if u.atk == t.dfn else -1
        return -1

    def combat(self, view: SeatView, legal: list[Action], rng: random.Random) -> Action:
        target, attackers, _ = view.combat
        t = view.units[target]
        total = sum(view.units[a].atk for a, _ in attackers)
        more = [a for a in legal if a[0] == ATTACK]
        if total <= t.dfn and more:
            return max(more, key=lambda a: (view.units[a[1]].atk, -a[1]))
        return (STRIKE, 0, 0)

    def defend(self, view: SeatView, legal: list[Action], rng: random.Random) -> Action:
        defends = [a for a in legal if a[0] == DEFEND]
        if not defends:
            return (PASS, 0, 0) if (PASS, 0, 0) in legal else rng.choice(legal)
        # All the defense on the strongest attacker: the return damage hurts it most. An attacker that has left
        # the battlefield (an instant of this defence step) is still offered a share, which would hurt nothing.
        units = view.units
        return max(defends, key=lambda a: (a[2], units[a[1]].atk if a[1] in units else -1, -a[1]))


classic_goldfish = GoldfishPlan(fight=False)
classic_matchup = GoldfishPlan(fight=True)
