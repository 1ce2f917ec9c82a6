"""The strong level: `matchup`'s choices judged by playing the opponent's replies out on sampled worlds.

`matchup` judges an action by the position one step on (with what it sets in motion) and so never sees the reply:
the attack its unit walks into, the unit it leaves in reach. This policy keeps `matchup` as its prior: it asks it for
its candidates (its routine choice and the cards, abilities and attacks that could replace it) and adds the other
legal actions (another cell, another unit, drawing, ending the turn), up to `breadth`. Each is played on to the
start of the seat's next turn on a determinized world (the hidden cards drawn again from what the seat cannot see,
as an information-set search samples them), both seats played by `matchup` one action ahead (without its whole-turn
planning), and the position there is evaluated. The budget of play-outs is shared by sequential halving: each round
plays the candidates still in play on the same new worlds from the same random draws (common random numbers: they
differ by their action, not by their luck) and keeps the better half; the prior's own choice stays in play and keeps
its place unless another is better by a margin. Outside the main phase (targets, defence, windows) and for the
safety checks, `matchup` decides.

Its randomness comes only from the rng it is given and the number of play-outs is fixed (`budget`), so a seed gives
the same game. A wall-time cap (`deadline`, seconds) stops the search early where an answer must come quickly
(the goldfish table's worker): it makes the choice depend on the machine's speed, so runs and benches never set it.
docs/ai.md ("The strong level") gives the budget and what it measures against `matchup`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from playtest.dreadgate.actions import Action
from playtest.dreadgate.state import DRAW_RESULT, MAIN_PHASE, MULLIGAN_PHASE, State
from playtest.dreadgate.view import SeatView

from .evaluation import MATCHUP_WEIGHTS, evaluate
from .lookahead import Lookahead, matchup

# Both seats of a play-out: `matchup` deciding one action ahead, without its whole-turn planning, which would cost
# a search of the rest of the turn at every step of every play-out.
PLAYOUT_POLICY = Lookahead("matchup", matchup.weights, matchup.tried_kinds, matchup.margin, planning=False)

BUDGET = 128  # play-outs per decision (docs/ai.md)
BREADTH = 24  # candidates at most: the prior's, then the other legal actions
PLAYOUT_LIMIT = 120  # actions a play-out may take before its position is evaluated (a turn takes far fewer)
# A won or lost play-out counts as a position this far beyond a win total (reaching one is worth 100): enough to
# outweigh any position short of it, not so much that one lucky world outweighs all the others in the mean.
DECIDED = 200.0
MARGIN = 1.0  # how much better (mean evaluation points) a candidate must be to replace the prior's choice


class Strong:
    """A policy: `policy(view, rng) -> action` (see the module docstring)."""

    def __init__(self, name: str, prior: Lookahead, budget: int = BUDGET, deadline: float | None = None,
                 margin: float = MARGIN, breadth: int = BREADTH, playouts: Lookahead = PLAYOUT_POLICY):
        self.name = name
        self.prior = prior  # its candidates, its safety checks, its choices outside the main phase
        self.playouts = playouts  # the play of both seats in the play-outs
        self.budget = budget
        self.deadline = deadline
        self.margin = margin
        self.breadth = breadth

    def with_deadline(self, seconds: float | None) -> Strong:
        """The same policy with a wall-time cap on each decision (the table's worker only)."""
        return Strong(self.name, self.prior, self.budget, seconds, self.margin, self.breadth, self.playouts)

    def __call__(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase != MAIN_PHASE:
            return self.prior(view, rng)  # a target, a defence, a window, a mulligan: the prior's judgement
        safe = self.prior.safety_first(view, legal)  # a win now, or the one action that stops a win next turn
        if safe is not None:
            return safe
        candidates = self.prior.candidates(view, legal, rng)
        if self.breadth > len(candidates):
            # The routine choices the prior would not have made (another cell, another unit, drawing, ending the
            # turn): the reply shows what a one-step evaluation can't, such as a unit left in an enemy's reach.
            candidates += [a for a in legal if a not in candidates][: self.breadth - len(candidates)]
        if len(candidates) == 1:
            return candidates[0]
        return self.search(view, candidates, rng)

    def search(self, view: SeatView, candidates: Sequence[Action], rng: random.Random) -> Action:
        """Sequential halving over the candidates: in each round the candidates still in play are played out on
        the same new worlds, and the better half by mean value goes on; the prior's choice (the first) stays in
        play and keeps its place unless another beats it by the margin. The budget is the play-outs of a decision."""
        me = view.seat
        alive = list(range(len(candidates)))
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        rounds = max(1, (len(candidates) - 1).bit_length())
        started = time.monotonic()
        for r in range(rounds):
            worlds = max(1, self.budget // (rounds * len(alive)))
            for _ in range(worlds):
                if self.deadline is not None and counts[0] and time.monotonic() - started > self.deadline:
                    break
                world = view.determinize(rng)  # the hidden cards drawn again: never the true hand or deck order
                seed = rng.getrandbits(64)
                for i in alive:
                    totals[i] += self.playout(world, candidates[i], me, random.Random(seed))
                    counts[i] += 1
            else:
                if r < rounds - 1 and len(alive) > 2:
                    ranked = sorted(alive[1:], key=lambda i: (-totals[i] / counts[i], i))
                    alive = [0] + ranked[: max(1, len(alive) // 2 - 1)]
                continue
            break  # out of time
        best = 0
        for i in alive[1:]:
            if counts[i] == counts[0] and totals[i] / counts[i] > totals[best] / counts[best] + (
                    self.margin if best == 0 else 0.0):
                best = i
        return candidates[best]

    def playout(self, world: State, action: Action, me: int, rng: random.Random) -> float:
        """The value for `me` of the position at the start of its next turn (or the game's end) after `action`,
        both seats played by the play-out policy from the world's views; the world is left as it was."""
        turn = world.turn
        world.apply(action)
        steps = 1
        while steps < PLAYOUT_LIMIT and world.winner < 0:
            if world.active == me and world.turn > turn and world.phase == MAIN_PHASE:
                break  # its next turn: the opponent has replied
            seat = world.current_player
            if world.phase == MULLIGAN_PHASE:
                break
            # A view of a sealed world is that world (no copy): the prior sees what the seat of the guess would.
            world.apply(self.playouts(SeatView(world, seat), rng))
            steps += 1
        value = self.value(world, me)
        for _ in range(steps):
            world.undo()
        return value

    @staticmethod
    def value(world: State, me: int) -> float:
        if world.winner >= 0:
            return 0.0 if world.winner == DRAW_RESULT else (DECIDED if world.winner == me else -DECIDED)
        return evaluate(world, me, MATCHUP_WEIGHTS)


strong = Strong("strong", matchup)
