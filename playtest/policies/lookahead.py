"""The whole-deck policies: every card, ability and item is a candidate, chosen by what it does to the position.

At each decision the policy asks its prior (a race plan: deploy, maneuver toward the Gateway, recycle to pay,
draw) for its routine choice, then tries that choice and every card or ability that could be played instead
on a determinized copy of the game (the hidden cards resampled from what the seat cannot see). It plays out
what each action sets in motion (its targets, a discard, the combat it starts, the opponent's defence),
evaluates the resulting position (playtest.policies.evaluation), takes back every step with `undo`, and
keeps the best. In its main phase it does so over whole lines to the end of its turn (a small beam, finished
by the prior, `plan_turn`), and follows the line it chose while the game goes as the line expects. Talents,
glyphs, items, abilities, instants and, in `matchup`, attacks are judged this way: by their effect on the game,
never by a table of card kinds. Choices outside the main phase (targets,
defence, the attackers to add) are always tried this way.

- `goldfish` (the default; fast): evaluates for a race against a passive opponent.
- `matchup`: also tries every attack and weighs the threats between units.

docs/ai.md gives the evaluation's weights, how they were tuned, and what the policies measure against the
classic plans.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

from playtest.dreadgate.actions import (
    A_END,
    A_KEEP,
    A_MULLIGAN,
    A_PASS,
    ATTACK,
    DEFEND,
    DEPLOY,
    DRAW,
    END,
    EQUIP,
    FLY,
    GROUND,
    INSTANT,
    MOVE,
    PASS,
    PLAY,
    RECYCLE,
    STRIKE,
    USE,
    Action,
)
from playtest.dreadgate.board import BACK_RANK, GATE, turn_mask
from playtest.dreadgate.state import (
    BEYOND_GOAL,
    BONEYARD_GOAL,
    COMBAT_PHASE,
    DEFENSE_PHASE,
    MAIN_PHASE,
    MULLIGAN_PHASE,
    OVER_PHASE,
    TACTICAL,
    State,
)
from playtest.dreadgate.view import SeatView, seen_by

from . import mulligan
from .classic import BOARD_KINDS, GATE_DISTANCE, GoldfishPlan, best_scored
from .evaluation import GOLDFISH_WEIGHTS, MATCHUP_WEIGHTS, UNREACHABLE, Weights, evaluate, maneuvers_to_gate
from .passive_effects import abilities_need_an_opponent

# Actions whose worth depends on a card's effect: always tried on a copy, never judged by their kind.
EFFECT_KINDS = frozenset({PLAY, INSTANT, USE, EQUIP})


def may_win(action: Action) -> bool:
    """Whether the safety checks try the action for a win: passing the Gateway (DG-1.2) or an attack (a unit
    destroyed toward the Boneyard total). Cards and abilities are left to the evaluation: trying every one at
    every decision would cost more than the games they decide (docs/ai.md)."""
    return action[0] == ATTACK or (action[0] == MOVE and action[2] == GATE)

CONTINUATION_LIMIT = 8  # steps an action may set in motion before the position is evaluated
CHOICE_LIMIT = 12  # options tried at a choice outside the main phase
SPARE_FROM = 3  # units and legends in hand from which the weakest unit may be recycled (docs/ai.md)
BREADTH = 8  # cards and abilities tried beside the prior's choice at one decision
# Whole-turn planning (docs/ai.md): the lines of the turn kept after each own decision, and the own decisions
# searched; a line still in the turn after them is finished by the prior.
BEAM_WIDTH = 2
BEAM_DEPTH = 2
ROLLOUT_LIMIT = 12  # own decisions the prior may take to finish a line before it ends the turn
# A card valued as the plan's draw is played instead of it. The evaluation counts a card in hand alike whatever
# it is, so "draw 2 cards" for the action point of a draw (Forage, War Council) values exactly as the draw; but
# it leaves two unseen cards in hand where the draw leaves one and the draw card itself, which can only draw
# again. The forced-play experiment found those cards saving turns while the policy never chose them (docs/ai.md).
DRAW_TIE = 1e-9


def within_reach(world: State | SeatView, loser: int) -> bool:
    """A quick necessary condition for one action to win against `loser`: a unit of the other seat one maneuver
    from the Gateway whose vitality would reach the Beyond total (DG-9.1), or a unit of `loser` whose vitality
    would bring its Boneyard total to the goal (DG-1.5). Vitality can grow before the action: a margin of 2."""
    winner = 1 - loser
    beyond_goal, bone_goal = BEYOND_GOAL[world.fmt], BONEYARD_GOAL[world.fmt]
    scores = world.scores()
    for u in world.units.values():
        if u.owner == loser:
            if scores["boneyard"][loser] + u.c.vit >= bone_goal:
                return True
        elif beyond_goal and scores["beyond"][winner] + u.vit + 2 >= beyond_goal:
            if maneuvers_to_gate(u.mdirs, max(u.mnv, 1))[u.cell] <= 1:
                return True
    return False


def safety_question(world: State, me: int) -> str:
    """What the safety step faces in `world` for `me` in the main phase, judged over every legal action (for the
    tests and the bench that check the step): "win" (an action wins now), "stop" (ending the turn lets the
    opponent win next turn, and an action prevents it), or ""."""
    legal = world.legal_actions()
    if within_reach(world, 1 - me) and any(matchup.outcome(world, a, me) == me for a in legal):
        return "win"
    if within_reach(world, me) and matchup.threatened(world, me, A_END):
        if any(a != A_END and not matchup.threatened(world, me, a) for a in legal):
            return "stop"
    return ""


# The first draws of random.Random(0), 32 bits each: the source Ties stands for. A line breaks a tie or two at most
# most of the time, and seeding a Mersenne Twister costs more than the rest of a choice.
_TIE_WORDS = tuple(map(random.Random(0).getrandbits, [32] * 64))


class Ties:
    """The prior's tie-breaker inside a search: random.Random(0)'s draws. A choice reads them from _TIE_WORDS as
    random.Random.choice draws (getrandbits of the length's bit count, again while that is too large); any other
    use, or a line that reads past those words, gets the source itself, seeded and moved past the words read."""

    __slots__ = ("_source", "_read")

    def __init__(self) -> None:
        self._source: random.Random | None = None
        self._read = 0  # words of _TIE_WORDS drawn so far

    def choice(self, seq: Sequence[Any]) -> Any:
        n = len(seq)
        if self._source is None and 0 < n < 1 << 32:
            shift = 32 - n.bit_length()
            read = self._read
            while read < len(_TIE_WORDS):
                r = _TIE_WORDS[read] >> shift
                read += 1
                if r < n:
                    self._read = read
                    return seq[r]
            self._read = read  # past the words kept: the source draws on from there, as the loop would
        return self.source().choice(seq)

    def source(self) -> random.Random:
        if self._source is None:
            self._source = random.Random(0)
            for _ in range(self._read):
                self._source.getrandbits(32)
        return self._source

    def __getattr__(self, name: str) -> Any:  # any other draw: the same source
        return getattr(self.source(), name)


class HandPlan(NamedTuple):
    """What the race plan works out once per decision (the classic plan reads the first two)."""

    payable: bool  # a unit or legend in hand can be paid now
    recyclable: bool  # recycling would pay for one
    saves_a_point: bool  # a recycling point would save an action point on a deploy
    spare: int  # the definition index of the unit the hand can spare, or -1


# Kinds the race plan scores below ending the turn in every position (GoldfishPlan.score): never its choice while
# it may end the turn, so they are not scored.
NEVER_ROUTINE = frozenset({PLAY, INSTANT, USE, FLY})
NEVER_ROUTINE_UNFIT = NEVER_ROUTINE | {ATTACK}  # and attacks, for a plan that weighs no fight
# GoldfishPlan.advance_score's highest value for a maneuver that doesn't end on the Gateway: one cell closer to it
# and lined up to pass.
ADVANCE_BEST = 200 + 50 * (max(GATE_DISTANCE) - 1) + 100
INFINITY = float("inf")


class RacePlan(GoldfishPlan):
    """The prior: the classic plan's priorities, with deploy cells and maneuvers judged by how many maneuvers
    the unit still needs to reach the Gateway along its own directions (not by distance alone). A unit that can
    never reach it from a cell is not deployed there, and one stuck on its back rank steps off to free the cell."""

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal_actions() if view.phase == MAIN_PHASE else ()
        if A_END not in legal:
            return super().__call__(view, rng)
        return self.best(view, legal, self.hand_plan(view), rng)

    def best(self, view: SeatView, legal: Sequence[Action], hand: HandPlan, rng: random.Random) -> Action:
        """The plan's choice among legal actions that include ending the turn: best_scored over the values of
        `score` (the kinds it never chooses left out), in one pass. The plan runs at every decision and at each
        step of every line a search finishes, so the reads one decision shares (the format, the seat, each card's
        and unit's maneuver table, the hand's verdicts) are made once, and a maneuver that brings its unit no
        closer to the Gateway is scored only when it could still tie the best score so far."""
        skip = NEVER_ROUTINE if self.fight else NEVER_ROUTINE_UNFIT
        if view.fmt == TACTICAL:
            return best_scored([(self.score(view, a, hand), a) for a in legal if a[0] not in skip], rng)
        defs, units, score = view.defs, view.units, self.score
        active = view.active
        saves, spare = hand.saves_a_point, hand.spare
        other_recycle = 650 if saves else 300 if hand.recyclable else -1
        draw = 20 if hand.payable else 100
        tables: dict[int, tuple[int, ...]] = {}  # deploys by definition, maneuvers by unit
        top: float = -INFINITY
        best: list[Action] = []
        for action in legal:
            kind, a, b = action
            if kind == RECYCLE:
                if defs[a].kind not in BOARD_KINDS:
                    value: float = other_recycle
                else:
                    value = 640 if saves and a == spare else -1
            elif kind == DEPLOY:
                c = defs[a]
                if c.kind == "legend":
                    value = score(view, action, hand)
                else:
                    table = tables.get(a)
                    if table is None:
                        table = tables[a] = maneuvers_to_gate(turn_mask(c.mdirs, active), max(c.mnv, 1))
                    needed = table[b]
                    value = -1 if needed >= UNREACHABLE else 500 + 10 * c.vit - 15 * needed
            elif kind == MOVE and b != GATE:
                u = units[a]
                table = tables.get(-1 - a)
                if table is None:
                    table = tables[-1 - a] = maneuvers_to_gate(u.mdirs, max(u.mnv, 1))
                gain = (table[u.cell] - table[b]) * 100
                if gain > 0:
                    value = 250 + gain
                elif table[u.cell] >= UNREACHABLE and u.cell in BACK_RANK[u.owner] and b not in BACK_RANK[u.owner]:
                    value = 150
                elif top > ADVANCE_BEST - 100:
                    continue  # below the best so far whatever advance_score says
                else:
                    value = self.advance_score(view, u, b) - 100
            elif kind == DRAW:
                value = draw
            elif kind == END:
                value = 0
            elif kind in skip:
                continue
            else:
                value = score(view, action, hand)
            if value > top:
                top, best = value, [action]
            elif value == top:
                best.append(action)
        return best[0] if len(best) == 1 else rng.choice(best)

    def hand_plan(self, view: SeatView) -> HandPlan:
        """GoldfishPlan.hand_plan, and from the same reading of the hand: whether a recycling point would pay for
        part of a deploy that would otherwise take more than the one action point every deploy spends (DG-7.3:
        influence, then recycling points, then action points); if so, the unit card the race can spare, the
        weakest in a hand holding at least two other units or legends (DG-7.6 lets any card be recycled): drawing
        a unit costs an action point, so a hand with units to spare turns one into the point it would otherwise
        pay in action points."""
        inst = view.inst
        board = []
        spare = 0
        for iid in view.hand:
            c = inst[iid]
            if c.kind in BOARD_KINDS:
                board.append(c)
            else:
                spare += 1
        ap = view.ap
        payable = recyclable = saves = False
        for c in board:
            available = view.available(c.craft)
            short = c.vit - available
            payable = payable or short <= 0
            recyclable = recyclable or (0 < short <= spare and ap >= 1)
            if c.vit - (available - ap) > 1 and c.vit <= available + 1:
                saves = True
        if not saves or len(board) < SPARE_FROM:
            return HandPlan(payable, recyclable, saves, -1)
        weakest = min(board, key=lambda c: (c.vit, c.index))
        return HandPlan(payable, recyclable, saves, weakest.index if weakest.kind == "unit" else -1)

    def score(self, view: SeatView, action: Action, hand: HandPlan) -> float:
        kind, a, b = action
        if view.fmt != TACTICAL and kind == DEPLOY and view.defs[a].kind != "legend":
            c = view.defs[a]
            needed = maneuvers_to_gate(turn_mask(c.mdirs, view.active), max(c.mnv, 1))[b]
            return -1 if needed >= UNREACHABLE else 500 + 10 * c.vit - 15 * needed
        if view.fmt != TACTICAL and kind == MOVE and b != GATE:
            u = view.units[a]
            table = maneuvers_to_gate(u.mdirs, max(u.mnv, 1))
            gain = (table[u.cell] - table[b]) * 100
            if gain > 0:
                return 250 + gain
            if table[u.cell] >= UNREACHABLE and u.cell in BACK_RANK[u.owner] and b not in BACK_RANK[u.owner]:
                return 150  # it will never pass: make room for a unit that can
            return super().score(view, action, hand) - 100
        if kind == RECYCLE and hand.saves_a_point:
            if view.defs[a].kind not in BOARD_KINDS:
                return 650  # before the deploy it pays for
            if a == hand.spare:
                return 640  # the weakest of three or more units in hand pays a point of a bigger one
        return super().score(view, action, hand)


class Line(NamedTuple):
    """A line of the turn in the planner's beam: every action applied from the decision it starts at (the
    opponent's answers too), this seat's decisions in it with what the seat saw at each, and its value."""

    actions: tuple[Action, ...]
    steps: tuple[tuple[Any, Action], ...]  # (what the seat saw, its action), for each of its decisions
    value: float
    margin: float  # what the line must gain over the prior's to replace it: set by its first departure from it
    routine: bool  # every main-phase choice so far was the prior's


class Lookahead:
    """A policy: `policy(view, rng) -> action` for the seat to decide (see the module docstring)."""

    def __init__(self, name: str, weights: Weights, tried_kinds: frozenset[int], margin: float,
                 planning: bool = True):
        self.name = name
        self.weights = weights
        self.tried_kinds = tried_kinds
        self.margin = margin  # how much better (in evaluation points) an action must be to replace the prior's
        self.plan = RacePlan(fight=weights.fight)  # the prior, and the default inside continuations
        self._needs_an_opponent: dict[int, tuple[object, bool]] = {}  # id(card) -> (card, its verdict)
        # The rest of the turn as planned, per random source: one source is one seat of one game, so a plan is
        # only ever followed by the seat that made it, and a game replays the same from its seed.
        self._plans: weakref.WeakKeyDictionary[random.Random, list[tuple[Any, Action]]] = (
            weakref.WeakKeyDictionary())
        # Whole-turn planning (docs/ai.md); off, each decision looks one action ahead, which is cheaper for a
        # search that calls the policy inside its own play-outs.
        self.planning = planning

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase == MULLIGAN_PHASE:
            return A_KEEP if A_MULLIGAN not in legal or self.keeps(view, rng) else A_MULLIGAN
        if view.phase == MAIN_PHASE:
            # Safety first (docs/ai.md): a win this turn, then a win of the opponent's next turn to prevent.
            safe = self.safety_first(view, legal)
            if safe is not None:
                self._plans.pop(rng, None)
                return safe
        planned = self.planned(view, rng, legal)
        if planned is not None:
            return planned
        candidates = self.candidates(view, legal, rng)
        if len(candidates) == 1:
            return candidates[0]
        if view.phase == MAIN_PHASE and self.planning:
            return self.plan_turn(view, candidates, rng)
        world = view.determinize(rng)  # the hidden cards resampled: never the true deck order or hand
        # In the main phase a card replaces the prior's choice only when clearly better (docs/ai.md, the margin);
        # at a target, defence or combat choice every option is judged alike.
        routine = candidates[0][0] if view.phase == MAIN_PHASE else None
        margin = self.margin_against(routine)
        # Against ending the turn, each card is judged with the turn ended after it, so that every position
        # compared is the one the opponent moves from (else anything that keeps the turn looks better).
        then_end = view.phase == MAIN_PHASE and candidates[0][0] == END
        best, best_value = candidates[0], self.value_after(world, candidates[0], view.seat) + margin
        for action in candidates[1:]:
            value = self.value_after(world, action, view.seat, then_end)
            if value > best_value:
                best, best_value = action, value
        return best

    def margin_against(self, routine: int | None) -> float:
        """How much better a card's position must be than the prior's choice of this kind (None: outside the main
        phase). Against drawing or ending the turn, the weakest routine choices, a card needs no margin; against
        drawing, a card that leaves the position as good wins the tie (DRAW_TIE)."""
        return -DRAW_TIE if routine == DRAW else 0.0 if routine in (END, None) else self.margin

    def planned(self, view: SeatView, rng: random.Random, legal: Sequence[Action]) -> Action | None:
        """The next action of the turn's plan, when the position is the one it was planned for; else None (and
        the plan is dropped: a draw brought another card, or the opponent answered otherwise)."""
        plan = self._plans.get(rng)
        if not plan:
            return None
        seen, action = plan[0]
        if seen == view.seen() and action in legal:
            del plan[0]
            return action
        del self._plans[rng]
        return None

    def plan_turn(self, view: SeatView, candidates: list[Action], rng: random.Random) -> Action:
        """Whole-turn planning: a beam over the rest of the turn (docs/ai.md). From this decision, each line in the
        beam is extended by the prior's choice and by each card it could play instead; the BEAM_WIDTH best by the
        evaluation go on, for BEAM_DEPTH own decisions; a line still in the turn then is finished by the prior.
        Every finished line is judged with the turn ended (the position the opponent moves from), and one that
        departs from the prior's line replaces it only when better by the margin of its first departure. The
        chosen line is followed while the positions are the ones it expects."""
        me = view.seat
        world = view.determinize(rng)  # the hidden cards resampled: never the true deck order or hand
        ended, finished = self.grow(world, me, Line((), (), 0.0, 0.0, True), candidates, 0)
        finished = [line for at_depth in ended for line in at_depth] + finished
        routine = next(line for line in finished if line.routine)
        best = routine
        for line in finished:
            if line.value > routine.value + line.margin and (best is routine or line.value > best.value):
                best = line
        self._plans[rng] = list(best.steps[1:])
        return best.steps[0][1]

    def grow(self, world: State, me: int, line: Line, options: Sequence[Action], depth: int
             ) -> tuple[list[list[Line]], list[Line]]:
        """A line of the beam at `depth` (its actions applied to `world`) extended by each option, the prior's choice
        first: (the extensions that end the turn, per depth from this one on; those still in the turn after the
        last depth, finished by the prior), each in the beam's order. Of the extensions that keep the turn, the
        BEAM_WIDTH best go on from the decision, and later the best one, with the prior's own line in both cases.

        Each extension is made, valued and taken back, and those that go on are played again from here to go on;
        the prior's own line always goes on, so it goes on at once, and is never played again."""
        seen = seen_by(world, me)
        margin = self.margin_against(options[0][0])
        going: list[Line] = []
        ended: list[Line] = []
        routine_grown: tuple[list[list[Line]], list[Line]] = ([], [])
        for i, action in enumerate(options):
            actions, steps = [action], [(seen, action)]
            world.apply(action)
            self.continue_play(world, me, actions, steps)
            routine = line.routine and i == 0
            child = Line(line.actions + tuple(actions), line.steps + tuple(steps), evaluate(world, me, self.weights),
                         line.margin if not line.routine or routine else margin, routine)
            if self.turn_goes_on(world, me):
                going.append(child)
                if routine:
                    routine_grown = self.go_on(world, me, child, depth + 1)
            else:
                ended.append(child)
            for _ in actions:
                world.undo()
        if depth == 0:  # the best BEAM_WIDTH first actions go on, and the prior's
            ranked = sorted(going, key=lambda c: -c.value)
            beam = ranked[:BEAM_WIDTH] + [c for c in ranked[BEAM_WIDTH:] if c.routine]
        else:  # the line goes on by its best next action, and the prior's own line by the prior's
            best = max(going, key=lambda c: c.value, default=None)
            beam = ([] if best is None else [best]) + [c for c in going if c.routine and c is not best]
        all_ended, finished = [ended], []
        for child in beam:
            if child.routine:
                grown = routine_grown
            else:
                own = child.actions[len(line.actions):]
                for action in own:
                    world.apply(action, known_legal=True)  # played from here when the child was made
                grown = self.go_on(world, me, child, depth + 1)
                for _ in own:
                    world.undo()
            for k, lines in enumerate(grown[0], 1):
                if k == len(all_ended):
                    all_ended.append([])
                all_ended[k] += lines
            finished += grown[1]
        return all_ended, finished

    def go_on(self, world: State, me: int, line: Line, depth: int) -> tuple[list[list[Line]], list[Line]]:
        """A line of the beam that goes on (its actions applied to `world`), as `grow` gives it: extended by its own
        candidates while within BEAM_DEPTH own decisions, else finished by the prior."""
        if depth < BEAM_DEPTH:
            options = self.candidates(SeatView(world, me), world.legal_actions(), Ties())
            return self.grow(world, me, line, options, depth)
        return [], [self.finish(world, me, line)]

    def turn_goes_on(self, world: State, me: int) -> bool:
        return world.phase == MAIN_PHASE and world.active == me and world.current_player == me

    def finish(self, world: State, me: int, line: Line) -> Line:
        """The line (its actions applied to `world`) finished by the prior to the end of the turn, and valued there."""
        actions: list[Action] = []
        steps: list[tuple[Any, Action]] = []
        ties = Ties()
        while self.turn_goes_on(world, me):
            if len(steps) >= ROLLOUT_LIMIT and A_END in world.legal_actions():
                action = A_END
            else:
                action = self.plan(SeatView(world, me), ties)
            steps.append((seen_by(world, me), action))
            actions.append(action)
            world.apply(action)
            self.continue_play(world, me, actions, steps)
        value = evaluate(world, me, self.weights)
        for _ in actions:
            world.undo()
        return line._replace(actions=line.actions + tuple(actions), steps=line.steps + tuple(steps), value=value)

    def safety_first(self, view: SeatView, legal: Sequence[Action]) -> Action | None:
        """An action that wins now (with what it sets in motion), else, when ending the turn now would let the
        opponent win with one action of its next turn, the best-valued action after which it can't (None when
        neither applies or nothing prevents it). Only the policy that weighs the opponent (`matchup`) looks
        for threats: against a passive opponent there are none."""
        me = view.seat
        win_now = within_reach(view, 1 - me) and any(may_win(a) for a in legal)
        threat = self.weights.fight and within_reach(view, me)
        if not win_now and not threat:
            return None
        world = view.determinize(random.Random(0))  # its own draws: the search's are left as they were
        for action in legal:
            if win_now and may_win(action) and self.outcome(world, action, me) == me:
                return action
        if not threat or not self.threatened(world, me, A_END):
            return None
        best, best_value = None, float("-inf")
        for action in legal:
            if action[0] != END and not self.threatened(world, me, action):
                value = self.value_after(world, action, me, then_end=True)
                if value > best_value:
                    best, best_value = action, value
        return best

    def outcome(self, world: State, action: Action, me: int) -> int:
        """The winner after the action and what it sets in motion (-1 while the game goes on)."""
        world.apply(action)
        steps = 1 + self.continue_play(world, me)
        winner = world.winner
        for _ in range(steps):
            world.undo()
        return winner

    def threatened(self, world: State, me: int, action: Action) -> bool:
        """Whether, after the action and the end of this turn, one action of the opponent wins the game."""
        world.apply(action)
        steps = 1 + self.continue_play(world, me)
        if world.phase == MAIN_PHASE and world.active == me and A_END in world.legal_actions():
            world.apply(A_END)
            steps += 1 + self.continue_play(world, me)
        them = 1 - me
        threat = False
        if world.phase == MAIN_PHASE and world.active == them and world.current_player == them:
            threat = any(
                may_win(a) and self.outcome(world, a, me) == them for a in world.legal_actions()
            )
        for _ in range(steps):
            world.undo()
        return threat

    def keeps(self, view: SeatView, rng: random.Random) -> bool:
        """Keep a hand at least as quick to the board as the deck's average hand (playtest.policies.mulligan)."""
        inst = view.inst
        own_deck = view.determinize(rng).deck[view.seat]  # its cards are known, their order is not
        hand = [inst[iid] for iid in view.hand]
        return mulligan.keeps(hand, hand + [inst[iid] for iid in own_deck], rng)

    def candidates(self, view: SeatView, legal: Sequence[Action], rng: random.Random) -> list[Action]:
        """The prior's choice, then the cards and abilities (and attacks, for `matchup`) that could replace it."""
        routine = self.plan(view, rng)
        if view.phase != MAIN_PHASE:
            return [routine] + [a for a in legal[:CHOICE_LIMIT] if a != routine]
        kinds = self.tried_kinds
        tried = [a for a in legal if a[0] in kinds and a != routine]
        if not tried:  # the most frequent case: nothing beside the prior's choice
            return [routine]
        if not self.weights.fight and not any(u.owner != view.seat for u in view.units.values()):
            # No enemy unit to fight, and an evaluation that weighs no fight: only what can bring the win closer.
            tried = [a for a in tried if not self.needs_an_opponent(view, a)]
        return [routine] + tried[:BREADTH]

    def needs_an_opponent(self, view: SeatView, action: Action) -> bool:
        """Whether the card behind an action acts only on what a passive opponent never brings (passive_effects)."""
        card = (view.inst[action[1]] if action[0] == USE else view.defs[action[1]]).card
        known = self._needs_an_opponent.get(id(card))
        if known is None or known[0] is not card:
            known = self._needs_an_opponent[id(card)] = (card, abilities_need_an_opponent(card.type, card.abilities))
        return known[1]

    def value_after(self, world: State, action: Action, me: int, then_end: bool = False) -> float:
        """The position's value after the action and what it sets in motion (and, with `then_end`, the end of
        the turn); the world is left unchanged."""
        world.apply(action)
        steps = 1 + self.continue_play(world, me)
        if then_end and world.phase == MAIN_PHASE and world.active == me and A_END in world.legal_actions():
            world.apply(A_END)
            steps += 1 + self.continue_play(world, me)
        value = evaluate(world, me, self.weights)
        for _ in range(steps):
            world.undo()
        return value

    def continue_play(self, world: State, me: int, actions: list[Action] | None = None,
                      steps: list[tuple[Any, Action]] | None = None) -> int:
        """Play the choices an action opens (targets, discards, combat, the defence) until a main phase; with
        `actions` (and `steps`), record every action applied (and this seat's decisions with what it saw)."""
        n = 0
        while n < CONTINUATION_LIMIT and world.phase not in (MAIN_PHASE, MULLIGAN_PHASE, OVER_PHASE):
            legal = world.legal_actions()
            if world.current_player == me:
                action = self.own_choice(world, legal, me)
                if steps is not None:
                    steps.append((seen_by(world, me), action))
            else:
                action = self.their_choice(world, legal)
            if actions is not None:
                actions.append(action)
            world.apply(action)
            n += 1
        return n

    def own_choice(self, world: State, legal: Sequence[Action], me: int) -> Action:
        if world.phase in (COMBAT_PHASE, DEFENSE_PHASE):
            return self.plan(SeatView(world, me), Ties())
        best, best_value = legal[0], float("-inf")
        for action in legal[:CHOICE_LIMIT]:  # a target or a discard: the best position one step on
            value = self.value_one_step(world, action, me)
            if value > best_value:
                best, best_value = action, value
        return best

    def their_choice(self, world: State, legal: Sequence[Action]) -> Action:
        """The opponent's answer inside a continuation: a defence like the classic plan's, or passing; or, when the
        opponent has an instant it can play now (its open talent points, DG-15.3, in a window or its defence step,
        DG-15.5), the instant that leaves this seat's position worst, if worse than that answer. So a combat is
        judged with the tricks the opponent could hold (in the determinized world: the hand this seat can't see,
        drawn again), not as if it had none."""
        if not self.weights.fight:
            return A_PASS if A_PASS in legal else legal[0]
        them = world.current_player
        their_view = SeatView(world, them)
        if world.phase == DEFENSE_PHASE and any(a[0] in (DEFEND, PASS, STRIKE) for a in legal):
            routine = self.plan.defend(their_view, list(legal), Ties())
        else:
            routine = self.plan(their_view, Ties())
        instants = [a for a in legal if a[0] == INSTANT]
        if not instants:
            return routine
        me = 1 - them
        best, worst = routine, self.value_one_step(world, routine, me)
        for action in instants[:CHOICE_LIMIT]:
            value = self.value_one_step(world, action, me)
            if value < worst:
                best, worst = action, value
        return best

    def value_one_step(self, world: State, action: Action, me: int) -> float:
        """The position's value for `me` one step on (the world is left unchanged)."""
        world.apply(action)
        value = evaluate(world, me, self.weights)
        world.undo()
        return value


goldfish = Lookahead("goldfish", GOLDFISH_WEIGHTS, EFFECT_KINDS, margin=3.0)
# Against a real opponent, attacks and taking off or landing (out of reach of melee, DG-11.5) are judged too.
matchup = Lookahead("matchup", MATCHUP_WEIGHTS, EFFECT_KINDS | {ATTACK, FLY, GROUND}, margin=1.5)
