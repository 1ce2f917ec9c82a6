"""The whole-deck policies: every legal action is a candidate, chosen by what it does to the position.

Each decision scores every legal action cheaply (a prior), keeps the most promising few, tries each on a
determinized copy of the game (the hidden cards resampled from what the seat cannot see), plays out what the
action sets in motion (its targets, a discard, the combat it starts, the opponent's defence), evaluates the
resulting position (playtest.policies.evaluation) and takes back every step with `undo`. Talents, glyphs,
items, abilities, instants, flying and grounding are tried like any other action: nothing is chosen from a
table of card kinds.

- `goldfish` (fast): searches only when a card or an ability could be played, or a combat or target choice is
  open; otherwise it follows its prior, which already races well (docs/ai.md has the figures).
- `matchup` (strong): searches every decision, over more candidates, with an evaluation that weighs threats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from playtest.dreadgate.actions import (
    A_END,
    A_KEEP,
    A_MULLIGAN,
    A_PASS,
    DEFEND,
    DRAW,
    END,
    EQUIP,
    FLY,
    GROUND,
    INSTANT,
    PASS,
    PLAY,
    RECYCLE,
    STRIKE,
    USE,
    Action,
)
from playtest.dreadgate.state import COMBAT_PHASE, DEFENSE_PHASE, MAIN_PHASE, MULLIGAN_PHASE, OVER_PHASE, State
from playtest.dreadgate.view import SeatView

from .classic import BOARD_KINDS, GoldfishPlan
from .evaluation import GOLDFISH_WEIGHTS, MATCHUP_WEIGHTS, Weights, evaluate

# Actions whose worth depends on a card's effect: always tried on a copy, never judged by kind alone.
EFFECT_KINDS = frozenset({PLAY, INSTANT, USE, EQUIP})
# Routine kinds the prior ranks well; the best few of each are tried beside the effects.
ROUTINE_PRIOR_KINDS = frozenset({DRAW, RECYCLE, GROUND, FLY, END})
EFFECT_PRIOR = 400.0
CONTINUATION_LIMIT = 8  # steps an action may set in motion before the position is evaluated
CHOICE_LIMIT = 12  # options tried at a target or discard choice inside a continuation


class Lookahead:
    """A policy: `policy(view, rng) -> action` for the seat to decide (see the module docstring)."""

    def __init__(self, name: str, weights: Weights, breadth: int, per_kind: int, search_every_decision: bool):
        self.name = name
        self.weights = weights
        self.breadth = breadth
        self.per_kind = per_kind
        self.search_every_decision = search_every_decision
        self.plan = GoldfishPlan(fight=weights.fight)  # the prior, and the default in continuations

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase == MULLIGAN_PHASE:
            return A_KEEP if self.keeps(view) or A_MULLIGAN not in legal else A_MULLIGAN
        candidates = self.candidates(view, legal, rng)
        if len(candidates) == 1:
            return candidates[0]
        me = view.seat
        world = view.determinize(rng)  # the hidden cards resampled: never the true deck order or hand
        best, best_value = candidates[0], float("-inf")
        for action in candidates:  # candidates come best prior first: ties keep the prior's order
            value = self.value_after(world, action, me)
            if value > best_value:
                best, best_value = action, value
        return best

    # --- Which actions to try ----------------------------------------------------------------------------

    def keeps(self, view: SeatView) -> bool:
        """Keep a hand with a unit or legend that can come down in the first two turns, or two of them."""
        inst = view.inst
        board = [inst[iid].vit for iid in view.hand if inst[iid].kind in BOARD_KINDS]
        return len(board) >= 2 or any(vit <= 5 for vit in board)

    def prior(self, view: SeatView, action: Action, hand: tuple[bool, bool]) -> float:
        if action[0] in EFFECT_KINDS:
            return EFFECT_PRIOR
        return self.plan.score(view, action, hand)

    def candidates(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> list[Action]:
        """The actions worth trying, best prior first."""
        if view.phase != MAIN_PHASE:
            if len(legal) <= CHOICE_LIMIT:
                return list(legal)
            return [self.plan(view, random.Random(0))] + [a for a in legal[: CHOICE_LIMIT - 1]]
        hand = self.plan.hand_plan(view)
        scored = sorted(((self.prior(view, a, hand), a) for a in legal), key=lambda sa: -sa[0])
        effects = [a for _, a in scored if a[0] in EFFECT_KINDS][: self.breadth]
        if not self.search_every_decision:
            # The prior's own choice, against every card or ability that could be played instead.
            routine = self.plan(view, rng)
            return [routine] + [a for a in effects if a != routine]
        # The best few of each routine kind the prior does not rule out, then the effects.
        chosen: list[Action] = []
        per_kind: dict[int, int] = {}
        for score, action in scored:
            kind = action[0]
            if kind in EFFECT_KINDS or per_kind.get(kind, 0) >= self.per_kind:
                continue
            if score >= 0 or kind == END:
                per_kind[kind] = per_kind.get(kind, 0) + 1
                chosen.append(action)
        if A_END in legal and A_END not in chosen:
            chosen.append(A_END)
        return chosen + effects

    # --- Trying an action ----------------------------------------------------------------------------------

    def value_after(self, world: State, action: Action, me: int) -> float:
        """The position's value after the action and what it sets in motion; the world is left unchanged."""
        world.apply(action)
        steps = 1 + self.continue_play(world, me)
        value = evaluate(world, me, self.weights)
        for _ in range(steps):
            world.undo()
        return value

    def continue_play(self, world: State, me: int) -> int:
        """Play the choices an action opens (targets, discards, combat, the defence) until a main phase."""
        steps = 0
        while steps < CONTINUATION_LIMIT and world.phase not in (MAIN_PHASE, MULLIGAN_PHASE, OVER_PHASE):
            legal = world.legal_actions()
            if world.current_player == me:
                action = self.own_choice(world, legal, me)
            else:
                action = self.their_choice(world, legal)
            world.apply(action)
            steps += 1
        return steps

    def own_choice(self, world: State, legal: Sequence[Action], me: int) -> Action:
        if world.phase in (COMBAT_PHASE, DEFENSE_PHASE):
            return self.plan(SeatView(world, me), random.Random(0))
        best, best_value = legal[0], float("-inf")
        for action in legal[:CHOICE_LIMIT]:  # a target or a discard: the best position one step on
            world.apply(action)
            value = evaluate(world, me, self.weights)
            world.undo()
            if value > best_value:
                best, best_value = action, value
        return best

    def their_choice(self, world: State, legal: Sequence[Action]) -> Action:
        """The opponent's answer inside a continuation: a defence like the classic plan's, or passing."""
        if not self.weights.fight:
            return A_PASS if A_PASS in legal else legal[0]
        their_view = SeatView(world, world.current_player)
        if world.phase == DEFENSE_PHASE and any(a[0] in (DEFEND, PASS, STRIKE) for a in legal):
            return self.plan.defend(their_view, list(legal), random.Random(0))
        return self.plan(their_view, random.Random(0))


goldfish = Lookahead("goldfish", GOLDFISH_WEIGHTS, breadth=6, per_kind=1, search_every_decision=False)
matchup = Lookahead("matchup", MATCHUP_WEIGHTS, breadth=10, per_kind=2, search_every_decision=True)
