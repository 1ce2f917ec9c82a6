"""The Dread Draw game state and its rules (DD-1 to DD-8, and this app's decisions DD-9 onward).

One mutable `Game`; `legal()` lists the decisions of the seat to move, `apply(seat, decision)`
validates before it mutates (an illegal decision raises IllegalDecision with the rule number and
leaves the state untouched). Randomness comes only from `self.rng`, seeded, so a game replays
exactly from its seed and its decisions. Zones are lists of card numbers; the top of the Draw
Deck and of a Life Deck is the END of its list.

Pending work is a queue: prompts that need a decision (optional abilities, the card to keep
after damage, an arrangement) and automatic steps (deal damage to the next opponent, discard a
row, end the round) that run in order, so DD-4.3's order around the table is the queue's order.
"""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from .cardset import (
    K_AFTERMATH,
    K_RESERVE,
    K_SUMMON,
    OP_ARRANGE_DRAW,
    OP_CULL_LIFE,
    OP_DRAIN,
    OP_GAIN_LIFE,
    OP_LOOKOUT,
    OP_PEEK_DRAW,
    OP_PEEK_LIFE,
    OP_RECRUIT,
    OP_SALVAGE,
    OP_SCAVENGE,
    OP_SCRY,
    OP_SHIELD,
    OP_SIFT_ANY_LIFE,
    OP_SIFT_DRAW,
    OP_SIFT_LIFE,
    OP_SPIKES,
    OP_STEADFAST,
    CardSet,
    load_cardset,
)
from .decisions import BOTTOM, DRAW, KEEP, ORDER, RESERVE, SKIP, USE, B, D, Decision, S, U, to_notation
from .errors import IllegalDecision

# The rules' version (docs/rules.md, RV-1): a change that alters what a stored game replays to (a decision
# refused, another position, other words) bumps it; tests/dreaddraw/test_reference_records.py fails until it is.
ENGINE_VERSION = "dreaddraw-4"
LIFE_CARDS = 10  # DD-1.1
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # DD-34

# Queue entries: prompts (< AUTO) wait for a decision, automatic steps (>= AUTO) run by themselves.
# Each is (kind, seat, card or amount, more): `more` is a keyword, a tuple of looked-at cards, or 0. A sift of
# another player's Life Deck (DD-28) has that player's seat as a fifth item (a sift of one's own has four items, so
# games of the older sets keep the same steps). A cull (DD-29) is (P_CULL, seat, card, looked-at cards, owner).
Step = tuple[Any, ...]
P_ABILITY, P_KEEP, P_ARRANGE, P_SCRY, P_SIFT_DRAW, P_SIFT_LIFE, P_CULL = 1, 2, 3, 4, 5, 6, 7
AUTO = 10
A_DAMAGE, A_DISCARD_ROW, A_END_ROUND = 10, 11, 12

# Why the seat to move has the turn (shown to players).
WHY_FIRST = "chosen at random to go first (DD-3.1)"
WHY_START = "won the last round, so starts this one (DD-4.4)"
WHY_LOWEST = "lowest total strength (DD-3.6)"
WHY_TIE_STAY = "tied for lowest total strength and already had the turn (DD-3.6)"
WHY_TIE_LEFT = "next to the left among those tied for lowest total strength (DD-3.6)"

# Log events: (event, seat, a, b, private_to). private_to is -1 for entries everyone sees.
LogEntry = tuple[int, int, Any, Any, int]
(E_ROUND, E_TURN, E_SUMMON, E_SUMMON_RESERVE, E_FAIL, E_FAIL_EMPTY, E_ELIMINATED, E_RESHUFFLE, E_ABILITY,
 E_SKIP, E_SEE, E_ARRANGED, E_SCRY_BOTTOM, E_SCRY_TOP, E_GAIN_LIFE, E_DRAIN, E_TO_RESERVES, E_ROUND_WON,
 E_DAMAGE, E_DAMAGE_DRAWN, E_KEEP, E_DISCARD, E_DEFEATED, E_GAME_WON, E_FORTUNE, E_DISCARD_ROW,
 E_RESERVES_DISCARDED, E_SIFTED, E_SIFTED_LIFE, E_SIFTED_OTHER, E_CULLED) = range(31)


class Game:
    """A game of Dread Draw for 2 to 6 players (seats 0..n-1; a seat's left is seat + 1)."""

    __slots__ = (
        "cs", "n", "seed", "rng", "life", "reserves", "rows", "totals", "draw", "discard", "alive",
        "alive_count", "in_round", "in_round_count", "current", "why", "queue", "hand", "need_pass",
        "round_no", "round_winner", "round_damage", "over", "winner", "fortune", "history", "log",
        "known_draw", "known_life", "base_mask", "seen_mask", "summons", "round_lengths", "first_player",
    )

    def __init__(self, players: int, seed: int, cardset: CardSet | None = None) -> None:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Dread Draw is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        cs = cardset or load_cardset()
        if len(cs) < players * LIFE_CARDS + 10:
            raise ValueError(f"a {len(cs)}-card set is too small for {players} players")
        self.cs = cs
        self.n = n = players
        self.seed = seed
        self.rng = rng = random.Random(seed)
        deck = list(cs.numbers)
        rng.shuffle(deck)
        self.life: list[list[int]] = [[] for _ in range(n)]
        for _ in range(LIFE_CARDS):  # DD-1.1: dealt one at a time, face down
            for p in range(n):
                self.life[p].append(deck.pop())
        self.draw = deck  # DD-1.3
        self.discard: list[int] = []
        self.reserves: list[list[int]] = [[] for _ in range(n)]
        self.rows: list[list[int]] = [[] for _ in range(n)]
        self.totals = [0] * n
        self.alive = [True] * n
        self.alive_count = n
        self.in_round = [True] * n
        self.in_round_count = n
        self.first_player = self.current = rng.randrange(n)  # DD-3.1
        self.why = WHY_FIRST
        self.queue: list[Step] = []
        self.hand: list[int] = []
        self.need_pass = False
        self.round_no = 1
        self.round_winner = -1
        self.round_damage = 0
        self.over = False
        self.winner = -1
        self.fortune: tuple[int, ...] = ()
        self.history: list[Decision] = []
        self.log: list[LogEntry] = [(E_ROUND, -1, 1, 0, -1), (E_TURN, self.current, 0, 0, -1)]
        # What each seat knows of hidden zones: Draw Deck cards whose position it has seen, and
        # cards of its own Life Deck it has looked at (DD-1.2).
        self.known_draw: list[set[int]] = [set() for _ in range(n)]
        self.known_life: list[set[int]] = [set() for _ in range(n)]
        # Public knowledge of the Draw Deck's contents: it holds only cards of base_mask that have
        # not been seen face up since (a reshuffle makes the old Discard Pile the new base).
        self.base_mask = cs.all_mask
        self.seen_mask = 0
        self.summons = 0
        self.round_lengths: list[int] = []

    # ------------------------------------------------------------------ queries

    def to_move(self) -> int:
        """The seat whose decision is awaited (-1 once the game is over)."""
        if self.over:
            return -1
        if self.queue:
            seat: int = self.queue[0][1]
            return seat
        return self.current

    def prompt(self) -> Step | tuple[()]:
        """The pending prompt, or () when the seat to move must summon."""
        return self.queue[0] if self.queue else ()

    def last_strength(self, seat: int) -> int:
        """Strength to beat: -1 with nothing summoned this round (DD-9: any card succeeds)."""
        row = self.rows[seat]
        return self.cs.strength[row[-1]] if row else -1

    def has_op(self, seat: int, op: int) -> int:
        """How many always-on cards with this effect the seat has summoned or in Reserves (DD-7.5)."""
        ops = self.cs.op
        count = 0
        for c in self.rows[seat]:
            if ops[c] == op:
                count += self.cs.amount[c]
        for c in self.reserves[seat]:
            if ops[c] == op:
                count += self.cs.amount[c]
        return count

    def op_cards(self, seat: int, op: int) -> tuple[int, ...]:
        """The always-on cards with this effect the seat has summoned or in Reserves, for the log to name (DD-31)."""
        ops = self.cs.op
        return tuple(c for c in (*self.rows[seat], *self.reserves[seat]) if ops[c] == op)

    def legal(self) -> list[Decision]:
        if self.over:
            return []
        if self.queue:
            entry = self.queue[0]
            kind = entry[0]
            if kind == P_ABILITY:
                op = self.cs.op[entry[2]]
                if op == OP_DRAIN or op == OP_CULL_LIFE:
                    seat = entry[1]
                    return [(USE, t) for t in range(self.n) if t != seat and self.alive[t]] + [S]
                if op == OP_SIFT_ANY_LIFE:  # DD-28: any player still in the game, oneself included
                    return [(USE, t) for t in range(self.n) if self.alive[t]] + [S]
                return [U, S]
            if kind == P_KEEP:
                return [(KEEP, c) for c in self.hand]
            if kind == P_ARRANGE:
                return [(ORDER, perm) for perm in permutations(entry[3])]
            if kind == P_SCRY:
                return [(ORDER, (entry[3],)), B]
            if kind in (P_SIFT_DRAW, P_SIFT_LIFE):  # DD-25: any of them on top in any order, the rest below
                top = entry[3]
                return [(ORDER, perm) for k in range(len(top), 0, -1) for perm in permutations(top, k)] + [B]
            if kind == P_CULL:  # DD-29: one of them is discarded, the others go back on top in any order
                return [(ORDER, perm) for perm in permutations(entry[3], len(entry[3]) - 1)]
            raise AssertionError(f"automatic step {entry!r} left in the queue")
        p = self.current
        last = self.last_strength(p)
        strength = self.cs.strength
        return [D] + [(RESERVE, c) for c in self.reserves[p] if strength[c] > last]

    def notation_history(self) -> list[str]:
        return [to_notation(d) for d in self.history]

    # ------------------------------------------------------------------ apply

    def check_open(self) -> None:
        """Raises IllegalDecision once the game is over (DD-2.5): no decision is played then, well formed or not."""
        if self.over:
            raise IllegalDecision("DD-2.5", "the game is over")

    def apply(self, seat: int, d: Decision) -> None:
        """Play one decision for `seat`. Raises IllegalDecision (state unchanged) if not allowed."""
        self.check_open()
        queue = self.queue
        if queue:
            entry = queue[0]
            mover, kind = entry[1], entry[0]
            if seat != mover:
                rule = "DD-5.1" if kind == P_KEEP else "DD-7.1"
                raise IllegalDecision(rule, f"seat {mover} must answer the pending prompt, not seat {seat}")
            if kind == P_ABILITY:
                self._answer_ability(entry, d)
            elif kind == P_KEEP:
                self._answer_keep(entry, d)
            elif kind == P_ARRANGE:
                self._answer_arrange(entry, d)
            elif kind == P_SCRY:
                self._answer_scry(entry, d)
            elif kind == P_CULL:
                self._answer_cull(entry, d)
            else:
                self._answer_sift(entry, d)
        else:
            if seat != self.current:
                raise IllegalDecision("DD-3.6", f"it is seat {self.current}'s turn, not seat {seat}'s")
            self._answer_turn(seat, d)
        self.history.append(d)
        self._settle()

    def play(self, d: Decision) -> None:
        """apply() for whoever is to move (bots, replays)."""
        self.apply(self.to_move(), d)

    # -- the turn (DD-3)

    def _answer_turn(self, p: int, d: Decision) -> None:
        kind = d[0]
        if kind == DRAW:
            if d[1] != 0:
                raise IllegalDecision("DD-3.2", "D takes no argument")
            self._summon_from_draw(p)
        elif kind == RESERVE:
            c = d[1]
            reserves = self.reserves[p]
            if c not in reserves:
                raise IllegalDecision("DD-6.3", f"card {c} is not in your Reserves")
            last = self.last_strength(p)
            if self.cs.strength[c] <= last:
                raise IllegalDecision(
                    "DD-6.3",
                    f"{self.cs.label(c)} is not stronger than your last summoned card, "
                    f"{self.cs.label(self.rows[p][-1])}",
                )
            reserves.remove(c)
            self.log.append((E_SUMMON_RESERVE, p, c, 0, -1))
            self._summon(p, c)
        else:
            raise IllegalDecision("DD-3.2", f"on your turn you must summon (D or R<card>), not {to_notation(d)}")
        self.need_pass = True

    def _summon_from_draw(self, p: int) -> None:
        c = self._take_top()
        if not c:  # DD-10: nothing left to reveal anywhere, so the summon fails
            self.log.append((E_FAIL_EMPTY, p, 0, 0, -1))
            self._eliminate(p)
            return
        strength = self.cs.strength
        row = self.rows[p]
        self.seen_mask |= 1 << c
        if not row or strength[c] > strength[row[-1]]:  # DD-3.3, DD-9
            self.log.append((E_SUMMON, p, c, 0, -1))
            self._summon(p, c)
        elif strength[c] == strength[row[-1]] and self.has_op(p, OP_STEADFAST):
            self.log.append((E_SUMMON, p, c, OP_STEADFAST, -1))
            self._summon(p, c)
        else:  # DD-3.5
            self.discard.append(c)
            self.log.append((E_FAIL, p, c, row[-1], -1))
            self._eliminate(p)

    def _summon(self, p: int, c: int) -> None:
        self.rows[p].append(c)
        self.totals[p] += self.cs.strength[c]
        self.summons += 1
        self.seen_mask |= 1 << c
        if self.cs.keyword[c] == K_SUMMON:  # DD-3.4, DD-7.2
            self.queue.insert(0, (P_ABILITY, p, c, K_SUMMON))

    def _eliminate(self, p: int) -> None:
        """DD-3.5 with DD-7.4: Aftermath abilities of the row (not of the Reserves, DD-21) resolve in row order
        (DD-12), then the row goes."""
        self.in_round[p] = False
        self.in_round_count -= 1
        self.log.append((E_ELIMINATED, p, 0, 0, -1))
        keyword = self.cs.keyword
        steps = [(P_ABILITY, p, c, K_AFTERMATH) for c in self.rows[p] if keyword[c] == K_AFTERMATH]
        steps.append((A_DISCARD_ROW, p, 0, 0))
        self.queue[0:0] = steps

    def _pass_turn(self) -> None:
        """DD-3.6: to the lowest total strength among players still in the round; ties as written."""
        cur = self.current
        in_round = self.in_round
        totals = self.totals
        n = self.n
        best = min(totals[p] for p in range(n) if in_round[p])
        if in_round[cur] and totals[cur] == best:
            tied = sum(1 for p in range(n) if in_round[p] and totals[p] == best)
            self.why = WHY_TIE_STAY if tied > 1 else WHY_LOWEST
        else:
            tied = 0
            p = cur
            for _ in range(n):
                p = p + 1 if p + 1 < n else 0
                if in_round[p] and totals[p] == best:
                    if not tied:
                        self.current = p
                    tied += 1
            self.why = WHY_TIE_LEFT if tied > 1 else WHY_LOWEST
        self.log.append((E_TURN, self.current, 0, 0, -1))

    # -- the queue

    def _settle(self) -> None:
        queue = self.queue
        while True:
            if queue:
                entry = queue[0]
                kind = entry[0]
                if kind < AUTO:
                    return
                del queue[0]
                if kind == A_DAMAGE:
                    self._damage(entry[1], entry[2])
                elif kind == A_DISCARD_ROW:
                    self._discard_row(entry[1])
                else:
                    self._end_round()
                continue
            if self.over or not self.need_pass:
                return
            self.need_pass = False
            if self.in_round_count == 1:
                self._round_won()
                continue
            self._pass_turn()
            return

    def _discard_row(self, p: int) -> None:
        row = self.rows[p]
        if row:
            self.discard.extend(row)  # DD-33: first summoned to last, the last on top
            self.log.append((E_DISCARD_ROW, p, len(row), 0, -1))
            self.rows[p] = []
        self.totals[p] = 0

    # -- end of the round (DD-4)

    def _round_won(self) -> None:
        w = next(p for p in range(self.n) if self.in_round[p])
        self.round_winner = w
        spikes = self.has_op(w, OP_SPIKES)
        damage = sum(self.cs.damage[c] for c in self.rows[w]) + spikes  # DD-4.2
        self.round_damage = damage
        self.round_lengths.append(self.summons)
        # The extra damage and the cards that add it, named (DD-31): a total the row's red dots do not make.
        self.log.append((E_ROUND_WON, w, damage, (spikes, *self.op_cards(w, OP_SPIKES)) if spikes else 0, -1))
        steps: list[Step] = []
        n = self.n
        for i in range(1, n):  # DD-4.3: from the winner's left, around the table
            o = (w + i) % n
            if self.alive[o]:
                steps.append((A_DAMAGE, o, damage, 0))
        keyword = self.cs.keyword
        # DD-7.4 / DD-12: the winner's Aftermath abilities, after the damage, before the row is discarded; in the
        # game's last round too (DD-32), the game being over only when the round ends.
        steps.extend((P_ABILITY, w, c, K_AFTERMATH) for c in self.rows[w] if keyword[c] == K_AFTERMATH)
        steps.append((A_DISCARD_ROW, w, 0, 0))  # DD-4.4
        steps.append((A_END_ROUND, w, 0, 0))
        self.queue[0:0] = steps

    def _damage(self, p: int, amount: int) -> None:
        """DD-5.1 / DD-5.2, with Shield (always-on) reducing the amount first."""
        stopped = min(self.has_op(p, OP_SHIELD), max(amount, 0))
        amount = max(0, amount - stopped)
        # The damage stopped and the cards that stop it, named (DD-31): "takes 1 damage" of a round of 2 read wrong.
        self.log.append((E_DAMAGE, p, amount, (stopped, *self.op_cards(p, OP_SHIELD)) if stopped else 0, -1))
        if amount == 0:  # DD-11: no damage taken, so no defeat even with an empty Life Deck
            return
        life = self.life[p]
        if not life:  # DD-2.4 / DD-5.2
            self._defeat(p)
            return
        k = min(amount, len(life))  # DD-5.2: running out while drawing is not a defeat
        hand = [life.pop() for _ in range(k)]
        known = self.known_life[p]
        for c in hand:
            known.discard(c)
        if k == 1:  # DD-14: a single drawn card goes to the Reserves without a prompt
            self.log.append((E_KEEP, p, hand[0], 1, -1))
            self._to_reserves(p, hand[0])
            return
        self.hand = hand
        self.log.append((E_DAMAGE_DRAWN, p, tuple(hand), 0, p))
        self.queue.insert(0, (P_KEEP, p, 0, 0))

    def _defeat(self, p: int) -> None:
        self.alive[p] = False
        self.alive_count -= 1
        self.log.append((E_DEFEATED, p, 0, 0, -1))
        reserves = self.reserves[p]
        if reserves:  # DD-15: a defeated player's Reserves go to the Discard Pile
            self.discard.extend(reserves)
            self.log.append((E_RESERVES_DISCARDED, p, len(reserves), 0, -1))
            self.reserves[p] = []

    def _end_round(self) -> None:
        w = self.round_winner
        if self.alive_count == 1:  # DD-2.5
            self.over = True
            self.winner = w
            self.log.append((E_GAME_WON, w, 0, 0, -1))
            cards = self.life[w]
            self.life[w] = []
            self.rng.shuffle(cards)  # DD-8.2
            self.fortune = tuple(cards)
            self.known_life[w].clear()
            if cards:  # DD-8.1: only a winner with Life cards left tells a fortune; the log says none otherwise
                self.log.append((E_FORTUNE, w, self.fortune, 0, -1))
            return
        self.round_no += 1
        self.summons = 0
        n = self.n
        self.in_round = list(self.alive)
        self.in_round_count = self.alive_count
        self.totals = [0] * n
        self.current = w  # DD-4.4
        self.why = WHY_START
        self.log.append((E_ROUND, -1, self.round_no, 0, -1))
        self.log.append((E_TURN, w, 0, 0, -1))

    # -- the Life Deck, Reserves and abilities (DD-5 to DD-7)

    def _to_reserves(self, p: int, c: int) -> None:
        self.reserves[p].append(c)
        self.seen_mask |= 1 << c
        self.log.append((E_TO_RESERVES, p, c, 0, -1))
        if self.cs.keyword[c] == K_RESERVE:  # DD-6.2, DD-7.3
            self.queue.insert(0, (P_ABILITY, p, c, K_RESERVE))

    def _answer_keep(self, entry: Step, d: Decision) -> None:
        p = entry[1]
        if d[0] != KEEP or d[1] not in self.hand:
            options = ", ".join(f"K{c}" for c in self.hand)
            raise IllegalDecision("DD-5.1", f"choose one of the cards you drew to keep ({options})")
        del self.queue[0]
        c = d[1]
        rest = [x for x in self.hand if x != c]
        self.hand = []
        self.discard.extend(rest)  # DD-33: in the order drawn, the last on top
        for x in rest:
            self.seen_mask |= 1 << x
        self.log.append((E_KEEP, p, c, len(rest) + 1, -1))
        if rest:
            self.log.append((E_DISCARD, p, tuple(rest), 0, -1))
        self._to_reserves(p, c)

    def _answer_ability(self, entry: Step, d: Decision) -> None:
        _, p, c, when = entry
        cs = self.cs
        op = cs.op[c]
        kind = d[0]
        if kind == SKIP:
            del self.queue[0]
            self.log.append((E_SKIP, p, c, 0, -1))
            return
        if kind != USE:
            raise IllegalDecision("DD-7.1", f"{cs.name(c)}'s ability is optional: use it (U) or skip it (S)")
        target = d[1]
        if op == OP_DRAIN:
            if not (0 <= target < self.n) or target == p or not self.alive[target]:
                raise IllegalDecision("DD-7.1", f"{cs.name(c)} needs another player still in the game as its target")
        elif op == OP_CULL_LIFE:
            if target == p or not (0 <= target < self.n) or not self.alive[target]:
                raise IllegalDecision("DD-29", f"{cs.name(c)} needs another player still in the game as its target")
        elif op == OP_SIFT_ANY_LIFE:
            if not (0 <= target < self.n) or not self.alive[target]:
                raise IllegalDecision("DD-28", f"{cs.name(c)} needs a player still in the game as its target "
                                               "(you may choose yourself)")
        elif target != -1:
            raise IllegalDecision("DD-7.1", f"{cs.name(c)}'s ability takes no target")
        del self.queue[0]
        self.log.append((E_ABILITY, p, c, target, -1))
        amount = cs.amount[c]
        if op == OP_GAIN_LIFE:  # DD-5.3
            gained = 0
            for _ in range(amount):
                # DD-24: the Lookout showed the top card in place; one a reshuffle brings up (DD-10) no one saw.
                under_lookout = bool(self.draw) and self.has_op(p, OP_LOOKOUT)
                x = self._take_top()
                if not x:
                    break
                # DD-24: not looked at, but a player who already knew the card still knows it.
                knew = x in self.known_draw[p] or under_lookout
                self._forget_draw(x)
                self.life[p].append(x)
                if knew:
                    self.known_life[p].add(x)
                gained += 1
            self.log.append((E_GAIN_LIFE, p, gained, 0, -1))
        elif op == OP_PEEK_DRAW:
            top = self._peek_top(amount)
            self.known_draw[p].update(top)
            self.log.append((E_SEE, p, tuple(top), 0, p))
        elif op == OP_ARRANGE_DRAW:
            top = self._peek_top(amount)
            self.known_draw[p].update(top)
            self.log.append((E_SEE, p, tuple(top), 0, p))
            if len(top) > 1:
                self.queue.insert(0, (P_ARRANGE, p, c, tuple(top)))
        elif op == OP_SCRY:
            top = self._peek_top(1)
            if top:
                self.known_draw[p].add(top[0])
                self.log.append((E_SEE, p, tuple(top), 0, p))
                self.queue.insert(0, (P_SCRY, p, c, top[0]))
        elif op == OP_SIFT_DRAW:
            top = self._peek_top(amount)
            if top:
                self.known_draw[p].update(top)
                self.log.append((E_SEE, p, tuple(top), 0, p))
                self.queue.insert(0, (P_SIFT_DRAW, p, c, tuple(top)))
        elif op == OP_SIFT_LIFE:
            top = self.life[p][::-1][:amount]
            if top:
                self.known_life[p].update(top)
                self.log.append((E_SEE, p, tuple(top), 1, p))
                self.queue.insert(0, (P_SIFT_LIFE, p, c, tuple(top)))
        elif op == OP_SIFT_ANY_LIFE:
            top = self.life[target][::-1][:amount]
            if top and target == p:  # one's own Life Deck: exactly as sift_life (DD-25)
                self.known_life[p].update(top)
                self.log.append((E_SEE, p, tuple(top), 1, p))
                self.queue.insert(0, (P_SIFT_LIFE, p, c, tuple(top)))
            elif top:  # DD-28: seen by the sifter only; b names the Life Deck's owner (seat + 2)
                self.log.append((E_SEE, p, tuple(top), target + 2, p))
                self.queue.insert(0, (P_SIFT_LIFE, p, c, tuple(top), target))
        elif op == OP_CULL_LIFE:  # DD-29: seen by the user only; one of them is discarded
            top = self.life[target][::-1][:amount]
            if not top:
                self.log.append((E_CULLED, target, 0, p, -1))
            else:
                self.log.append((E_SEE, p, tuple(top), target + 2, p))
                if len(top) == 1:  # nothing to choose: the one card seen is discarded (as DD-14)
                    self._cull(p, target, tuple(top), ())
                else:
                    self.queue.insert(0, (P_CULL, p, c, tuple(top), target))
        elif op == OP_PEEK_LIFE:
            life = self.life[p]
            top = life[::-1][:amount]
            self.known_life[p].update(top)
            self.log.append((E_SEE, p, tuple(top), 1, p))
        elif op == OP_DRAIN:
            life = self.life[target]
            if life:
                x = life.pop()
                self.known_life[target].discard(x)
                self.discard.append(x)
                self.seen_mask |= 1 << x
                self.log.append((E_DRAIN, target, x, p, -1))
            else:
                self.log.append((E_DRAIN, target, 0, p, -1))
        elif op == OP_RECRUIT:
            x = self._take_top()
            if x:
                self._forget_draw(x)
                self._to_reserves(p, x)
        elif op == OP_SALVAGE:
            row = self.rows[p]
            if c in row:
                row.remove(c)
                self.totals[p] -= cs.strength[c]  # DD-23: a card that leaves the row leaves the total
                self._to_reserves(p, c)
        elif op == OP_SCAVENGE:
            if self.discard:
                self._to_reserves(p, self.discard.pop())
        else:  # pragma: no cover - the card set validator forbids other ops on triggered keywords
            raise AssertionError(f"op {op} cannot be triggered")

    def _answer_arrange(self, entry: Step, d: Decision) -> None:
        _, p, c, top = entry
        if d[0] != ORDER or len(d[1]) != len(top) or sorted(d[1]) != sorted(top):
            shown = ".".join(map(str, top))
            raise IllegalDecision("DD-7.1", f"put back exactly the cards you looked at (O{shown}), in any order")
        del self.queue[0]
        k = len(top)
        self.draw[-k:] = list(reversed(d[1]))
        moved = set(top)
        for q in range(self.n):
            if q != p:
                self.known_draw[q] -= moved  # others saw the cards move but not where
        self.log.append((E_ARRANGED, p, k, 0, -1))
        self.log.append((E_ARRANGED, p, tuple(d[1]), 1, p))

    def _answer_scry(self, entry: Step, d: Decision) -> None:
        _, p, c, x = entry
        if d[0] == BOTTOM:
            del self.queue[0]
            top = self.draw.pop()
            self.draw.insert(0, top)
            self.log.append((E_SCRY_BOTTOM, p, 0, 0, -1))
        elif d[0] == ORDER and d[1] == (x,):
            del self.queue[0]
            self.log.append((E_SCRY_TOP, p, 0, 0, -1))
        else:
            raise IllegalDecision("DD-7.1", f"leave the card on top (O{x}) or put it on the bottom (B)")

    def _answer_sift(self, entry: Step, d: Decision) -> None:
        """DD-25: the listed cards go back on top (top first), the others under the deck, in the order seen."""
        kind, p, c, top = entry[:4]
        owner = entry[4] if len(entry) > 4 else p  # DD-28: another player's Life Deck
        kept = d[1] if d[0] == ORDER else () if d[0] == BOTTOM else None
        if kept is None or len(set(kept)) != len(kept) or not set(kept) <= set(top) or (d[0] == ORDER and not kept):
            shown = ".".join(map(str, top))
            raise IllegalDecision("DD-25", f"list the cards to keep on top, top first (from O{shown}); "
                                           "the others go to the bottom (B: all of them)")
        del self.queue[0]
        k = len(top)
        below = [x for x in top if x not in kept]
        pile = self.draw if kind == P_SIFT_DRAW else self.life[owner]
        del pile[-k:]
        pile[0:0] = below  # the first one seen ends up deepest
        pile.extend(reversed(kept))
        if owner != p:
            # The owner saw how many went down, not which: they no longer know where their looked-at cards are.
            self.known_life[owner] -= set(top)
            self.log.append((E_SIFTED_OTHER, owner, len(kept), len(below), -1))
            self.log.append((E_SIFTED_OTHER, owner, tuple(kept), tuple(below), p))
            return
        if kind == P_SIFT_DRAW:
            moved = set(top)
            for q in range(self.n):
                if q != p:
                    self.known_draw[q] -= moved  # others saw how many went down, not which
        event = E_SIFTED if kind == P_SIFT_DRAW else E_SIFTED_LIFE
        self.log.append((event, p, len(kept), len(below), -1))
        self.log.append((event, p, tuple(kept), tuple(below), p))

    def _answer_cull(self, entry: Step, d: Decision) -> None:
        """DD-29: the cards named go back on top of the owner's Life Deck (top first); the one not named is
        discarded."""
        _, p, c, top, owner = entry
        kept = d[1] if d[0] == ORDER else None
        if kept is None or len(set(kept)) != len(kept) or len(kept) != len(top) - 1 or not set(kept) <= set(top):
            shown = ".".join(map(str, top))
            raise IllegalDecision("DD-29", f"name the cards to put back on top, top first, all but the one to "
                                           f"discard (from O{shown})")
        del self.queue[0]
        self._cull(p, owner, top, kept)

    def _cull(self, p: int, owner: int, top: tuple[int, ...], kept: tuple[int, ...]) -> None:
        pile = self.life[owner]
        del pile[-len(top):]
        pile += kept[::-1]  # named top first
        x = next(c for c in top if c not in kept)
        self.discard.append(x)
        self.seen_mask |= 1 << x
        # The owner sees which card was discarded, not the order of the others: they lose track of those.
        self.known_life[owner].difference_update(top)
        self.log.append((E_CULLED, owner, x, p, -1))
        if kept:
            self.log.append((E_CULLED, owner, kept, p, p))

    # -- the Draw Deck (DD-3.7)

    def _reshuffle(self) -> bool:
        """DD-3.7 / DD-10: when a card is needed from an empty Draw Deck, the Discard Pile becomes it."""
        if not self.discard:
            return False
        self.draw = self.discard
        self.discard = []
        self.rng.shuffle(self.draw)
        self.base_mask = sum(1 << c for c in self.draw)
        self.seen_mask = 0
        for known in self.known_draw:
            known.clear()
        self.log.append((E_RESHUFFLE, -1, len(self.draw), 0, -1))
        return True

    def _take_top(self) -> int:
        if not self.draw and not self._reshuffle():
            return 0
        return self.draw.pop()

    def _peek_top(self, k: int) -> list[int]:
        """DD-22: a look at k cards sees those there are; only an empty Draw Deck is rebuilt first (DD-10)."""
        if not self.draw:
            self._reshuffle()
        return self.draw[::-1][:k]

    def _forget_draw(self, c: int) -> None:
        for known in self.known_draw:
            known.discard(c)

    # ------------------------------------------------------------------ whole-state helpers

    def zones(self) -> dict[str, list[int]]:
        """Every zone by name: each card of the set is in exactly one of them at every step."""
        z: dict[str, list[int]] = {"draw": list(self.draw), "discard": list(self.discard), "hand": list(self.hand),
                                   "fortune": list(self.fortune)}
        for p in range(self.n):
            z[f"life{p}"] = list(self.life[p])
            z[f"reserves{p}"] = list(self.reserves[p])
            z[f"row{p}"] = list(self.rows[p])
        return z

    def copy(self) -> Game:
        """An independent copy (lists copied one level; cards are ints)."""
        g = Game.__new__(Game)
        g.cs = self.cs
        g.n = self.n
        g.seed = self.seed
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.life = [list(x) for x in self.life]
        g.reserves = [list(x) for x in self.reserves]
        g.rows = [list(x) for x in self.rows]
        g.totals = list(self.totals)
        g.draw = list(self.draw)
        g.discard = list(self.discard)
        g.alive = list(self.alive)
        g.alive_count = self.alive_count
        g.in_round = list(self.in_round)
        g.in_round_count = self.in_round_count
        g.current = self.current
        g.why = self.why
        g.queue = list(self.queue)
        g.hand = list(self.hand)
        g.need_pass = self.need_pass
        g.round_no = self.round_no
        g.round_winner = self.round_winner
        g.round_damage = self.round_damage
        g.over = self.over
        g.winner = self.winner
        g.fortune = self.fortune
        g.history = list(self.history)
        g.log = list(self.log)
        g.known_draw = [set(x) for x in self.known_draw]
        g.known_life = [set(x) for x in self.known_life]
        g.base_mask = self.base_mask
        g.seen_mask = self.seen_mask
        g.summons = self.summons
        g.round_lengths = list(self.round_lengths)
        g.first_player = self.first_player
        return g
