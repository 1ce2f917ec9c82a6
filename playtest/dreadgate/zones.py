"""The bottom storey of the game: its data (zones, units, points, phase) and the primitives that move cards.

`Game` holds every part of a game; the storeys above are functions over it (effects.py, rules.py, play.py),
and `State` (state.py) adds the public API on top. A primitive here writes its change to the undo journal
(`_j`, see journal.py) before it makes it.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import Any

from core.formats import FORMAT_SLUGS
from core.formats import FORMATS as CORE_FORMATS

from .actions import Action, IllegalAction
from .board import turn_mask
from .cards import KW_AVIATION, UNIVERSAL, Compiled
from .journal import (
    ATTR,
    BOARD,
    BONE_POP,
    COPY,
    DRAWN,
    HAND_INS,
    ITEM,
    NO_JOURNAL,
    POP,
    SET,
    SET_ADD,
    SET_DISCARD,
    UATTR,
    Journal,
)  # fmt: skip

ENGINE_VERSION = "1.2.0"

STANDARD, QUICK, TACTICAL = 0, 1, 2
FORMATS = FORMAT_SLUGS  # the engine numbers formats by their place there
assert FORMATS == ("standard", "quick", "tactical")
BEYOND_GOAL = tuple(f.beyond_goal for f in CORE_FORMATS.values())  # DG-1.2, DG-1.3, DG-1.4
BONEYARD_GOAL = tuple(f.boneyard_goal for f in CORE_FORMATS.values())
TURN_LIMIT = 100  # DG-1.8
AP_PER_TURN = 4  # DG-5.1, on the first turn too (DG-5.2)
OPENING_HAND = 6  # DG-4.4
FOREVER = 1 << 30

MULLIGAN_PHASE, MAIN_PHASE, COMBAT_PHASE, DEFENSE_PHASE, TARGET_PHASE, DISCARD_PHASE, OVER_PHASE = range(7)
RESPONSE_PHASE = 7  # the opponent's window to answer an action with instants (DG-15.5)
PHASES = ("mulligan", "main", "combat", "defense", "target", "discard", "over", "response")
DRAW_RESULT = 2  # winner value of a drawn game

TACTICAL_TYPES = frozenset({"unit", "item"})


def shuffle_as_random(seed: int, items: list[Any]) -> None:
    """random.Random(seed).shuffle(items), its draws written out: each swap's index below i + 1 is getrandbits of
    that bit count, drawn again while too large, as random.Random draws it. A search orders a determinized deck at
    its first draw from it, most plans once or more, and a method call per card was a quarter of the shuffle."""
    getrandbits = random.Random(seed).getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


class GameSetupError(ValueError):
    """Deck lists or a format the engine can't set up a game with."""


class Unit:
    """A unit or legend on the battlefield. Stats are effective values (printed + modifiers).

    Its lists (items, mods, ...) are replaced, never changed in place, so that the undo journal's copy of a
    unit (`fields()`) stays a true pre-image.
    """

    __slots__ = (
        "iid", "owner", "c", "cell", "vit", "atk", "dfn", "rng", "mnv", "fmnv", "kw", "adirs", "mdirs", "flying",
        "deployed", "moved", "attacked", "switched", "stun", "items", "subdued_by", "subduing", "mods", "kwmods",
        "smods", "skw",
    )  # fmt: skip

    def __init__(self, iid: int, owner: int, c: Compiled, cell: int, turn: int):
        self.iid = iid
        self.owner = owner
        self.c = c
        self.cell = cell
        self.vit = c.vit
        self.atk, self.dfn, self.rng, self.mnv, self.fmnv = c.atk, c.dfn, c.rng, c.mnv, c.fmnv
        self.kw = c.kw
        self.adirs = turn_mask(c.adirs, owner)
        self.mdirs = turn_mask(c.mdirs, owner)
        self.flying = bool(c.kw & KW_AVIATION)  # DG-11.1
        self.deployed = turn
        self.moved = self.attacked = self.switched = self.stun = -1
        self.items: list[int] = []
        self.subdued_by = self.subduing = -1
        self.mods: list[tuple[int, int, int]] = []  # (stat 0..3, amount, last turn)
        self.kwmods: list[tuple[int, bool, int]] = []  # (keyword bit, granted?, last turn)
        self.smods: list[tuple[int, int]] = []  # from static abilities, rebuilt after each action
        self.skw: list[tuple[int, bool]] = []

    def recalc(self) -> None:
        c = self.c
        st = [c.atk, c.dfn, c.rng, c.mnv]
        fm = c.fmnv
        for s, amount, _ in self.mods:
            st[s] += amount
            if s == 3:
                fm += amount
        for s, amount in self.smods:
            st[s] += amount
            if s == 3:
                fm += amount
        self.atk = st[0] if st[0] > 0 else 0
        self.dfn = st[1] if st[1] > 0 else 0
        self.rng = st[2] if st[2] > 1 else 1
        self.mnv = st[3] if st[3] > 0 else 0
        self.fmnv = fm if fm > 0 else 0
        kw = c.kw
        for bit, grant, _ in self.kwmods:
            kw = kw | bit if grant else kw & ~bit
        for bit, grant in self.skw:
            kw = kw | bit if grant else kw & ~bit
        if not kw & KW_AVIATION:
            self.flying = False
        elif not self.kw & KW_AVIATION and self.subdued_by < 0 and self.subduing < 0:
            self.flying = True  # DG-11.1: flying by default once it is an aviation unit, unless it shares a cell
        self.kw = kw

    def fields(self) -> tuple[Any, ...]:
        values: tuple[Any, ...] = _UNIT_FIELDS(self)
        return values

    def set_fields(self, values: tuple[Any, ...]) -> None:
        # One unpacking, in the order of __slots__ (checked below the class): undo and copies call this often.
        (self.iid, self.owner, self.c, self.cell, self.vit, self.atk, self.dfn, self.rng, self.mnv, self.fmnv,
         self.kw, self.adirs, self.mdirs, self.flying, self.deployed, self.moved, self.attacked, self.switched,
         self.stun, self.items, self.subdued_by, self.subduing, self.mods, self.kwmods, self.smods,
         self.skw) = values

    def copy(self) -> Unit:
        new = Unit.__new__(Unit)
        new.set_fields(_UNIT_FIELDS(self))
        new.items, new.mods, new.kwmods = list(self.items), list(self.mods), list(self.kwmods)
        new.smods, new.skw = list(self.smods), list(self.skw)
        return new

    def snapshot(self) -> list[Any]:
        return [
            self.iid, self.owner, self.cell, self.vit, int(self.flying), self.deployed, self.moved, self.attacked,
            self.switched, self.stun, list(self.items), self.subdued_by, self.subduing,
            [list(m) for m in self.mods], [[b, int(g), t] for b, g, t in self.kwmods],
        ]  # fmt: skip


_UNIT_FIELDS = attrgetter(*Unit.__slots__)
assert Unit.set_fields.__code__.co_names == Unit.__slots__, "set_fields assigns the slots in their order"
Kept = Unit | list[Any] | dict[Any, Any] | set[Any]  # what _keep copies whole


class Game:
    """Every part of one game of Dreadgate, and the primitives that move cards between its zones.

    Seat 0 is South and moves first (DG-4.3); seat 1 is North. Set up by State (state.py).
    """

    # the card tables: built once per pair of deck lists, shared by games and copies, never changed
    fmt: int
    seed: int
    deck_lists: tuple[tuple[Any, ...], tuple[Any, ...]]
    deck_of_seat: tuple[int, int]
    defs: list[Compiled]
    by_code: dict[str, int]
    inst: list[Compiled]  # instance id -> definition
    owner_of: list[int]  # instance id -> seat
    gateway: list[Compiled | None]
    answers: frozenset[int]  # instances that could answer an action (DG-15.5): instant cards, instant abilities
    # zones (DG-2.5), instance ids in order
    deck: list[list[int]]
    # A determinized state's guess at a deck's order is made when a draw first reaches the deck: per seat, the
    # seed of that shuffle, or -1 once the order is set (always, in a real game). A search that never draws never
    # pays for the shuffle.
    unordered: list[int]
    hand: list[list[int]]
    boneyard: list[list[int]]
    beyond: list[list[int]]
    sideline: list[list[int]]
    side_until: dict[int, int]  # sideline Battlefield Talents -> last turn (DG-15.2)
    board: list[int]  # cell -> instance id of the unit holding it, or -1
    units: dict[int, Unit]  # in order of play
    statics: set[int]  # instance ids of in-play cards with continuous abilities
    users: set[int]  # instance ids of in-play cards with activated or instant abilities
    item_bearer: dict[int, int]  # attached item -> bearer unit
    gate_static: bool  # a gateway's static abilities apply all game (DG-2.7): re-evaluated after every action
    static_live: bool
    smodded: set[int]  # units that carry modifiers from static abilities
    beyond_score: list[int]
    bone_score: list[int]
    # the turn
    rs: int  # the random source (rng.py)
    turn: int
    active: int
    ap: int
    rp: int  # recycling points (DG-7.6)
    infl: list[int]  # influence of the player on turn, per craft (DG-17.2)
    tp: list[int]  # talent points (DG-15.4)
    ap_next: list[int]
    used: set[tuple[int, int]]  # abilities used this turn (DG-18.2)
    revealed: list[list[int]]  # instance ids shown to each player this turn (DG-18.9)
    phase: int
    decider: int  # who decides in the mulligan, defense, target, discard and response phases
    ending: bool  # the response window open is the end-of-turn one: the turn ends when it closes (DG-15.6)
    mulled: list[bool]
    combat: list[Any] | None  # [target iid, [(attacker iid, melee)], {attacker iid: defense}]
    pending: list[Any] | None  # [controller, source, definition, ability indexes, picks, spell] (DG-18.4)
    discards: list[list[int]]  # [chooser, victim, count] (DG-18.8)
    return_phase: list[list[int]]  # [phase, decider] to resume after an effect's choices
    winner: int
    condition: str
    history: list[Action]
    # undo and caches
    _stamp: int  # bumped by every change, so a cached list of legal actions is never stale
    _legal: tuple[int, list[Action]] | None
    _undo: list[Any]  # the journal of every applied action (journal.py)
    _j: Journal  # where changes are journaled: the journal while an action is applied, else nowhere
    _legal_undo: tuple[int, list[Action]] | None

    def _empty_zones(self) -> None:
        self.unordered = [-1, -1]
        self.hand = [[], []]
        self.boneyard = [[], []]
        self.beyond = [[], []]
        self.sideline = [[], []]
        self.side_until = {}
        self.board = [-1] * 25
        self.units = {}
        self.statics = set()
        self.users = set()
        self.item_bearer = {}
        self.gate_static = any(g is not None and g.has_static for g in self.gateway) and self.fmt != TACTICAL
        self.static_live = False
        self.smodded = set()
        self.beyond_score = [0, 0]
        self.bone_score = [0, 0]
        self.turn = 0
        self.active = 0
        self.ap = 0
        self.rp = 0
        self.infl = [0] * 7
        self.tp = [0, 0]
        self.ap_next = [0, 0]
        self.used = set()
        self.revealed = [[], []]
        self.phase = MULLIGAN_PHASE
        self.decider = 0
        self.ending = False
        self.mulled = [False, False]
        self.combat = None
        self.pending = None
        self.discards = []
        self.return_phase = []
        self.winner = -1
        self.condition = ""
        self.history = []
        self._stamp = 0
        self._legal = None
        self._undo = []
        self._j = NO_JOURNAL
        self._legal_undo = None

    # --- reading the data --------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase in (MAIN_PHASE, COMBAT_PHASE):
            return self.active
        if self.phase == OVER_PHASE:
            return -1
        return self.decider

    def _hand_index(self, p: int, d: int) -> int:
        """Where in p's hand the first card of definition d is (-1 if none)."""
        inst = self.inst
        for i, iid in enumerate(self.hand[p]):
            if inst[iid].index == d:
                return i
        return -1

    def _hand_iid(self, p: int, d: int) -> int:
        inst = self.inst
        for iid in self.hand[p]:
            if inst[iid].index == d:
                return iid
        return -1

    def _def(self, d: int) -> Compiled:
        if 0 <= d < len(self.defs):
            return self.defs[d]
        raise IllegalAction("DG-19.1", f"there is no card #{d} in this game")

    def _unit(self, iid: int) -> Unit:
        u = self.units.get(iid)
        if u is None:
            raise IllegalAction("DG-19.1", "there is no such unit on the battlefield")
        return u

    def _expiry(self, duration: str, ctrl: int) -> int:
        """The last turn an effect lasts (DG-18.6)."""
        if duration == "end_of_turn":
            return self.turn
        if duration == "next_turn":
            return self.turn + 2 if ctrl == self.active else self.turn + 1
        return FOREVER

    def _available(self, craft: int) -> int:
        """Points available for a deploy cost of that craft: AP, recycling, influence (DG-7.3, DG-7.4)."""
        infl = sum(self.infl) if craft == UNIVERSAL else self.infl[craft]
        return self.ap + self.rp + infl

    def _card_payable(self, c: Compiled) -> bool:
        """Whether the player on turn can pay a talent's, glyph's or item's card cost: in AP, or for a universal
        card its first AP and the rest in influence of any craft and AP (DG-14.1, DG-15.1, DG-17.4)."""
        cost: int = c.cost
        if cost <= self.ap:
            return True
        return c.craft == UNIVERSAL and self.ap >= 1 and cost <= self.ap + sum(self.infl)

    def _can_act(self, u: Unit) -> bool:
        """Not fresh (DG-5.8), not stunned (effects), not subdued (DG-12.2)."""
        return u.deployed != self.turn and u.stun < self.turn and u.subdued_by < 0

    def bearer_of(self, item: int) -> Unit | None:
        b = self.item_bearer.get(item)
        return None if b is None else self.units[b]

    def _bears_relic_weapon(self, u: Unit) -> bool:
        inst = self.inst
        return any(inst[i].relic_weapon for i in u.items)

    def source_cell(self, src: int) -> int | None:
        """The cell of an ability's source: a unit's own, an attached item's bearer's, else None."""
        u = self.units.get(src)
        if u is not None:
            return u.cell
        b = self.item_bearer.get(src)
        return None if b is None else self.units[b].cell

    def item_for(self, p: int, bearer: int, d: int, idx: int) -> int:
        """The first copy of item d on that bearer (or p's sideline if -1) whose ability idx is unused."""
        pool = self.units[bearer].items if bearer >= 0 else self.sideline[p]
        first = -1
        for iid in pool:
            if self.inst[iid].index == d:
                if (iid, idx) not in self.used:
                    return iid
                if first < 0:
                    first = iid
        return first

    # --- moving cards (each change journaled first) -----------------------------------------

    def _keep(self, *objs: Kept) -> None:
        """Journal whole copies of containers or units about to change in place (the rarer changes)."""
        j = self._j
        for obj in objs:
            j.extend((obj, obj.fields() if type(obj) is Unit else obj.copy(), COPY))

    def _order_deck(self, p: int) -> None:
        """Settle a determinized deck's order before it is read (a draw, a search from the top, a shuffle).
        Not journaled: taking the draw back leaves this order, which is as good a guess as any, and every line
        of a search then draws the same cards."""
        seed = self.unordered[p]
        if seed >= 0:
            self.unordered[p] = -1
            shuffle_as_random(seed, self.deck[p])

    def _draw(self, p: int, n: int) -> None:
        if self.unordered[p] >= 0:
            self._order_deck(p)
        deck, hand = self.deck[p], self.hand[p]
        n = n if n < len(deck) else len(deck)  # DG-6.2
        if n > 0:
            self._j.extend((p, n, DRAWN))
            for _ in range(n):
                hand.append(deck.pop())

    def _from_hand(self, p: int, iid: int) -> None:
        hand = self.hand[p]
        i = hand.index(iid)
        self._j.extend((p, i, iid, HAND_INS))
        del hand[i]

    def _in_play(self, iid: int, c: Compiled) -> None:
        """A card with continuous or usable abilities enters play."""
        if c.has_static and iid not in self.statics:
            self._j.extend(("statics", iid, SET_DISCARD))
            self.statics.add(iid)
        if c.has_use and iid not in self.users:
            self._j.extend(("users", iid, SET_DISCARD))
            self.users.add(iid)

    def _out_of_play(self, iid: int) -> None:
        if iid in self.statics:
            self._j.extend(("statics", iid, SET_ADD))
            self.statics.discard(iid)
        if iid in self.users:
            self._j.extend(("users", iid, SET_ADD))
            self.users.discard(iid)

    def _lift(self, u: Unit) -> None:
        """Take a unit off its cell, freeing a unit it subdued or handing the cell to its subduer.

        Journals the unit's cell, which the caller then changes (or not, when the unit leaves the battlefield).
        """
        j = self._j
        j.extend((u.iid, "cell", u.cell, UATTR))
        if u.subduing >= 0:
            o = self.units[u.subduing]
            j.extend((o.iid, "subdued_by", o.subdued_by, UATTR))
            j.extend((u.iid, "subduing", u.subduing, UATTR))
            o.subdued_by = -1
            u.subduing = -1
        elif u.subdued_by >= 0:
            s = self.units[u.subdued_by]
            j.extend((s.iid, "subduing", s.subduing, UATTR))
            j.extend((u.iid, "subdued_by", u.subdued_by, UATTR))
            s.subduing = -1
            u.subdued_by = -1
            j.extend((u.cell, self.board[u.cell], BOARD))
            self.board[u.cell] = s.iid
        else:
            j.extend((u.cell, self.board[u.cell], BOARD))
            self.board[u.cell] = -1

    def _leave_board(self, u: Unit) -> None:
        """The unit leaves the battlefield (dies, passes the gateway, returns to hand); items go (DG-14.4)."""
        self._lift(u)
        self._keep(self.units)  # a copy: the order of the units is the order of play
        del self.units[u.iid]
        self._out_of_play(u.iid)
        owner_of = self.owner_of
        j = self._j
        if u.items:
            self._keep(self.item_bearer)  # a copy: deleting and adding back a key would change the order
        for item in u.items:
            j.extend((self.boneyard[owner_of[item]], POP))
            self.boneyard[owner_of[item]].append(item)
            self._out_of_play(item)
            del self.item_bearer[item]
        if u.items:
            j.extend((u, "items", u.items, ATTR))
            u.items = []
        if (u.smods or u.skw) and not self.static_live:
            j.extend(("static_live", False, SET))
            self.static_live = True

    def _kill(self, u: Unit) -> None:
        self._leave_board(u)
        j = self._j
        j.extend((u.owner, BONE_POP))
        self.boneyard[u.owner].append(u.iid)
        j.extend((self.bone_score, u.owner, self.bone_score[u.owner], ITEM))
        self.bone_score[u.owner] += u.c.vit  # DG-1.5: printed vitality
