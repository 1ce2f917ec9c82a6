"""The Dreadgate game state: the public API on top of the engine's storeys (rules DG-1 to DG-18).

The API follows python-chess and OpenSpiel: `new_game(...)`, `state.legal_actions()`, `state.apply(action)`,
`state.undo()`, `state.copy()`, `state.determinize(seat, rng)`, `state.observation(player)`, `state.is_over()`,
`state.scores()`, `state.winner`. A refused action raises IllegalAction naming its rule and leaves the state
unchanged.

The storeys, each using only those below it: the data and the primitives that move cards (zones.py, over
actions.py, board.py, cards.py, journal.py, rng.py); the effect vocabulary (effects.py); the rule checks and
the legal actions (rules.py); playing an action and the turn structure (play.py); this module. Notation,
records and the describer (notation.py, record.py, describe.py) stand beside it and read a State.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from . import rng as _rng
from .actions import ATTACK, DRAW, END, FLY, GROUND, KEEP, MOVE, MULLIGAN, RECYCLE, Action, IllegalAction
from .cards import CardDataError, CardDef, Compiled, compile_card
from .effects import refresh_statics
from .journal import (
    ARITY, ATTR, BOARD, BONE_POP, COPY, CPOP, DRAWN, FRAME, HAND_INS, ITEM, KEY_DEL, MOVED, NO_JOURNAL, POP,
    RECYCLED, SET, SET_ADD, SET_DISCARD, TURN, UATTR, UNIT_DEL,
)  # fmt: skip
from .observe import observation
from .play import check_win, do, open_windows
from .rules import answer_cells, check, legal_actions
from .zones import (
    AP_PER_TURN, BEYOND_GOAL, BONEYARD_GOAL, COMBAT_PHASE, DEFENSE_PHASE, DISCARD_PHASE, DRAW_RESULT, ENGINE_VERSION,
    FOREVER, FORMATS, MAIN_PHASE, MULLIGAN_PHASE, OPENING_HAND, OVER_PHASE, PHASES, QUICK, RESPONSE_PHASE,
    STANDARD, TACTICAL, TACTICAL_TYPES, TARGET_PHASE, TURN_LIMIT, Game, GameSetupError, Unit,
)  # fmt: skip

__all__ = [
    "AP_PER_TURN", "BEYOND_GOAL", "BONEYARD_GOAL", "COMBAT_PHASE", "DEFENSE_PHASE", "DISCARD_PHASE", "DRAW_RESULT",
    "ENGINE_VERSION", "FOREVER", "FORMATS", "MAIN_PHASE", "MULLIGAN_PHASE", "OPENING_HAND",
    "OVER_PHASE", "PHASES", "QUICK", "RESPONSE_PHASE", "STANDARD", "TACTICAL", "TACTICAL_TYPES", "TARGET_PHASE",
    "TURN_LIMIT", "GameSetupError", "State", "Unit",
]  # fmt: skip

# Statics need no refresh after these (END refreshes itself when a modifier expires, MOVE when a continuous
# ability reaches by distance or the maneuver took a unit off the battlefield or onto another's cell).
_NO_UNIT_CHANGE = frozenset({DRAW, RECYCLE, ATTACK, GROUND, FLY, END, KEEP, MULLIGAN, MOVE})
_TABLES: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # card tables of recent deck pairs, see State._setup
_SORTED: dict[tuple[int, ...], tuple[int, ...]] = {}  # recent zones in order of id, see _in_order


def _in_order(ids: list[int]) -> list[int]:
    """sorted(ids), remembered by content: a game's position is sealed at every decision (view.py), and its decks
    and the opponent's hidden hand change only now and then (a draw), so the same shuffled lists come back."""
    key = tuple(ids)
    found = _SORTED.get(key)
    if found is None:
        if len(_SORTED) > 256:
            _SORTED.clear()
        found = _SORTED[key] = tuple(sorted(key))
    return list(found)


class State(Game):
    """One game of Dreadgate. Seat 0 is South and moves first (DG-4.3); seat 1 is North."""

    def __init__(self, decks: Sequence[Sequence[CardDef]], seed: int, fmt: str = "standard"):
        if fmt not in FORMATS:
            raise GameSetupError(f"format: {fmt!r} is not one of {', '.join(FORMATS)}")
        if len(decks) != 2:
            raise GameSetupError("decks: a game needs exactly two deck lists")
        self.fmt = FORMATS.index(fmt)
        self.seed = int(seed)
        self.deck_lists = (tuple(decks[0]), tuple(decks[1]))
        self._setup()

    # --- set-up (DG-4) ---------------------------------------------------------------------

    def _setup(self) -> None:
        self.rs = self.seed & ((1 << 64) - 1)
        self.rs, coin = _rng.below(self.rs, 2)
        # DG-4.3: the seed decides which deck moves first; that deck takes seat 0 (South).
        self.deck_of_seat = (coin, 1 - coin)
        # The card table depends only on the deck lists and the seating: games of the same decks share it
        # (it is never changed during a game), which makes setting up a game several times faster.
        key = (self.fmt, coin, tuple(map(id, self.deck_lists[0])), tuple(map(id, self.deck_lists[1])))
        table = _TABLES.get(key)
        if table is None:
            table = self._card_table()
            if len(_TABLES) > 256:
                _TABLES.clear()
            _TABLES[key] = table  # it holds the CardDefs, so their ids are not reused while cached
        _, self.defs, self.by_code, self.inst, self.owner_of, self.gateway, decks, self.answers = table
        self.deck = [list(decks[0]), list(decks[1])]
        for seat in (0, 1):
            self.rs = _rng.shuffle(self.rs, self.deck[seat])  # DG-4.2
        self._empty_zones()
        for seat in (0, 1):
            self._draw(seat, OPENING_HAND)

    def _card_table(self) -> tuple[Any, ...]:
        """(cards, definitions, index by code, instance -> definition, instance -> owner, gateways, decks, the
        instances that could answer an action: instant cards and cards with an instant ability)."""
        defs: list[Compiled] = []
        by_code: dict[str, int] = {}
        inst: list[Compiled] = []
        owner_of: list[int] = []
        decks: list[list[int]] = [[], []]
        gateway: list[Compiled | None] = [None, None]
        for seat in (0, 1):
            for card in self.deck_lists[self.deck_of_seat[seat]]:
                if card.collector_number not in by_code:
                    try:
                        by_code[card.collector_number] = len(defs)
                        defs.append(compile_card(card, len(defs)))
                    except CardDataError as exc:
                        raise GameSetupError(str(exc)) from exc
                c = defs[by_code[card.collector_number]]
                if c.kind == "gateway":  # DG-2.7: beside the deck, never shuffled in
                    gateway[seat] = c
                    continue
                if self.fmt == TACTICAL and c.kind not in TACTICAL_TYPES:
                    raise GameSetupError(f"{c.code}: a {c.kind} is not played in Tactical (DG-1.4)")
                decks[seat].append(len(inst))
                inst.append(c)
                owner_of.append(seat)
        cards = (tuple(self.deck_lists[0]), tuple(self.deck_lists[1]))
        answers = frozenset(i for i, c in enumerate(inst) if c.instant or any(not u[2] for u in c.uses))
        return cards, defs, by_code, inst, owner_of, gateway, (tuple(decks[0]), tuple(decks[1])), answers

    # --- the game --------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER_PHASE

    def scores(self) -> dict[str, list[int]]:
        return {"beyond": list(self.beyond_score), "boneyard": list(self.bone_score)}

    def observation(self, player: int) -> dict[str, Any]:
        """What `player` (0 or 1; -1 for a spectator) may see: no deck order, no hand but their own (DG-2.6)."""
        return observation(self, player)

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player who decides now, in a fixed order (empty when the game is over)."""
        cached = self._legal
        if cached is not None and cached[0] == self._stamp:
            return list(cached[1])
        out = legal_actions(self)
        self._legal = (self._stamp, out)
        return list(out)

    def answer_cells(self) -> dict[Action, int]:
        """Where on the board the answers to a move's question point: a direction or a distance (DG-18.7)."""
        return answer_cells(self)

    def apply(self, action: Action, known_legal: bool = False) -> None:
        """Check and play one action; IllegalAction (with the rule) leaves the state unchanged. `known_legal`: the
        caller has played this very action from this very position before (a search playing a line again after
        taking it back), so the check is skipped; the action is played the same either way."""
        cached = self._legal
        if not known_legal and (cached is None or cached[0] != self._stamp or action not in cached[1]):
            check(self, action)  # raises with the rule; a listed action is known legal
        # Undo: a frame of the attributes most actions reassign, then an entry for each other change.
        self._j = journal = self._undo
        journal.extend((self.ap, self.rp, self.phase, self.decider, FRAME))
        self._legal_undo = self._legal  # for the last action only: the journal holds no lists, which keeps it cheap
        before = self.phase
        try:
            self._stamp += 1
            do(self, action)
            self.history.append(action)
            if (self.static_live or self.statics or self.gate_static) and action[0] not in _NO_UNIT_CHANGE:
                refresh_statics(self)
            if self.phase != OVER_PHASE:
                check_win(self)
                if self.phase != OVER_PHASE:
                    open_windows(self, action[0], before)  # DG-15.5, DG-15.6
        finally:
            self._j = NO_JOURNAL

    def undo(self) -> Action:
        """Take back the last action: put back what it changed, newest first (no replay).

        The journal starts with the state: a copy, a determinized state or one loaded from a snapshot can't
        take back the actions played before it was made.
        """
        journal = self._undo
        if not journal or not self.history:
            raise IllegalAction("DG-4.1", "there is nothing to undo")
        units = self.units
        while True:
            tag = journal.pop()
            n = ARITY[tag]
            if n:
                e = journal[-n:]
                del journal[-n:]
            # The kinds in order of how often a search takes them back (each action's FRAME, the most, ends it).
            if tag == FRAME:  # the action's first entry
                self.ap, self.rp, self.phase, self.decider = e
                legal = self._legal_undo  # the cache of the position before the action, if it was fresh then
                fresh = legal is not None and legal[0] == self._stamp - 1
                self._stamp += 1  # stamps only grow: no cached list of another branch is ever taken for this one
                self._legal = (self._stamp, legal[1]) if legal is not None and fresh else None
                self._legal_undo = None
                return self.history.pop()
            elif tag == COPY:
                obj, saved = e[0], e[1]
                if type(obj) is list:
                    obj[:] = saved
                elif type(obj) is Unit:
                    obj.set_fields(saved)
                else:  # a dict or a set
                    obj.clear()
                    obj.update(saved)
            elif tag == SET:
                setattr(self, e[0], e[1])
            elif tag == POP:
                e[0].pop()
            elif tag == UATTR:
                setattr(units[e[0]], e[1], e[2])
            elif tag == HAND_INS:
                self.hand[e[0]].insert(e[1], e[2])
            elif tag == BOARD:
                self.board[e[0]] = e[1]
            elif tag == BONE_POP:
                self.boneyard[e[0]].pop()
            elif tag == ITEM:
                e[0][e[1]] = e[2]
            elif tag == DRAWN:
                deck, hand = self.deck[e[0]], self.hand[e[0]]
                for _ in range(e[1]):
                    deck.append(hand.pop())
            elif tag == TURN:
                p, self.turn, self.active, infl, used, self.ap_next[p], self.tp[p] = e
                self.infl = [0] * 7 if infl is None else infl
                self.used = set() if used is None else used
            elif tag == RECYCLED:
                self.hand[e[0]].insert(e[1], e[2])
                self.boneyard[e[0]].pop()
            elif tag == UNIT_DEL:
                del units[e[0]]
            elif tag == SET_DISCARD:
                getattr(self, e[0]).discard(e[1])
            elif tag == SET_ADD:
                getattr(self, e[0]).add(e[1])
            elif tag == ATTR:
                setattr(e[0], e[1], e[2])
            elif tag == MOVED:
                u = units[e[0]]
                self.board[u.cell] = -1
                self.board[e[1]] = e[0]
                u.cell, u.moved = e[1], e[2]
            elif tag == KEY_DEL:
                del e[0][e[1]]
            elif tag == CPOP:
                assert self.combat is not None
                self.combat[1].pop()

    # --- copies ----------------------------------------------------------------------------

    def determinize(self, seat: int, rng: random.Random | None) -> State:
        """A full state consistent with what `seat` knows, its hidden cards drawn again (for a policy's search).

        Kept: everything public and the seat's own hand, and the opponent's cards this seat was shown this turn
        (DG-18.9). Drawn again from the cards they could be: the rest of the opponent's hand (from the
        opponent's hand and deck together) and the order of both decks, which is drawn when a draw (or a search
        of the deck) first reaches it, so that a search that draws nothing never shuffles; the random source is
        fresh. The result depends only on what the seat may see and on `rng`, never on the true hidden cards.
        Its undo starts here.

        Without `rng` nothing is drawn: the hidden cards are placed in order of id, both decks stay in that order
        and the random source is 0, so the result is a fixed function of what the seat sees (a sealed view's
        world, view.py), and it keeps no history.
        """
        other = 1 - seat
        new = self.copy(history=rng is not None)
        shown = set(self.revealed[seat])
        if self.phase == DISCARD_PHASE and self.decider == seat and self.discards[0][1] == other:
            shown.update(self.hand[other])  # the chooser of a discard sees the hand it chooses from
        hand = self.hand[other]
        hidden = [iid for iid in hand if iid not in shown] if shown else hand
        # In order of id: the true order must not leak into the draw.
        pool = _in_order(hidden + self.deck[other]) if rng is None else sorted(hidden + self.deck[other])
        if hidden:
            if rng is None:
                placed = pool[: len(hidden)]
                del pool[: len(hidden)]
            else:
                placed = [pool.pop(rng.randrange(len(pool))) for _ in hidden]
            if shown:
                fresh = iter(placed)
                new.hand[other] = [iid if iid in shown else next(fresh) for iid in hand]
            else:  # the whole hand is hidden (most of the time): the cards drawn, in order
                new.hand[other] = placed
        new.deck[other] = pool  # the rest, still sorted: its order is drawn later
        new.deck[seat] = _in_order(self.deck[seat]) if rng is None else sorted(self.deck[seat])
        if rng is None:
            new.unordered = [-1, -1]  # in order of id for good: never shuffled
            new.rs = 0
        else:
            new.unordered = [rng.getrandbits(63), rng.getrandbits(63)]
            new.rs = rng.getrandbits(64)
        new._stamp += 1  # the cached legal actions may name hand cards that moved
        new._legal = None
        return new

    def copy(self, history: bool = True) -> State:
        """An independent state equal to this one: nothing mutable is shared (the card tables are read-only).

        The copy starts a journal of its own: undo() takes back the actions applied to it, not those before.
        Without `history` its history is empty. Every container is copied by name (a policy copies the position
        at each decision, so this is one of the engine's hot paths); the zones are pairs, one list per seat.
        """
        cls = type(self)
        new = cls.__new__(cls)
        d = new.__dict__
        d.update(self.__dict__)
        x = self.deck
        d["deck"] = [x[0][:], x[1][:]]
        x = self.hand
        d["hand"] = [x[0][:], x[1][:]]
        x = self.boneyard
        d["boneyard"] = [x[0][:], x[1][:]]
        x = self.beyond
        d["beyond"] = [x[0][:], x[1][:]]
        x = self.sideline
        d["sideline"] = [x[0][:], x[1][:]]
        x = self.revealed
        d["revealed"] = [x[0][:], x[1][:]]
        x = self.discards
        d["discards"] = [list(y) for y in x] if x else []
        x = self.return_phase
        d["return_phase"] = [list(y) for y in x] if x else []
        d["board"] = self.board[:]
        d["beyond_score"] = self.beyond_score[:]
        d["bone_score"] = self.bone_score[:]
        d["infl"] = self.infl[:]
        d["tp"] = self.tp[:]
        d["ap_next"] = self.ap_next[:]
        d["mulled"] = self.mulled[:]
        d["history"] = self.history[:] if history else []
        d["unordered"] = self.unordered[:]
        d["side_until"] = self.side_until.copy()
        d["statics"] = self.statics.copy()
        d["users"] = self.users.copy()
        d["item_bearer"] = self.item_bearer.copy()
        d["smodded"] = self.smodded.copy()
        d["used"] = self.used.copy()
        d["units"] = {iid: u.copy() for iid, u in self.units.items()}
        if self.combat is not None:
            new.combat = [self.combat[0], list(self.combat[1]), dict(self.combat[2])]
        if self.pending is not None:
            pend = self.pending
            new.pending = [pend[0], pend[1], pend[2], list(pend[3]), list(pend[4]), pend[5]]
        d["_undo"] = []
        d["_j"] = NO_JOURNAL
        d["_legal_undo"] = None
        return new

    def replay(self, actions: Sequence[Action]) -> State:
        """A new state: this game's decks and seed with the given actions applied."""
        fresh = type(self).__new__(type(self))
        fresh.fmt = self.fmt
        fresh.seed = self.seed
        fresh.deck_lists = self.deck_lists
        fresh._setup()
        for action in actions:
            fresh.apply(tuple(action))  # type: ignore[arg-type]
        return fresh

