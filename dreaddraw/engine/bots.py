"""Bots that play through a PlayerView, so they can only use what their seat may see.

- RandomBot: a uniformly random legal decision.
- HeuristicBot: fixed rules of thumb (draw unless the last card is high and a Reserve beats it).
- ProbabilityBot: counts the cards it has seen to estimate the chance that the top of the Draw
  Deck beats its last card, and looks a few summons ahead to choose between the Draw Deck and a
  Reserve, which card to keep after damage and how to use each optional ability.
"""

from __future__ import annotations

import random

from .cardset import (
    K_RESERVE,
    OP_ARRANGE_DRAW,
    OP_CULL_LIFE,
    OP_DRAIN,
    OP_GAIN_LIFE,
    OP_LOOKOUT,
    OP_PEEK_DRAW,
    OP_SCRY,
    OP_SHIELD,
    OP_SIFT_ANY_LIFE,
    OP_SPIKES,
    OP_STEADFAST,
    CardSet,
)
from .decisions import KEEP, ORDER, RESERVE, USE, B, D, Decision, S, U
from .game import P_ABILITY, P_ARRANGE, P_CULL, P_KEEP, P_SIFT_DRAW, P_SIFT_LIFE, Game, Step
from .observation import PlayerView, pool_counts


class Bot:
    name = "bot"

    def choose(self, view: PlayerView) -> Decision:  # pragma: no cover - interface
        raise NotImplementedError


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Decision:
        legal = view.legal()
        return legal[self.rng.randrange(len(legal))]


def next_to_summon(view: PlayerView) -> int:
    """Who DD-3.6 gives the next turn to if the current player's summon stands as it is now."""
    n = view.n
    cur = view.current()
    best = None
    for p in range(n):
        if view.in_round(p) and (best is None or view.total(p) < best):
            best = view.total(p)
    if view.in_round(cur) and view.total(cur) == best:
        return cur
    p = cur
    for _ in range(n):
        p = (p + 1) % n
        if view.in_round(p) and view.total(p) == best:
            return p
    return cur


class HeuristicBot(Bot):
    """Rules of thumb, no counting: use a Reserve only once the last card is 6 or more."""

    name = "heuristic"
    THRESHOLD = 6

    def choose(self, view: PlayerView) -> Decision:
        prompt = view.prompt()
        cs = view.cs
        if not prompt:
            last = view.last_strength(view.seat)
            if last >= self.THRESHOLD:
                options = [c for c in view.reserves(view.seat) if cs.strength[c] > last]
                if options:
                    return (RESERVE, min(options, key=lambda c: (cs.strength[c], c)))
            return D
        kind = prompt[0]
        if kind == P_KEEP:
            return (KEEP, max(view.hand(), key=lambda c: (cs.strength[c], c)))
        if kind == P_ABILITY:
            if cs.op[prompt[2]] in (OP_DRAIN, OP_CULL_LIFE):
                targets = [p for p in range(view.n) if p != view.seat and view.alive(p)]
                return (USE, targets[0]) if targets else S
            if cs.op[prompt[2]] == OP_SIFT_ANY_LIFE:
                return (USE, view.seat)
            return U
        if kind in (P_ARRANGE, P_SIFT_DRAW, P_SIFT_LIFE):
            return (ORDER, prompt[3])  # leave them as they were
        if kind == P_CULL:
            return (ORDER, prompt[3][1:])  # discard the top card, leave the others as they were
        return (ORDER, (prompt[3],))  # Scry: leave it


# The expected gains already computed in one decision: (last strength, reserves' strengths, depth) -> gain.
Memo = dict[tuple[int, tuple[int, ...], int], float]

# Value of a card in Reserve beyond its strength (always-on cards work from there, DD-7.5).
KEEP_BONUS = {OP_SHIELD: 5.0, OP_STEADFAST: 2.0, OP_LOOKOUT: 2.5, OP_SPIKES: 1.5}


class ProbabilityBot(Bot):
    """Counts seen cards (visible information only) and looks `depth` summons ahead."""

    name = "probability"

    def __init__(self, depth: int = 3, reserve_cost: float = 5.0) -> None:
        self.depth = depth
        self.reserve_cost = reserve_cost

    # -- counting

    def gain(self, last: int, reserves: tuple[int, ...], counts: list[int], total: int, depth: int,
             memo: Memo) -> float:
        """Expected strength still to be added this round, over `depth` more summons, choosing well.

        The lowest total summons next (DD-3.6), so the player who reaches the highest total before
        failing wins the round: strength added is what counts. A Reserve spent now is gone for later
        rounds, so using one costs RESERVE_COST.
        """
        if depth == 0 or total == 0:
            return 0.0
        key = (last, reserves, depth)
        hit = memo.get(key)
        if hit is not None:
            return hit
        best = 0.0
        for s in range(max(last + 1, 0), len(counts)):
            if counts[s]:
                best += counts[s] / total * (s + self.gain(s, reserves, counts, total, depth - 1, memo))
        tried = set()
        for i, r in enumerate(reserves):
            if r > last and r not in tried:
                tried.add(r)
                rest = reserves[:i] + reserves[i + 1:]
                v = r - self.reserve_cost + self.gain(r, rest, counts, total, depth - 1, memo)
                if v > best:
                    best = v
        memo[key] = best
        return best

    def choose(self, view: PlayerView) -> Decision:
        prompt = view.prompt()
        if not prompt:
            return self.choose_summon(view)
        kind = prompt[0]
        if kind == P_KEEP:
            return self.choose_keep(view)
        if kind == P_ABILITY:
            return self.choose_ability(view, prompt)
        if kind == P_ARRANGE:
            return self.choose_order(view, prompt[3])
        if kind == P_SIFT_DRAW:
            return self.choose_sift_draw(view, prompt[3])
        if kind == P_CULL:
            return self.choose_cull(view, prompt[3])
        if kind == P_SIFT_LIFE:
            if len(prompt) > 4:  # DD-28: another player's Life Deck
                return self.choose_sift_foe_life(view, prompt[3])
            return self.choose_sift_life(view, prompt[3])
        return self.choose_scry(view, prompt[3])

    def choose_summon(self, view: PlayerView) -> Decision:
        cs = view.cs
        me = view.seat
        last = view.last_strength(me)
        options = [c for c in view.reserves(me) if cs.strength[c] > last]
        if not options:
            return D
        strength = cs.strength
        reserves = tuple(sorted(strength[c] for c in view.reserves(me)))
        top = view.known_draw_top()
        counts = pool_counts(view)
        total = sum(counts)
        memo: Memo = {}
        depth = self.depth
        if top:
            s = strength[top]
            ok = s > last or (s == last and view.has_op(me, OP_STEADFAST))
            draw_value = s + self.gain(s, reserves, counts, total, depth - 1, memo) if ok else 0.0
        elif total:
            draw_value = sum(
                counts[s] / total * (s + self.gain(s, reserves, counts, total, depth - 1, memo))
                for s in range(max(last + 1, 0), len(counts)) if counts[s]
            )
        else:
            draw_value = 0.0
        best, best_value = D, draw_value
        for c in sorted(options, key=lambda c: (strength[c], c)):
            i = reserves.index(strength[c])
            rest = reserves[:i] + reserves[i + 1:]
            v = strength[c] - self.reserve_cost + self.gain(strength[c], rest, counts, total, depth - 1, memo)
            if v > best_value + 1e-9:
                best, best_value = (RESERVE, c), v
        return best

    def keep_value(self, view: PlayerView, c: int) -> float:
        cs = view.cs
        value = float(cs.strength[c]) + KEEP_BONUS.get(cs.op[c], 0.0) * (cs.amount[c] or 1)
        if cs.keyword[c] == K_RESERVE and cs.op[c] == OP_GAIN_LIFE:
            value += 3.0 * cs.amount[c]
        return value

    def choose_keep(self, view: PlayerView) -> Decision:
        return (KEEP, max(view.hand(), key=lambda c: (self.keep_value(view, c), c)))

    def choose_ability(self, view: PlayerView, prompt: Step) -> Decision:
        cs = view.cs
        op = cs.op[prompt[2]]
        if op == OP_DRAIN or op == OP_CULL_LIFE:
            targets = [p for p in range(view.n) if p != view.seat and view.alive(p)]
            if not targets:
                return S
            # Bring the weakest opponent closer to defeat; with empty Life Decks it does nothing.
            with_life = [p for p in targets if view.life_size(p)]
            if not with_life:
                return S
            return (USE, min(with_life, key=lambda p: (view.life_size(p) + len(view.reserves(p)), p)))
        if op == OP_SIFT_ANY_LIFE:
            return self.choose_sift_target(view)
        if op in (OP_PEEK_DRAW, OP_SCRY, OP_ARRANGE_DRAW):
            return U
        return U

    def choose_sift_target(self, view: PlayerView) -> Decision:
        """DD-28: the leading opponent's Life Deck, else one's own.

        Sifting one's own Life Deck only changes which card is kept after damage, and the best drawn card is kept
        anyway; an opponent's good Life cards sent to the bottom are Reserves they will not get. The leader (most
        Life cards and Reserves) is the one whose next Reserves matter most."""
        me = view.seat
        foes = [p for p in range(view.n) if p != me and view.alive(p) and view.life_size(p)]
        if foes:
            return (USE, max(foes, key=lambda p: (view.life_size(p) + len(view.reserves(p)), -p)))
        return (USE, me) if view.life_size(me) else S

    def _wants_on_top(self, view: PlayerView, c: int) -> float:
        """How much this seat wants card c to be the next one revealed."""
        cs = view.cs
        nxt = next_to_summon(view)
        last = view.last_strength(nxt)
        good = cs.strength[c] > last
        if nxt == view.seat:
            # The weakest card that still beats my last leaves the most room to escalate.
            return (100 - cs.strength[c]) if good else -1.0
        return -1.0 if good else 100.0

    def choose_scry(self, view: PlayerView, c: int) -> Decision:
        return (ORDER, (c,)) if self._wants_on_top(view, c) > 0 else B

    def choose_order(self, view: PlayerView, cards: tuple[int, ...]) -> Decision:
        first = max(cards, key=lambda c: (self._wants_on_top(view, c), c))
        rest = tuple(sorted((c for c in cards if c != first), key=lambda c: view.cs.strength[c]))
        return (ORDER, (first, *rest))


    def choose_sift_draw(self, view: PlayerView, cards: tuple[int, ...]) -> Decision:
        """Keep on top only the cards this seat wants revealed next (best first); an unknown card beats the rest."""
        wants = {c: self._wants_on_top(view, c) for c in cards}
        kept = sorted((c for c in cards if wants[c] > 0), key=lambda c: (-wants[c], c))
        return (ORDER, tuple(kept)) if kept else B

    # A Life card worth keeping on top: damage draws from the top and one of the drawn cards is kept (DD-5.1).
    LIFE_TOP_VALUE = 6.0

    def choose_sift_life(self, view: PlayerView, cards: tuple[int, ...]) -> Decision:
        """The best card worth keeping after damage on top; a second one only under cards not worth keeping.

        Damage draws several cards at once and only one of them is kept (DD-5.1): a second good card right under
        the best would be drawn with it and discarded. So the cards not worth keeping go between the two, to be
        the ones thrown away with the best, and every other card goes to the bottom, to be the best of a later
        draw."""
        values = {c: self.keep_value(view, c) for c in cards}
        good = sorted((c for c in cards if values[c] >= self.LIFE_TOP_VALUE), key=lambda c: (-values[c], c))
        if not good:
            return B
        poor = sorted((c for c in cards if values[c] < self.LIFE_TOP_VALUE), key=lambda c: (values[c], c))
        if len(good) > 1 and poor:
            return (ORDER, (good[0], *poor, good[1]))
        return (ORDER, (good[0],))

    def choose_sift_foe_life(self, view: PlayerView, cards: tuple[int, ...]) -> Decision:
        """An opponent's Life Deck: the cards poor in Reserve stay on top, worst first, so that the opponent's next
        damage draws them; the cards worth keeping go to the bottom, where a draw reaches them last."""
        values = {c: self.keep_value(view, c) for c in cards}
        poor = sorted((c for c in cards if values[c] < self.LIFE_TOP_VALUE), key=lambda c: (values[c], c))
        return (ORDER, tuple(poor)) if poor else B

    def choose_cull(self, view: PlayerView, cards: tuple[int, ...]) -> Decision:
        """DD-29: discard the opponent's card worth most in Reserve; the others go back worst first, so that their
        next damage draws the poor ones."""
        values = {c: self.keep_value(view, c) for c in cards}
        best = max(cards, key=lambda c: (values[c], c))
        return (ORDER, tuple(sorted((c for c in cards if c != best), key=lambda c: (values[c], c))))


BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "probability": ProbabilityBot}


def make_bot(kind: str, seed: int = 0) -> Bot:
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r} (one of {', '.join(BOTS)})")
    return RandomBot(seed) if kind == "random" else BOTS[kind]()


def play_game(bots: list[Bot], seed: int, cardset: CardSet | None = None, max_decisions: int = 100_000) -> Game:
    """Play one whole game between these bots (seat i is bots[i])."""
    g = Game(len(bots), seed, cardset)
    views = [PlayerView(g, p) for p in range(g.n)]
    count = 0
    while not g.over:
        p = g.to_move()
        g.apply(p, bots[p].choose(views[p]))
        count += 1
        if count > max_decisions:
            raise RuntimeError(f"game with seed {seed} did not finish in {max_decisions} decisions")
    return g
