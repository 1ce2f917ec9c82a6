"""The Dreadgate game state: zones, turns, legal actions, apply and undo (rules DG-1 to DG-18).

The API follows python-chess and OpenSpiel: `new_game(...)`, `state.legal_actions()`, `state.apply(action)`,
`state.undo()`, `state.is_over()`, `state.winner`, `state.observation(player)`. Plain ints, lists and slots
objects; a refused action raises IllegalAction naming its rule and leaves the state unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import attrgetter

from core.formats import FORMAT_SLUGS
from core.formats import FORMATS as CORE_FORMATS

from . import rng as _rng
from .actions import (
    ATTACK, DEFEND, DEPLOY, DISCARD, DRAW, END, EQUIP, FLY, GROUND, INSTANT, KEEP, MOVE, MULLIGAN, NO_BEARER, PASS,
    PLAY, RECYCLE, STRIKE, TARGET_DIR, TARGET_UNIT, USE, Action, IllegalAction,
)  # fmt: skip
from .board import _LINES, BACK_RANK, GATE, MASK_DIRS, RAYS, lines, turn_mask
from .cards import (
    KW_AVIATION, KW_EXECUTION, KW_SPECTRAL, KW_SUBDUE, UNIVERSAL, CardDataError, CardDef, Compiled, compile_card,
)  # fmt: skip
from .effects import EffectsMixin
from .journal import (
    ARITY, ATTR, BOARD, BONE_POP, COPY, CPOP, DRAWN, FRAME, HAND_INS, ITEM, MOVED, NO_JOURNAL, POP, RECYCLED, SET,
    SET_ADD, SET_DISCARD, TURN, UATTR, UNIT_DEL,
)  # fmt: skip

ENGINE_VERSION = "1.0.0"

STANDARD, QUICK, TACTICAL = 0, 1, 2
FORMATS = FORMAT_SLUGS  # the engine numbers formats by their place there
assert FORMATS == ("standard", "quick", "tactical")
BEYOND_GOAL = tuple(f.beyond_goal for f in CORE_FORMATS.values())  # DG-1.2, DG-1.3, DG-1.4
BONEYARD_GOAL = tuple(f.boneyard_goal for f in CORE_FORMATS.values())
TURN_LIMIT = 100  # DG-1.8
AP_PER_TURN = 4  # DG-5.1
FIRST_TURN_AP = 3  # DG-5.2
OPENING_HAND = 6  # DG-4.4
FOREVER = 1 << 30

MULLIGAN_PHASE, MAIN_PHASE, COMBAT_PHASE, DEFENSE_PHASE, TARGET_PHASE, DISCARD_PHASE, OVER_PHASE = range(7)
PHASES = ("mulligan", "main", "combat", "defense", "target", "discard", "over")
DRAW_RESULT = 2  # winner value of a drawn game

TACTICAL_TYPES = frozenset({"unit", "item"})


_NO_ARGS = frozenset({END, DRAW, STRIKE, PASS, KEEP, MULLIGAN})
# Statics need no refresh after these (END refreshes itself when a modifier expires).
_NO_UNIT_CHANGE = frozenset({DRAW, RECYCLE, ATTACK, GROUND, FLY, END, KEEP, MULLIGAN})
_ONE_ARG = frozenset({RECYCLE, PLAY, INSTANT, GROUND, FLY, TARGET_UNIT, TARGET_DIR, DISCARD})


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
        self.kw = kw

    def fields(self) -> tuple:
        return _UNIT_FIELDS(self)

    def set_fields(self, values: tuple) -> None:
        for name, value in zip(Unit.__slots__, values, strict=True):
            setattr(self, name, value)

    def copy(self) -> Unit:
        new = Unit.__new__(Unit)
        new.set_fields(_UNIT_FIELDS(self))
        new.items, new.mods, new.kwmods = list(self.items), list(self.mods), list(self.kwmods)
        new.smods, new.skw = list(self.smods), list(self.skw)
        return new

    def snapshot(self) -> list:
        return [
            self.iid, self.owner, self.cell, self.vit, int(self.flying), self.deployed, self.moved, self.attacked,
            self.switched, self.stun, list(self.items), self.subdued_by, self.subduing,
            [list(m) for m in self.mods], [[b, int(g), t] for b, g, t in self.kwmods],
        ]  # fmt: skip


_UNIT_FIELDS = attrgetter(*Unit.__slots__)
_TABLES: dict[tuple, tuple] = {}  # card tables of recent deck pairs, see State._setup



class GameSetupError(ValueError):
    """Deck lists or a format the engine can't set up a game with."""


class State(EffectsMixin):
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
        _, self.defs, self.by_code, self.inst, self.owner_of, self.gateway, decks = table
        self.deck = [list(decks[0]), list(decks[1])]
        for seat in (0, 1):
            self.rs = _rng.shuffle(self.rs, self.deck[seat])  # DG-4.2
        self.hand: list[list[int]] = [[], []]
        self.boneyard: list[list[int]] = [[], []]
        self.beyond: list[list[int]] = [[], []]
        self.sideline: list[list[int]] = [[], []]
        self.side_until: dict[int, int] = {}  # sideline Battlefield Talents -> last turn (DG-15.2)
        self.board = [-1] * 25
        self.units: dict[int, Unit] = {}
        self.statics: set[int] = set()  # instance ids of in-play cards with continuous abilities
        self.users: set[int] = set()  # instance ids of in-play cards with activated or instant abilities
        self.item_bearer: dict[int, int] = {}  # attached item -> bearer unit
        # A gateway's static abilities apply all game (DG-2.7), so they are re-evaluated after every action.
        self.gate_static = any(g is not None and g.has_static for g in self.gateway) and self.fmt != TACTICAL
        self.static_live = False
        self.smodded: set[int] = set()  # units that carry modifiers from static abilities
        self.beyond_score = [0, 0]
        self.bone_score = [0, 0]
        self.turn = 0
        self.active = 0
        self.ap = 0
        self.rp = 0  # recycling points (DG-7.6)
        self.infl = [0] * 7  # influence of the player on turn, per craft (DG-17.2)
        self.tp = [0, 0]  # talent points (DG-15.4)
        self.ap_next = [0, 0]
        self.used: set[tuple[int, int]] = set()  # abilities used this turn (DG-18.2)
        self.revealed: list[list[int]] = [[], []]  # instance ids shown to each player this turn (DG-18.9)
        self.phase = MULLIGAN_PHASE
        self.decider = 0  # who decides in the mulligan, defense, target and discard phases
        self.mulled = [False, False]
        self.combat: list | None = None  # [target iid, [(attacker iid, melee)], {attacker iid: defense}]
        self.pending: list | None = None  # target choice (DG-18.4)
        self.discards: list[list[int]] = []  # [chooser, victim, count] (DG-18.8)
        self.return_phase: list[list[int]] = []  # [phase, decider] to resume after an effect's choices
        self.winner = -1
        self.condition = ""
        self.history: list[Action] = []
        self._stamp = 0  # bumped by every change, so a cached list of legal actions is never stale
        self._legal: tuple[int, list[Action]] | None = None
        self._undo: list[tuple] = []  # the journal of every applied action, see apply
        self._j = NO_JOURNAL  # the journal while an action is applied
        self._legal_undo: tuple[int, list[Action]] | None = None
        for seat in (0, 1):
            self._draw(seat, OPENING_HAND)

    def _card_table(self) -> tuple:
        """(cards, definitions, index by code, instance -> definition, instance -> owner, gateways, decks)."""
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
        return cards, defs, by_code, inst, owner_of, gateway, (tuple(decks[0]), tuple(decks[1]))

    # --- small helpers ---------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase in (MAIN_PHASE, COMBAT_PHASE):
            return self.active
        if self.phase == OVER_PHASE:
            return -1
        return self.decider

    def is_over(self) -> bool:
        return self.phase == OVER_PHASE

    def scores(self) -> dict[str, list[int]]:
        return {"beyond": list(self.beyond_score), "boneyard": list(self.bone_score)}

    def _draw(self, p: int, n: int) -> None:
        deck, hand = self.deck[p], self.hand[p]
        n = n if n < len(deck) else len(deck)  # DG-6.2
        if n > 0:
            self._j.extend((p, n, DRAWN))
            for _ in range(n):
                hand.append(deck.pop())

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

    def _can_act(self, u: Unit) -> bool:
        """Not fresh (DG-5.8), not stunned (effects), not subdued (DG-12.2)."""
        return u.deployed != self.turn and u.stun < self.turn and u.subdued_by < 0

    # --- legal actions ---------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player who decides now, in a fixed order (empty when the game is over)."""
        cached = self._legal
        if cached is not None and cached[0] == self._stamp:
            return list(cached[1])
        out = self._legal_actions()
        self._legal = (self._stamp, out)
        return list(out)

    def _legal_actions(self) -> list[Action]:
        ph = self.phase
        if ph == MAIN_PHASE:
            return self._main_actions()
        if ph == COMBAT_PHASE:
            out = [(STRIKE, 0, 0)]
            if self.ap >= 1:
                target = self.combat[0]
                joined = {a for a, _ in self.combat[1]}
                for u in self.units.values():
                    if u.owner == self.active and u.iid not in joined and u.attacked != self.turn and self._can_act(u):
                        for t, _ in self._attack_targets(u):
                            if t == target:
                                out.append((ATTACK, u.iid, t))
            return out
        if ph == DEFENSE_PHASE:
            out = self._instant_actions(self.decider)
            remaining = self._defense_left()
            if remaining is None:
                out.append((PASS, 0, 0))
            else:
                for a, _ in self.combat[1]:
                    for n in range(1, remaining + 1):
                        out.append((DEFEND, a, n))
            return out
        if ph == TARGET_PHASE:
            slot = self._next_slot()
            if slot[0] == "unit":
                return [(TARGET_UNIT, iid, 0) for iid in slot[1]]
            return [(TARGET_DIR, d, 0) for d in range(8)]
        if ph == DISCARD_PHASE:
            victim = self.discards[0][1]
            seen = sorted({self.inst[iid].index for iid in self.hand[victim]})
            return [(DISCARD, d, 0) for d in seen]
        if ph == MULLIGAN_PHASE:
            return [(KEEP, 0, 0), (MULLIGAN, 0, 0)]
        return []

    def _main_actions(self) -> list[Action]:
        p = self.active
        out: list[Action] = [(END, 0, 0)]
        ap = self.ap
        turn = self.turn
        board = self.board
        inst = self.inst
        # One pass over the hand: distinct definitions, and how many unit or legend cards it holds.
        hand_defs: dict[int, Compiled] = {}  # in hand order, which is deterministic
        board_cards = 0
        for iid in self.hand[p]:
            c = inst[iid]
            if c.board:
                board_cards += 1
            hand_defs[c.index] = c
        if ap >= 1 and self.deck[p]:
            out.append((DRAW, 0, 0))
        tactical = self.fmt == TACTICAL
        empty_back = [c for c in BACK_RANK[p] if board[c] < 0] if ap >= 1 and board_cards else ()
        units = self.units
        my_units = [u for u in units.values() if u.owner == p]
        gate = GATE if self.fmt != TACTICAL else -1
        line_cache = _LINES
        tp = self.tp[p]
        instants = []
        infl = self.infl
        points = ap + self.rp
        any_infl = sum(infl) if empty_back else 0
        for d, c in hand_defs.items():
            if c.board:
                if empty_back and points + (any_infl if c.craft == UNIVERSAL else infl[c.craft]) >= c.vit:
                    for cell in empty_back:
                        out.append((DEPLOY, d, cell))
            elif c.kind == "item":
                if c.cost > ap:
                    pass
                elif c.consumable or c.battlefield_item:
                    if self._playable(p, c, NO_BEARER):
                        out.append((EQUIP, d, NO_BEARER))
                else:
                    for u in my_units:
                        out.append((EQUIP, d, u.iid))
            elif not tactical:  # talent or glyph
                if c.cost <= ap and self._playable(p, c, NO_BEARER):
                    out.append((PLAY, d, 0))
                if c.instant and c.tp_cost <= tp and self._playable(p, c, NO_BEARER):
                    instants.append((INSTANT, d, 0))
            if board_cards - c.board >= 1:  # DG-7.6
                out.append((RECYCLE, d, 0))
        out.extend(instants)
        for u in my_units:
            if u.kw & KW_AVIATION and u.switched != turn and u.stun < turn and u.subdued_by < 0:
                out.append((GROUND if u.flying else FLY, u.iid, 0))
            if u.deployed == turn or u.stun >= turn or u.subdued_by >= 0 or ap < 1:
                continue
            iid = u.iid
            if u.moved != turn:  # DG-8, inlined from _move_targets for speed
                flying = u.flying
                share = u.kw & (KW_SUBDUE | KW_EXECUTION)
                reach = u.fmnv if flying else u.mnv
                if reach > 4:
                    reach = 4  # no line on a 5x5 board is longer
                key = (u.cell << 12) | (u.mdirs << 4) | reach
                for line in line_cache.get(key) or lines(u.cell, u.mdirs, reach):
                    for cell in line:
                        if cell == gate:
                            if flying:
                                continue
                            out.append((MOVE, iid, cell))
                            break
                        occ = board[cell]
                        if occ < 0:
                            out.append((MOVE, iid, cell))
                            continue
                        if share and self._can_share(u, units[occ]):
                            out.append((MOVE, iid, cell))
                        if not flying:
                            break
            if u.attacked != turn:  # DG-10, inlined from _attack_targets
                owner = u.owner
                reach = u.rng if u.rng < 4 else 4
                key = (u.cell << 12) | (u.adirs << 4) | reach
                for line in line_cache.get(key) or lines(u.cell, u.adirs, reach):
                    near = True  # the first cell of a line is melee (DG-10.3)
                    for cell in line:
                        occ = board[cell]
                        if occ >= 0:
                            o = units[occ]
                            if o.owner != owner:
                                if not (near and o.flying):
                                    out.append((ATTACK, iid, occ))
                            elif o.subdued_by >= 0:
                                o = units[o.subdued_by]
                                if not (near and o.flying):
                                    out.append((ATTACK, iid, o.iid))
                        near = False
        if self.users:
            for src, idx, ability in self._sources(p, affordable=True):
                if self._can_use(p, src, idx, ability):
                    out.append((USE, src, idx))
        return out

    def _move_targets(self, u: Unit) -> list[int]:
        """Cells the unit may end a maneuver on (DG-8, DG-9, DG-11, DG-12)."""
        out = []
        board = self.board
        units = self.units
        gate = GATE if self.fmt != TACTICAL else -1
        flying = u.flying
        reach = u.fmnv if flying else u.mnv
        share = u.kw & (KW_SUBDUE | KW_EXECUTION)
        rays = RAYS[u.cell]
        for d in MASK_DIRS[u.mdirs]:
            for cell in rays[d][:reach]:
                if cell == gate:
                    if flying:
                        continue  # DG-8.4: flies over, never ends on it
                    out.append(cell)  # DG-8.5
                    break
                occ = board[cell]
                if occ < 0:
                    out.append(cell)
                    continue
                if share and self._can_share(u, units[occ]):
                    out.append(cell)
                if not flying:
                    break  # DG-8.3
        return out

    def _can_share(self, u: Unit, o: Unit) -> bool:
        """DG-12: a grounded enemy alone on its cell, subdued or executed."""
        if o.owner == u.owner or o.flying or o.subdued_by >= 0 or o.subduing >= 0:
            return False
        if u.kw & KW_SUBDUE:
            return True
        return bool(u.kw & KW_EXECUTION) and o.vit < u.atk and not o.kw & KW_SPECTRAL

    def _attack_targets(self, u: Unit) -> list[tuple[int, bool]]:
        """(target iid, melee) for each enemy the unit may attack (DG-10.1 to DG-10.4)."""
        out = []
        board = self.board
        units = self.units
        owner = u.owner
        rays = RAYS[u.cell]
        reach = u.rng
        for d in MASK_DIRS[u.adirs]:
            dist = 0
            for cell in rays[d][:reach]:
                dist += 1
                occ = board[cell]
                if occ < 0:
                    continue
                o = units[occ]
                if o.owner != owner:
                    if dist > 1 or not o.flying:
                        out.append((occ, dist == 1))
                elif o.subdued_by >= 0:
                    s = units[o.subdued_by]
                    if dist > 1 or not s.flying:
                        out.append((s.iid, dist == 1))
        return out

    def _instant_actions(self, p: int) -> list[Action]:
        """Instant cards and instant abilities payable with talent points (DG-15.3 to DG-15.5)."""
        out: list[Action] = []
        if self.fmt == TACTICAL:
            return out
        tp = self.tp[p]
        seen = set()
        for iid in self.hand[p]:
            c = self.inst[iid]
            if c.instant and c.index not in seen:
                seen.add(c.index)
                if c.tp_cost <= tp and self._playable(p, c, NO_BEARER):
                    out.append((INSTANT, c.index, 0))
        if self.users:
            for src, idx, ability in self._sources(p, affordable=True):
                if ability.get("trigger") == "instant" and self._can_use(p, src, idx, ability):
                    out.append((USE, src, idx))
        return out


    # --- apply -----------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Check and play one action; IllegalAction (with the rule) leaves the state unchanged."""
        cached = self._legal
        if cached is None or cached[0] != self._stamp or action not in cached[1]:
            self._check(action)  # raises with the rule; a listed action is known legal
        # Undo: a frame of the attributes most actions reassign, then an entry for each other change.
        self._j = journal = self._undo
        journal.extend((self.ap, self.rp, self.phase, self.decider, FRAME))
        self._legal_undo = self._legal  # for the last action only: the journal holds no lists, which keeps it cheap
        try:
            self._stamp += 1
            self._do(action)
            self.history.append(action)
            if (self.static_live or self.statics or self.gate_static) and action[0] not in _NO_UNIT_CHANGE:
                self.refresh_statics()
            if self.phase != OVER_PHASE:
                self._check_win()
        finally:
            self._j = NO_JOURNAL

    def _check(self, action: Action) -> None:
        if not isinstance(action, tuple) or len(action) != 3 or not all(type(x) is int for x in action):
            raise IllegalAction("DG-19.1", f"{action!r} is not an action")
        kind, a, b = action
        if (kind in _NO_ARGS and (a or b)) or (kind in _ONE_ARG and b) or not 0 <= kind < 20:
            raise IllegalAction("DG-19.1", f"{action!r} is not an action")
        ph = self.phase
        if ph == OVER_PHASE:
            raise IllegalAction("DG-1.7", "the game is over")
        if ph == MULLIGAN_PHASE:
            if kind not in (KEEP, MULLIGAN):
                raise IllegalAction("DG-4.5", "before the first turn each player keeps or takes a mulligan")
            return
        if ph == TARGET_PHASE:
            self._check_target(kind, a)
            return
        if ph == DISCARD_PHASE:
            if kind != DISCARD:
                raise IllegalAction("DG-18.8", "a discard must be chosen first")
            if self._hand_iid(self.discards[0][1], a) < 0:
                raise IllegalAction("DG-18.8", "that card is not in the discarding player's hand")
            return
        if ph == DEFENSE_PHASE:
            self._check_defense(kind, a, b)
            return
        if ph == COMBAT_PHASE:
            if kind == STRIKE:
                return
            if kind != ATTACK:
                raise IllegalAction("DG-10.5", "declare another attacker on the same target, or strike")
            if b != self.combat[0]:
                raise IllegalAction("DG-10.5", "all attackers of one attack have the same target")
            self._check_attack(a, b)
            return
        # main phase
        p = self.active
        if kind == END:
            return
        if kind == DRAW:
            if self.ap < 1:
                raise IllegalAction("DG-6.1", "drawing costs 1 AP")
            if not self.deck[p]:
                raise IllegalAction("DG-6.2", "the deck is empty")
            return
        if kind == DEPLOY:
            c = self._def(a)
            if c.kind not in ("unit", "legend"):
                raise IllegalAction("DG-7.1", f"{c.code} is not a unit or legend")
            if self._hand_iid(p, a) < 0:
                raise IllegalAction("DG-7.1", f"{c.code} is not in your hand")
            if b not in BACK_RANK[p]:
                raise IllegalAction("DG-2.4", "units are deployed on your back rank")
            if self.board[b] >= 0:
                raise IllegalAction("DG-7.1", "the deploy cell is occupied")
            if self.ap < 1:
                raise IllegalAction("DG-7.3", "deploying spends at least 1 AP")
            if self._available(c.craft) < c.vit:
                raise IllegalAction("DG-7.3", f"{c.code} costs {c.vit}; you have {self._available(c.craft)} points")
            return
        if kind == RECYCLE:
            c = self._def(a)
            if self._hand_iid(p, a) < 0:
                raise IllegalAction("DG-7.6", f"{c.code} is not in your hand")
            others = [iid for iid in self.hand[p] if self.inst[iid].kind in ("unit", "legend")]
            if c.kind in ("unit", "legend"):
                others.remove(self._hand_iid(p, a))
            if not others:
                raise IllegalAction("DG-7.6", "recycling is allowed only while you hold another unit or legend")
            return
        if kind == MOVE:
            u = self._own_actor(a, "DG-8.1")
            if u.moved == self.turn:
                raise IllegalAction("DG-5.7", "this unit has already maneuvered this turn")
            if self.ap < 1:
                raise IllegalAction("DG-8.1", "a maneuver costs 1 AP")
            if b not in self._move_targets(u):
                raise IllegalAction(self._why_no_move(u, b), "the unit can't maneuver to that cell")
            return
        if kind == ATTACK:
            self._check_attack(a, b)
            return
        if kind in (GROUND, FLY):
            u = self._unit(a)
            if u.owner != p:
                raise IllegalAction("DG-11.2", "that is not your unit")
            if not u.kw & KW_AVIATION:
                raise IllegalAction("DG-11.2", "only aviation units fly")
            if u.flying != (kind == GROUND):
                raise IllegalAction("DG-11.2", "the unit is already " + ("grounded" if kind == GROUND else "flying"))
            if u.switched == self.turn:
                raise IllegalAction("DG-11.2", "an aviation unit switches at most once per turn")
            if u.stun >= self.turn or u.subdued_by >= 0:
                raise IllegalAction("DG-11.2", "a stunned or subdued unit can't switch")
            return
        if kind == EQUIP:
            c = self._def(a)
            if c.kind != "item":
                raise IllegalAction("DG-14.1", f"{c.code} is not an item")
            if self._hand_iid(p, a) < 0:
                raise IllegalAction("DG-14.1", f"{c.code} is not in your hand")
            if c.cost > self.ap:
                raise IllegalAction("DG-14.1", f"{c.code} costs {c.cost} AP")
            if c.consumable or c.battlefield_item:
                if b != NO_BEARER:
                    raise IllegalAction("DG-14.2" if c.battlefield_item else "DG-14.3", f"{c.code} has no bearer")
                if not self._playable(p, c, NO_BEARER):
                    raise IllegalAction("DG-18.5", f"{c.code} has no legal target")
                return
            u = self.units.get(b)
            if u is None or u.owner != p:
                raise IllegalAction("DG-14.1", "an item is attached to one of your units on the battlefield")
            return
        if kind == PLAY:
            c = self._def(a)
            if c.kind not in ("talent", "glyph"):
                raise IllegalAction("DG-15.1", f"{c.code} is not a talent or glyph")
            if self.fmt == TACTICAL:
                raise IllegalAction("DG-1.4", "talents and glyphs are not played in Tactical")
            if self._hand_iid(p, a) < 0:
                raise IllegalAction("DG-15.1", f"{c.code} is not in your hand")
            if c.cost > self.ap:
                raise IllegalAction("DG-15.1", f"{c.code} costs {c.cost} AP")
            if not self._playable(p, c, NO_BEARER):
                raise IllegalAction("DG-18.5", f"{c.code} has no legal target")
            return
        if kind in (INSTANT, USE):
            self._check_instant_or_use(p, kind, a, b)
            return
        raise IllegalAction("DG-5.4", "that is not an action of a player's turn")

    def _own_actor(self, iid: int, rule: str) -> Unit:
        u = self._unit(iid)
        if u.owner != self.active:
            raise IllegalAction(rule, "that is not your unit")
        if u.deployed == self.turn:
            raise IllegalAction("DG-5.8", "a unit can't maneuver or attack in the turn it was deployed")
        if u.subdued_by >= 0:
            raise IllegalAction("DG-12.2", "a subdued unit can't maneuver or attack")
        if u.stun >= self.turn:
            raise IllegalAction("DG-18.3", "a stunned unit can't maneuver or attack")
        return u

    def _why_no_move(self, u: Unit, cell: int) -> str:
        """The rule a refused maneuver breaks, for the message."""
        if not 0 <= cell < 25:
            return "DG-2.1"
        gate = GATE if self.fmt != TACTICAL else -1
        reach = u.fmnv if u.flying else u.mnv
        for d in MASK_DIRS[u.mdirs]:
            ray = RAYS[u.cell][d]
            if cell not in ray:
                continue
            path = ray[: ray.index(cell)]
            if ray.index(cell) >= reach:
                return "DG-8.2"
            if not u.flying and gate in path:
                return "DG-8.5"
            if not u.flying and any(self.board[c] >= 0 for c in path):
                return "DG-8.3"
            if cell == gate:
                return "DG-9.2"
            if self.board[cell] >= 0:
                return "DG-12.1" if u.kw & (KW_SUBDUE | KW_EXECUTION) else "DG-8.3"
        return "DG-8.2"

    def _check_attack(self, a: int, b: int) -> None:
        u = self._own_actor(a, "DG-10.1")
        if u.attacked == self.turn:
            raise IllegalAction("DG-5.7", "this unit has already attacked this turn")
        if self.ap < 1:
            raise IllegalAction("DG-10.1", "an attack costs 1 AP")
        if all(t != b for t, _ in self._attack_targets(u)):
            o = self.units.get(b)
            if o is not None and o.owner != u.owner and o.flying and max(
                abs(o.cell % 5 - u.cell % 5), abs(o.cell // 5 - u.cell // 5)
            ) == 1:
                raise IllegalAction("DG-10.4", "only ranged attacks can target a flying unit")
            raise IllegalAction("DG-10.1", "the target is not an enemy in the unit's attack directions and range")

    def _check_defense(self, kind: int, a: int, b: int) -> None:
        if kind in (INSTANT, USE):
            self._check_instant_or_use(self.decider, kind, a, b)
            return
        remaining = self._defense_left()
        if kind == PASS:
            if remaining is not None:
                raise IllegalAction("DG-10.8", "the defender must distribute all of the defense first")
            return
        if kind == DEFEND:
            if remaining is None:
                raise IllegalAction("DG-10.8", "with one attacker the defense is not distributed")
            if a not in {x for x, _ in self.combat[1]}:
                raise IllegalAction("DG-10.8", "defense goes to one of the attackers")
            if not 1 <= b <= remaining:
                raise IllegalAction("DG-10.8", f"{remaining} defense points are left to distribute")
            return
        raise IllegalAction("DG-10.8", "the defender distributes defense, plays instants or passes")

    def _defense_left(self) -> int | None:
        """Defense points still to distribute, or None when there is nothing to distribute (DG-10.8)."""
        target = self.units.get(self.combat[0])
        if target is None or len(self.combat[1]) < 2:
            return None
        left = target.dfn - sum(self.combat[2].values())
        return left if left > 0 else None

    def _check_instant_or_use(self, p: int, kind: int, a: int, b: int) -> None:
        if self.fmt == TACTICAL and kind == INSTANT:
            raise IllegalAction("DG-1.4", "talents and glyphs are not played in Tactical")
        if kind == INSTANT:
            c = self._def(a)
            if not c.instant:
                raise IllegalAction("DG-15.3", f"{c.code} is not an instant")
            if self._hand_iid(p, a) < 0:
                raise IllegalAction("DG-15.3", f"{c.code} is not in your hand")
            if c.tp_cost > self.tp[p]:
                raise IllegalAction("DG-15.4", f"{c.code} costs {c.tp_cost} talent points; you have {self.tp[p]}")
            if not self._playable(p, c, NO_BEARER):
                raise IllegalAction("DG-18.5", f"{c.code} has no legal target")
            return
        for src, idx, ability in self._sources(p):
            if src == a and idx == b:
                trig = ability.get("trigger")
                if trig == "activated" and self.phase != MAIN_PHASE:
                    raise IllegalAction("DG-18.2", "activated abilities are used on your own turn")
                if not self._can_use(p, src, idx, ability, explain=True):
                    raise IllegalAction("DG-18.2", "that ability can't be used now")
                return
        raise IllegalAction("DG-18.2", "you control no such ability")

    def _check_target(self, kind: int, a: int) -> None:
        slot = self._next_slot()
        if slot[0] == "unit":
            if kind != TARGET_UNIT or a not in slot[1]:
                raise IllegalAction("DG-18.4", "choose one of the legal targets")
        elif kind != TARGET_DIR or not 0 <= a < 8:
            raise IllegalAction("DG-18.4", "choose a direction")

    def _do(self, action: Action) -> None:
        kind, a, b = action
        p = self.active
        if kind == MOVE:
            u = self.units[a]
            self.ap -= 1
            board = self.board
            if board[b] < 0 and u.subduing < 0 and u.subdued_by < 0 and (b != GATE or self.fmt == TACTICAL):
                self._j.extend((a, u.cell, u.moved, MOVED))  # the common case, in one entry
                board[u.cell] = -1
                board[b] = a
                u.cell = b
                u.moved = self.turn
            else:
                self._j.extend((a, "moved", u.moved, UATTR))
                u.moved = self.turn
                self._maneuver(u, b)
        elif kind == ATTACK:
            u = self.units[a]
            self._j.extend((a, "attacked", u.attacked, UATTR))
            self.ap -= 1
            u.attacked = self.turn
            melee = max(abs(self.units[b].cell % 5 - u.cell % 5), abs(self.units[b].cell // 5 - u.cell // 5)) == 1
            if self.phase == COMBAT_PHASE:
                self._j.append(CPOP)
                self.combat[1].append((a, melee))
            else:
                self._j.extend(("combat", self.combat, SET))
                self.combat = [b, [(a, melee)], {}]
                self.phase = COMBAT_PHASE
        elif kind == END:
            self._end_turn()
        elif kind == DRAW:
            self.ap -= 1
            self._draw(p, 1)
        elif kind == DEPLOY:
            self._deploy(p, a, b)
        elif kind == STRIKE:
            self._strike()
        elif kind == DEFEND:
            self._keep(self.combat[2])
            self.combat[2][a] = self.combat[2].get(a, 0) + b
            if self._defense_left() is None:
                self._resolve_combat()
        elif kind == PASS:
            self._resolve_combat()
        elif kind == RECYCLE:
            hand = self.hand[p]
            i = self._hand_index(p, a)
            self._j.extend((p, i, hand[i], RECYCLED))
            self.boneyard[p].append(hand.pop(i))
            self.rp += 1
        elif kind == GROUND or kind == FLY:
            u = self.units[a]
            self._j.extend((a, "flying", u.flying, UATTR))
            self._j.extend((a, "switched", u.switched, UATTR))
            u.flying = kind == FLY
            u.switched = self.turn
        elif kind == EQUIP:
            self._equip(p, a, b)
        elif kind == PLAY or kind == INSTANT:
            self._play_card(self.current_player, a, kind == INSTANT)
        elif kind == USE:
            self._use(self.current_player, a, b)
        elif kind == TARGET_UNIT or kind == TARGET_DIR:
            self._j.extend((self.pending[4], POP))
            self.pending[4].append(a)
            if self._next_slot() is None:
                self._finish_pending()
        elif kind == DISCARD:
            chooser, victim, count = self.discards[0]
            iid = self._hand_iid(victim, a)
            self._keep(self.discards, self.discards[0])
            self._from_hand(victim, iid)
            self._j.extend((victim, BONE_POP))
            self.boneyard[victim].append(iid)
            if count > 1:
                self.discards[0][2] -= 1
            else:
                self.discards.pop(0)
                self._after_discards()
        elif kind == KEEP or kind == MULLIGAN:
            self._mulligan(kind == MULLIGAN)

    # --- turn structure (DG-4.5, DG-5) -----------------------------------------------------

    def _mulligan(self, take: bool) -> None:
        p = self.decider
        self._keep(self.mulled)
        if take:
            self._keep(self.deck[p], self.hand[p])
            self.deck[p].extend(self.hand[p])
            self.hand[p].clear()
            self._j.extend(("rs", self.rs, SET))
            self.rs = _rng.shuffle(self.rs, self.deck[p])
            self._draw(p, OPENING_HAND)
        self.mulled[p] = True
        if p == 0:
            self.decider = 1
        else:
            self._start_turn(0)

    def _start_turn(self, p: int) -> None:
        # infl and used are replaced below, never changed again: the entry may keep them as they are
        self._j.extend((p, self.turn, self.active, self.infl, self.used, self.ap_next[p], self.tp[p], TURN))
        self.turn += 1
        self.active = p
        self.phase = MAIN_PHASE
        allowance = (FIRST_TURN_AP if self.turn == 1 else AP_PER_TURN) + self.ap_next[p]
        self.ap_next[p] = 0
        self.ap = allowance if allowance > 0 else 0
        self.rp = 0
        infl = [0] * 7
        tp = 0
        for u in self.units.values():
            if u.owner == p and u.subdued_by < 0:
                tp += 1
                if u.c.kind == "legend":
                    infl[u.c.craft] += u.c.influence
        self.infl = infl
        self.tp[p] = tp
        self.used = set()

    def _end_turn(self) -> None:
        t = self.turn
        expired = False
        for u in self.units.values():
            if u.mods or u.kwmods:
                mods = [m for m in u.mods if m[2] > t]
                kwmods = [m for m in u.kwmods if m[2] > t]
                if (len(mods), len(kwmods)) != (len(u.mods), len(u.kwmods)):
                    self._keep(u)
                    u.mods, u.kwmods = mods, kwmods
                    u.recalc()
                    expired = True
        if expired and (self.static_live or self.statics or self.gate_static):
            self.refresh_statics()  # a keyword that lapsed may change who an aura reaches
        if self.side_until:
            for iid, last in list(self.side_until.items()):
                if last <= t:
                    owner = self.owner_of[iid]
                    self._keep(self.sideline[owner], self.boneyard[owner], self.side_until)
                    self.sideline[owner].remove(iid)
                    self.boneyard[owner].append(iid)
                    del self.side_until[iid]
        self._j.extend(("revealed", self.revealed, SET))  # replaced below, never changed again
        self.revealed = [[], []]
        if t >= TURN_LIMIT:
            self._finish(DRAW_RESULT, "turn limit")
            return
        self._start_turn(1 - self.active)

    def _check_win(self) -> None:
        """DG-1.2 to DG-1.7: after every action."""
        f = self.fmt
        bone_goal = BONEYARD_GOAL[f]
        beyond_goal = BEYOND_GOAL[f] or FOREVER
        bone, beyond = self.bone_score, self.beyond_score
        if bone[0] < bone_goal and bone[1] < bone_goal and beyond[0] < beyond_goal and beyond[1] < beyond_goal:
            return
        won = [False, False]
        why = ["", ""]
        for p in (0, 1):
            if self.beyond_score[p] >= beyond_goal:
                won[p], why[p] = True, "beyond"
            if self.bone_score[1 - p] >= bone_goal:
                won[p], why[p] = True, why[p] or "boneyard"
        if won[0] and won[1]:
            self._finish(DRAW_RESULT, "simultaneous")
        elif won[0] or won[1]:
            w = 0 if won[0] else 1
            self._finish(w, why[w])

    def _finish(self, winner: int, condition: str) -> None:
        for name in ("winner", "condition", "combat", "pending", "discards"):
            self._j.extend((name, getattr(self, name), SET))
        self.winner = winner
        self.condition = condition
        self.phase = OVER_PHASE
        self.combat = None
        self.pending = None
        self.discards = []

    # --- deploying, maneuvering, gateway (DG-7, DG-8, DG-9, DG-12) ------------------------

    def _deploy(self, p: int, d: int, cell: int) -> None:
        c = self.defs[d]
        iid = self._hand_iid(p, d)
        self._from_hand(p, iid)
        need = c.vit - 1
        self.ap -= 1  # DG-7.3: at least 1 AP
        infl = self.infl
        if need > 0 and any(infl):
            self._j.extend(("infl", list(infl), SET))
        crafts = range(7) if c.craft == UNIVERSAL else (c.craft,)
        for k in crafts:
            if need <= 0:
                break
            take = infl[k] if infl[k] < need else need
            infl[k] -= take
            need -= take
        if need > 0:
            take = self.rp if self.rp < need else need
            self.rp -= take
            need -= take
        if need > 0:
            self.ap -= need
        u = Unit(iid, p, c, cell, self.turn)
        self.units[iid] = u  # the newest key: undo deletes it, and the order of play is kept
        self._j.extend((iid, UNIT_DEL))
        self._j.extend((cell, self.board[cell], BOARD))
        self.board[cell] = iid
        self._in_play(iid, c)
        if c.abilities and self.fmt != TACTICAL:
            deploy = tuple(i for i, ab in enumerate(c.abilities) if ab.get("trigger") == "deploy")
            if deploy:
                self._start_effect(p, iid, c, deploy, spell=False)

    def _maneuver(self, u: Unit, cell: int) -> None:
        board = self.board
        if cell == GATE and self.fmt != TACTICAL:
            self._leave_board(u)
            j = self._j
            j.extend((self.beyond[u.owner], POP))
            self.beyond[u.owner].append(u.iid)
            j.extend((self.beyond_score, u.owner, self.beyond_score[u.owner], ITEM))
            self.beyond_score[u.owner] += u.vit  # DG-9.1
            return
        self._lift(u)  # journals the unit and its cell
        occ = board[cell]
        if occ < 0:
            self._j.extend((cell, occ, BOARD))
            board[cell] = u.iid
            u.cell = cell
            return
        o = self.units[occ]
        if u.kw & KW_SUBDUE:  # DG-12.2
            self._j.extend((u.iid, "subduing", u.subduing, UATTR))
            self._j.extend((o.iid, "subdued_by", o.subdued_by, UATTR))
            u.cell = cell
            u.subduing = o.iid
            o.subdued_by = u.iid
        else:  # DG-12.4 execution
            self._kill(o)
            self._j.extend((cell, board[cell], BOARD))
            board[cell] = u.iid
            u.cell = cell

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

    # --- combat (DG-10, DG-13) -------------------------------------------------------------

    def _strike(self) -> None:
        target = self.units.get(self.combat[0])
        defender = self.owner_of[self.combat[0]]
        needs = target is not None and len(self.combat[1]) > 1 and target.dfn > 0
        self.phase = DEFENSE_PHASE  # DG-15.5: the defence step, offered only when there is a decision
        self.decider = defender
        if not (needs or (target is not None and self._instant_actions(defender))):
            self._resolve_combat()

    def _resolve_combat(self) -> None:
        tid, attackers, alloc = self.combat
        self._j.extend(("combat", self.combat, SET))
        self.combat = None
        self.phase = MAIN_PHASE
        target = self.units.get(tid)
        if target is None:
            return
        units = self.units
        live = [(units[a], melee) for a, melee in attackers if a in units]
        if not live:
            return
        if len(live) == 1 and len(attackers) == 1:
            alloc = {live[0][0].iid: target.dfn}
        total = sum(u.atk for u, _ in live)
        relic_attack = any(self._bears_relic_weapon(u) for u, _ in live)
        relic_defense = self._bears_relic_weapon(target)
        dmg = total - target.dfn
        hurt: list[Unit] = []
        if dmg > 0:
            self._combat_damage(target, dmg, relic_attack)
            hurt.append(target)
        for u, melee in live:
            if melee:  # DG-10.7
                back = alloc.get(u.iid, 0) - u.atk
                if back > 0:
                    self._combat_damage(u, back, relic_defense)
                    hurt.append(u)
        for u in hurt:  # DG-10.9: all damage first, then deaths
            if u.vit <= 0 and u.iid in units:
                self._kill(u)

    def _combat_damage(self, u: Unit, amount: int, relic: bool) -> None:
        self._j.extend((u.iid, "vit", u.vit, UATTR))
        if u.kw & KW_SPECTRAL and not relic:  # DG-13.1
            u.vit = max(u.vit - amount, 1) if u.vit > 1 else u.vit
        else:
            u.vit -= amount

    def _bears_relic_weapon(self, u: Unit) -> bool:
        inst = self.inst
        return any(inst[i].relic_weapon for i in u.items)

    # --- items ---------------------------------------------------------------------------

    def _equip(self, p: int, d: int, bearer: int) -> None:
        c = self.defs[d]
        iid = self._hand_iid(p, d)
        self._from_hand(p, iid)
        self.ap -= c.cost
        j = self._j
        if c.consumable:  # DG-14.3
            j.extend((p, BONE_POP))
            self.boneyard[p].append(iid)
            idxs = tuple(i for i, ab in enumerate(c.abilities) if ab.get("trigger") == "consumable")
            if idxs:
                self._start_effect(p, iid, c, idxs, spell=False)
            return
        if c.battlefield_item:  # DG-14.2
            j.extend((self.sideline[p], POP))
            self.sideline[p].append(iid)
        else:
            b = self.units[bearer]
            j.extend((b, "items", b.items, ATTR))
            b.items = [*b.items, iid]
            self._keep(self.item_bearer)
            self.item_bearer[iid] = bearer
        self._in_play(iid, c)

    def bearer_of(self, item: int) -> Unit | None:
        b = self.item_bearer.get(item)
        return None if b is None else self.units[b]

    # --- talents and glyphs (DG-15, DG-16) -------------------------------------------------

    def _play_card(self, p: int, d: int, by_talent_points: bool) -> None:
        c = self.defs[d]
        iid = self._hand_iid(p, d)
        self._from_hand(p, iid)
        self._keep(self.tp, self.sideline[p], self.side_until, self.boneyard[p])
        if by_talent_points:
            self.tp[p] -= c.tp_cost
        else:
            self.ap -= c.cost
        if c.subtype == "battlefield talent" and c.lasting in ("next_turn", "permanent"):
            self.sideline[p].append(iid)
            self.side_until[iid] = self._expiry(c.lasting, p)
        else:
            self.boneyard[p].append(iid)
        idxs = tuple(i for i, ab in enumerate(c.abilities) if ab.get("trigger") in ("play", "instant"))
        if idxs:
            self._start_effect(p, iid, c, idxs, spell=True)

    # --- records, observations ------------------------------------------------------------

    def observation(self, player: int) -> dict:
        from .record import observation

        return observation(self, player)

    def log(self) -> list[str]:
        from .record import game_log

        return game_log(self)

    def to_snapshot(self) -> dict:
        from .record import to_snapshot

        return to_snapshot(self)

    def to_record(self) -> dict:
        from .record import to_record

        return to_record(self)

    def notation(self, action: Action) -> str:
        from .notation import format_action

        return format_action(self, action)

    def parse(self, text: str) -> Action:
        from .notation import parse_action

        return parse_action(self, text)

    # --- undo, copies ----------------------------------------------------------------------

    def _keep(self, *objs: object) -> None:
        """Journal whole copies of containers or units about to change in place (the rarer changes)."""
        j = self._j
        for obj in objs:
            j.extend((obj, obj.fields() if type(obj) is Unit else obj.copy(), COPY))  # type: ignore

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
            if tag == UATTR:
                setattr(units[e[0]], e[1], e[2])
            elif tag == BOARD:
                self.board[e[0]] = e[1]
            elif tag == HAND_INS:
                self.hand[e[0]].insert(e[1], e[2])
            elif tag == BONE_POP:
                self.boneyard[e[0]].pop()
            elif tag == CPOP:
                self.combat[1].pop()
            elif tag == TURN:
                p, self.turn, self.active, self.infl, self.used, self.ap_next[p], self.tp[p] = e
            elif tag == UNIT_DEL:
                del units[e[0]]
            elif tag == SET_ADD:
                getattr(self, e[0]).add(e[1])
            elif tag == SET_DISCARD:
                getattr(self, e[0]).discard(e[1])
            elif tag == MOVED:
                u = units[e[0]]
                self.board[u.cell] = -1
                self.board[e[1]] = e[0]
                u.cell, u.moved = e[1], e[2]
            elif tag == RECYCLED:
                self.hand[e[0]].insert(e[1], e[2])
                self.boneyard[e[0]].pop()
            elif tag == ITEM:
                e[0][e[1]] = e[2]
            elif tag == POP:
                e[0].pop()
            elif tag == COPY:
                obj, saved = e[0], e[1]
                if type(obj) is list:
                    obj[:] = saved
                elif type(obj) is Unit:
                    obj.set_fields(saved)
                else:  # a dict or a set
                    obj.clear()
                    obj.update(saved)
            elif tag == ATTR:
                setattr(e[0], e[1], e[2])
            elif tag == SET:
                setattr(self, e[0], e[1])
            elif tag == DRAWN:
                deck, hand = self.deck[e[0]], self.hand[e[0]]
                for _ in range(e[1]):
                    deck.append(hand.pop())
            else:  # FRAME: the action's first entry
                self.ap, self.rp, self.phase, self.decider = e
                legal = self._legal_undo  # the cache of the position before the action, if it was fresh then
                fresh = legal is not None and legal[0] == self._stamp - 1
                self._stamp += 1  # stamps only grow: no cached list of another branch is ever taken for this one
                self._legal = (self._stamp, legal[1]) if fresh else None  # type: ignore[index]
                self._legal_undo = None
                return self.history.pop()

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with what `seat` knows, its hidden cards drawn again (for a policy's search).

        Kept: everything public and the seat's own hand, and the opponent's cards this seat was shown this turn
        (DG-18.9). Drawn again from the cards they could be: the rest of the opponent's hand (from the
        opponent's hand and deck together) and the order of both decks; the random source is fresh. The result
        depends only on what the seat may see and on `rng`, never on the true hidden cards. Its undo starts here.
        """
        other = 1 - seat
        new = self.copy()
        shown = set(self.revealed[seat])
        if self.phase == DISCARD_PHASE and self.decider == seat and self.discards[0][1] == other:
            shown.update(self.hand[other])  # the chooser of a discard sees the hand it chooses from
        hand = self.hand[other]
        hidden = [iid for iid in hand if iid not in shown]
        pool = sorted(hidden + self.deck[other])  # sorted: the true order must not leak into the draw
        rng.shuffle(pool)
        fresh = iter(pool[: len(hidden)])
        new.hand[other] = [iid if iid in shown else next(fresh) for iid in hand]
        new.deck[other] = pool[len(hidden) :]
        own = sorted(self.deck[seat])
        rng.shuffle(own)
        new.deck[seat] = own
        new.rs = rng.getrandbits(64)
        new._stamp += 1  # the cached legal actions may name hand cards that moved
        new._legal = None
        return new

    def copy(self) -> State:
        """An independent state equal to this one: nothing mutable is shared (the card tables are read-only).

        The copy starts a journal of its own: undo() takes back the actions applied to it, not those before.
        """
        new = State.__new__(State)
        d = new.__dict__
        d.update(self.__dict__)
        for name in ("deck", "hand", "boneyard", "beyond", "sideline", "revealed", "discards", "return_phase"):
            d[name] = [list(x) for x in d[name]]
        for name in ("board", "beyond_score", "bone_score", "infl", "tp", "ap_next", "mulled", "history"):
            d[name] = list(d[name])
        for name in ("side_until", "statics", "users", "item_bearer", "smodded", "used"):
            d[name] = d[name].copy()
        new.units = {iid: u.copy() for iid, u in self.units.items()}
        if self.combat is not None:
            new.combat = [self.combat[0], list(self.combat[1]), dict(self.combat[2])]
        if self.pending is not None:
            pend = self.pending
            new.pending = [pend[0], pend[1], pend[2], list(pend[3]), list(pend[4]), pend[5]]
        new._undo = []
        new._j = NO_JOURNAL
        new._legal_undo = None
        return new

    def replay(self, actions: Sequence[Action]) -> State:
        """A new state: this game's decks and seed with the given actions applied."""
        fresh = State.__new__(State)
        fresh.fmt = self.fmt
        fresh.seed = self.seed
        fresh.deck_lists = self.deck_lists
        fresh._setup()
        for action in actions:
            fresh.apply(tuple(action))
        return fresh

