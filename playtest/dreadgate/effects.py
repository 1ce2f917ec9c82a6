"""Executing the effect vocabulary of docs/effects.md (DG-18): targets, choices, primitives, statics.

A mixin of State: it reads and writes the state's zones directly. Every primitive of the vocabulary is
implemented here; an op, selector, filter or trigger the engine does not know raises UnknownEffect, so a
card can never be silently ignored (tests walk the whole catalog through `check_ability`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.effects import CARD_FILTER_KEYS, CONTINUOUS_OPS, DURATIONS, MOVE_DIRECTIONS, OPS, SELECTS, TRIGGERS

from . import rng as _rng
from .board import GATE, SIZE, VECTORS, direction_between, turn_dir
from .cards import CRAFT_INDEX, KEYWORD_BITS, KW_AVIATION, KW_SPECTRAL, Compiled, chosen_of
from .journal import BOARD, POP, SET

if TYPE_CHECKING:
    from .state import Unit

STAT_INDEX = {"attack": 0, "defense": 1, "range": 2, "maneuver": 3}
# The vocabulary itself is defined once, in core.effects; the engine sorts the ops by what they act on.
UNIT_OPS = frozenset(op for op, spec in OPS.items() if "target" in spec)
PLAYER_OPS = frozenset(op for op, spec in OPS.items() if "player" in spec)
CARD_FILTERS = frozenset(CARD_FILTER_KEYS)


class UnknownEffect(ValueError):
    """An ability uses something the engine cannot execute."""


def steps_of(effect: dict[str, Any]) -> list[dict[str, Any]]:
    return list(effect["steps"]) if effect.get("op") == "sequence" else [effect]


_WITHIN, _CRAFT, _TYPE, _KEYWORD, _WITHOUT, _MAX_VIT, _MIN_VIT, _BEARS = range(8)
_SIDES = {"any": 0, "friendly": 1, "enemy": 2}
_TARGETS: dict[int, tuple[dict, tuple[int, tuple]]] = {}
_CACHE_LIMIT = 20_000


def _compiled_target(target: dict) -> tuple[int, tuple]:
    """(side code, filter tests as (code, value) pairs) for a target spec, cached per spec dict."""
    hit = _TARGETS.get(id(target))
    if hit is None or hit[0] is not target:
        if len(_TARGETS) > _CACHE_LIMIT:  # every deck snapshot brings new dicts: keep the cache bounded
            _TARGETS.clear()
        try:
            hit = _TARGETS[id(target)] = (target, _compile_target(target))
        except (KeyError, TypeError) as exc:
            raise UnknownEffect(f"target {target!r}: {exc}") from exc
    return hit[1]


def _compile_target(target: dict) -> tuple[int, tuple]:
    """The side code and the filter as (test code, value) pairs, so the hot loop compares ints."""
    tests = []
    for key, value in (target.get("filter") or {}).items():
        if key == "within":
            tests.append((_WITHIN, value))
        elif key == "craft":
            tests.append((_CRAFT, frozenset(CRAFT_INDEX[c] for c in value)))
        elif key == "type":
            tests.append((_TYPE, frozenset(value)))
        elif key == "keyword":
            tests.append((_KEYWORD, KEYWORD_BITS[value]))
        elif key == "without_keyword":
            tests.append((_WITHOUT, KEYWORD_BITS[value]))
        elif key == "max_vitality":
            tests.append((_MAX_VIT, value))
        elif key == "min_vitality":
            tests.append((_MIN_VIT, value))
        elif key == "bears":
            tests.append((_BEARS, value))
        else:
            raise UnknownEffect(f"unit filter {key!r}")
    side = _SIDES.get(target.get("side", "any"))
    if side is None:
        raise UnknownEffect(f"side {target.get('side')!r}")
    return side, tuple(tests)


_CHOSEN: dict[int, tuple[dict, tuple[dict, ...]]] = {}


def chosen_targets(ability: dict[str, Any]) -> tuple[dict, ...]:
    """The `chosen` target specs of an ability, in order (cached per ability dict, which is never changed)."""
    hit = _CHOSEN.get(id(ability))
    if hit is None or hit[0] is not ability:
        if len(_CHOSEN) > _CACHE_LIMIT:
            _CHOSEN.clear()
        hit = _CHOSEN[id(ability)] = (ability, chosen_of(ability))
    return hit[1]


def check_ability(ability: dict[str, Any]) -> None:
    """Raise UnknownEffect unless the engine executes every part of this ability."""
    trig = ability.get("trigger")
    if trig not in TRIGGERS:
        raise UnknownEffect(f"trigger {trig!r}")
    if not isinstance(ability.get("cost", 0), int):
        raise UnknownEffect("cost must be an integer")
    effect = ability.get("effect")
    if not isinstance(effect, dict):
        raise UnknownEffect("effect must be a mapping")
    for step in steps_of(effect):
        op = step.get("op")
        if op == "sequence":
            raise UnknownEffect("nested sequence")
        if op not in UNIT_OPS and op not in PLAYER_OPS:
            raise UnknownEffect(f"op {op!r}")
        if trig in ("static", "equipped") and op not in CONTINUOUS_OPS:
            raise UnknownEffect(f"continuous ability with one-shot op {op!r}")
        if op in UNIT_OPS:
            target = step.get("target") or {}
            select = target.get("select")
            if select not in SELECTS:
                raise UnknownEffect(f"select {select!r}")
            if trig in ("static", "equipped") and select == "chosen":
                raise UnknownEffect("a continuous ability can't choose targets")
            if select in ("chosen", "all"):
                _compiled_target(target)  # raises on an unknown side or filter
            if op in ("modify",) and step.get("stat") not in STAT_INDEX:
                raise UnknownEffect(f"stat {step.get('stat')!r}")
            if op in ("grant_keyword", "remove_keyword") and step.get("keyword") not in KEYWORD_BITS:
                raise UnknownEffect(f"keyword {step.get('keyword')!r}")
            if op in CONTINUOUS_OPS or op == "stun":
                if step.get("duration") not in DURATIONS:
                    raise UnknownEffect(f"duration {step.get('duration')!r}")
            if op == "move" and step.get("direction") not in MOVE_DIRECTIONS:
                raise UnknownEffect(f"direction {step.get('direction')!r}")
        else:
            if step.get("player", "self") not in ("self", "opponent", "each"):
                raise UnknownEffect(f"player {step.get('player')!r}")
            for key in (step.get("filter") or {}):
                if key not in CARD_FILTERS:
                    raise UnknownEffect(f"card filter {key!r}")
            if op == "discard" and step.get("chooser") not in ("owner", "controller", "random"):
                raise UnknownEffect(f"chooser {step.get('chooser')!r}")
            if op == "action_points" and step.get("when") not in ("this_turn", "next_turn"):
                raise UnknownEffect(f"when {step.get('when')!r}")
            if op == "influence" and step.get("craft") != "own" and step.get("craft") not in CRAFT_INDEX:
                raise UnknownEffect(f"craft {step.get('craft')!r}")


class EffectsMixin:
    # --- sources of abilities ------------------------------------------------------------

    def _source_cell(self, src: int) -> int | None:
        u = self.units.get(src)
        if u is not None:
            return u.cell
        b = self.item_bearer.get(src)
        return None if b is None else self.units[b].cell

    def _sources(self, p: int, affordable: bool = False):
        """(source iid, ability index, ability) for the activated and instant abilities player p controls.

        With `affordable`, only those whose cost p can pay now (a cheap filter before _can_use).
        """
        tactical = self.fmt == 2
        ap = self.ap if (self.phase == 1 and p == self.active) else -1
        tp = self.tp[p]
        seen = set()
        units = self.units
        for iid in sorted(self.users):
            if self.owner_of[iid] != p:
                continue
            is_unit = iid in units
            if tactical and is_unit:
                continue  # DG-1.4: no unit abilities in Tactical
            c = self.inst[iid]
            for idx, ability, activated, cost in c.uses:
                if affordable and cost > (ap if activated else tp):
                    continue
                if not is_unit:
                    # Copies of an item in one place are one source in the notation: offer the first unused.
                    key = (self.item_bearer.get(iid, -1), c.index, idx)
                    if key in seen or self.item_for(p, *key) != iid:
                        continue
                    seen.add(key)
                yield iid, idx, ability

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

    def _can_use(self, p: int, src: int, idx: int, ability: dict, explain: bool = False) -> bool:
        trig = ability.get("trigger")
        if trig == "activated":
            if self.phase != 1 or p != self.active or self.ap < ability.get("cost", 0):
                return False
        else:
            if not ((self.phase == 1 and p == self.active) or (self.phase == 3 and p == self.decider)):
                return False
            if self.tp[p] < ability.get("cost", 0):
                return False
        if (src, idx) in self.used:
            return False
        actor = self.units.get(src)
        if actor is None:
            b = self.item_bearer.get(src)
            actor = None if b is None else self.units[b]
        if actor is not None and (actor.stun >= self.turn or actor.subdued_by >= 0):  # DG-18.3
            return False
        return self._targets_exist(p, src, (ability,))

    def _use(self, p: int, src: int, idx: int) -> None:
        ability = self.inst[src].abilities[idx]
        self._keep(self.tp, self.used)
        if ability.get("trigger") == "activated":
            self.ap -= ability.get("cost", 0)
        else:
            self.tp[p] -= ability.get("cost", 0)
        self.used.add((src, idx))
        self._start_effect(p, src, self.inst[src], (idx,), spell=False)

    def _playable(self, p: int, c: Compiled, bearer: int) -> bool:
        """DG-18.5: every chosen target of the card's played abilities has a legal unit."""
        for target in c.chosen:
            if not self._candidates(p, -1, None, target):
                return False
        return True

    def _targets_exist(self, p: int, src: int, abilities) -> bool:
        targets = [t for ability in abilities for t in chosen_targets(ability)]
        if not targets:
            return True
        cell = self._source_cell(src) if src >= 0 else None
        for target in targets:
            if not self._candidates(p, src, cell, target):
                return False
        return True

    # --- targets -------------------------------------------------------------------------

    def _candidates(self, ctrl: int, src: int, cell: int | None, target: dict) -> list[int]:
        side, tests = _compiled_target(target)
        out = []
        for iid, u in self.units.items():  # play order: deterministic, and replays reproduce it
            if side == 1 and u.owner != ctrl or side == 2 and u.owner == ctrl:
                continue
            if tests and not self._matches(u, tests, src, cell):
                continue
            out.append(iid)
        return out

    def _matches(self, u: Unit, tests: tuple, src: int, cell: int | None) -> bool:
        for code, value in tests:
            if code == _WITHIN:
                if cell is None or u.iid == src:
                    return False
                d = u.cell
                if max(abs(cell % 5 - d % 5), abs(cell // 5 - d // 5)) > value:
                    return False
            elif code == _CRAFT:
                if u.c.craft not in value:
                    return False
            elif code == _TYPE:
                if u.c.kind not in value:
                    return False
            elif code == _KEYWORD:
                if not u.kw & value:
                    return False
            elif code == _WITHOUT:
                if u.kw & value:
                    return False
            elif code == _MAX_VIT:
                if u.vit > value:
                    return False
            elif code == _MIN_VIT:
                if u.vit < value:
                    return False
            else:  # _BEARS
                inst = self.inst
                if not any(value == "any" or inst[i].subtype == value for i in u.items):
                    return False
        return True

    def _select(self, ctrl: int, src: int, cell: int | None, target: dict, prev: list[int]) -> list[int]:
        """Targets of a non-chosen selector, now."""
        select = target["select"]
        if select == "all":
            return self._candidates(ctrl, src, cell, target)
        if select == "self":
            return [src] if src in self.units else []
        if select == "bearer":
            b = self.item_bearer.get(src)
            return [] if b is None else [b]
        if select == "previous":
            return list(prev)
        raise UnknownEffect(f"select {select!r}")

    # --- choices (DG-18.4) ---------------------------------------------------------------

    def _start_effect(self, ctrl: int, src: int, c: Compiled, idxs, spell: bool) -> None:
        self._j.extend((self.return_phase, POP))
        self.return_phase.append([self.phase, self.decider])  # where play resumes, and who decided there
        self._j.extend(("pending", self.pending, SET))
        self.pending = [ctrl, src, c.index, list(idxs), [], int(spell)]
        if self._next_slot() is None:
            self._finish_pending()
        else:
            self.phase = 4
            self.decider = ctrl

    def _next_slot(self):
        return self._walk(self.pending)[0]

    def _walk(self, pend: list):
        """(next slot to choose or None, plan) for a pending effect; pure, reads the board only."""
        ctrl, src, d, idxs, picks, _ = pend
        c = self.defs[d]
        cell = self._source_cell(src)
        pi = 0
        plan: dict[tuple[int, int], list[int]] = {}
        dirs: dict[tuple[int, int], dict[int, int]] = {}
        for ai in idxs:
            prev: list[int] = []
            for si, step in enumerate(steps_of(c.abilities[ai]["effect"])):
                target = step.get("target")
                if target is None:
                    continue
                if target["select"] == "chosen":
                    cands = self._candidates(ctrl, src, cell, target)
                    count = target.get("count", 1)
                    if len(cands) <= count:
                        chosen = cands
                    else:
                        chosen = []
                        for _ in range(count):
                            if pi < len(picks):
                                chosen.append(picks[pi])
                                pi += 1
                            else:
                                return ("unit", [x for x in cands if x not in chosen]), None
                    plan[(ai, si)] = chosen
                    targets = chosen
                else:
                    targets = self._select(ctrl, src, cell, target, prev)
                if step["op"] == "move" and step["direction"] == "chosen":
                    per = dirs.setdefault((ai, si), {})
                    for t in targets:
                        if pi < len(picks):
                            per[t] = picks[pi]
                            pi += 1
                        else:
                            return ("dir", t), None
                prev = targets
        return None, (plan, dirs)

    def _finish_pending(self) -> None:
        pend = self.pending
        self._j.extend(("pending", pend, SET))
        self.pending = None
        _, (plan, dirs) = self._walk(pend)
        ctrl, src, d, idxs, _, spell = pend
        self._resolve(ctrl, src, self.defs[d], idxs, plan, dirs, bool(spell))
        self._after_effect()

    def _after_effect(self) -> None:
        hand = self.hand
        self._j.extend(("discards", self.discards, SET))
        self.discards = [[e[0], e[1], min(e[2], len(hand[e[1]]))] for e in self.discards if e[2] > 0 and hand[e[1]]]
        if self.discards:
            self.phase = 5
            self.decider = self.discards[0][0]
        else:
            if self.return_phase:
                self._keep(self.return_phase)
                self.phase, self.decider = self.return_phase.pop()
            else:
                self.phase = 1

    def _after_discards(self) -> None:
        self._after_effect()

    # --- resolution ----------------------------------------------------------------------

    def _resolve(self, ctrl, src, c: Compiled, idxs, plan, dirs, spell: bool) -> None:
        for ai in idxs:
            prev: list[int] = []
            for si, step in enumerate(steps_of(c.abilities[ai]["effect"])):
                op = step["op"]
                if op in UNIT_OPS:
                    cell = self._source_cell(src)
                    target = step["target"]
                    if target["select"] == "chosen":
                        targets = [t for t in plan.get((ai, si), [])]
                    else:
                        targets = self._select(ctrl, src, cell, target, prev)
                    self._unit_op(ctrl, src, cell, step, [t for t in targets if t in self.units], spell,
                                  dirs.get((ai, si), {}), c)
                    prev = targets
                else:
                    self._player_op(ctrl, c, step)

    def _unit_op(self, ctrl, src, cell, step, targets, spell, dirs, c) -> None:
        op = step["op"]
        units = self.units
        for t in targets:
            u = units.get(t)
            if u is None:
                continue
            self._keep(u)
            if op == "damage":
                amount = step["amount"]
                if u.kw & KW_SPECTRAL and not spell:  # DG-13.1
                    u.vit = max(u.vit - amount, 1) if u.vit > 1 else u.vit
                else:
                    u.vit -= amount
                if u.vit <= 0:
                    self._kill(u)
            elif op == "heal":
                u.vit = min(u.c.vit, u.vit + step["amount"])
            elif op == "modify":
                u.mods = [*u.mods, (STAT_INDEX[step["stat"]], step["amount"], self._expiry(step["duration"], ctrl))]
                u.recalc()
            elif op == "grant_keyword" or op == "remove_keyword":
                bit = KEYWORD_BITS[step["keyword"]]
                had = u.kw & KW_AVIATION
                u.kwmods = [*u.kwmods, (bit, op == "grant_keyword", self._expiry(step["duration"], ctrl))]
                u.recalc()
                if bit == KW_AVIATION and op == "grant_keyword" and not had:
                    u.flying = False  # effects.md: starts grounded
            elif op == "move":
                self._push(u, step, cell, ctrl, dirs)
            elif op == "destroy":
                self._kill(u)
            elif op == "return_to_hand":
                self._leave_board(u)
                self._j.extend((self.hand[u.owner], POP))
                self.hand[u.owner].append(u.iid)
            elif op == "stun":
                u.stun = max(u.stun, self._expiry(step["duration"], ctrl))
            else:
                raise UnknownEffect(f"op {op!r}")

    def _push(self, u: Unit, step: dict, cell: int | None, ctrl: int, dirs: dict) -> None:
        how = step["direction"]
        if how == "forward":
            d = turn_dir(0, u.owner)
        elif how == "backward":
            d = turn_dir(4, u.owner)
        elif how == "chosen":
            if u.iid not in dirs:
                return
            d = turn_dir(dirs[u.iid], ctrl)
        else:
            if cell is None:
                return  # DG-18.7
            d = direction_between(cell, u.cell)
            if d is None:
                return
            if how == "toward":
                d = (d + 4) % 8
        df, dr = VECTORS[d]
        f, r = u.cell % SIZE, u.cell // SIZE
        end = u.cell
        gate = GATE if self.fmt != 2 else -1
        for _ in range(step["distance"]):
            f, r = f + df, r + dr
            if not (0 <= f < SIZE and 0 <= r < SIZE):
                break
            nxt = r * SIZE + f
            if nxt == gate or self.board[nxt] >= 0:
                break
            end = nxt
        if end != u.cell:
            self._lift(u)  # journals the unit
            self._j.extend((end, self.board[end], BOARD))
            self.board[end] = u.iid
            u.cell = end

    def _players(self, ctrl: int, who: str) -> tuple[int, ...]:
        if who == "self":
            return (ctrl,)
        if who == "opponent":
            return (1 - ctrl,)
        return (ctrl, 1 - ctrl)

    def _player_op(self, ctrl: int, c: Compiled, step: dict) -> None:
        op = step["op"]
        for p in self._players(ctrl, step.get("player", "self")):
            if op == "draw":
                self._draw(p, step["amount"])
            elif op == "discard":
                chooser = step["chooser"]
                if chooser == "random":
                    self._j.extend(("rs", self.rs, SET))
                    hand = self.hand[p]
                    self._keep(hand, self.boneyard[p])
                    for _ in range(min(step["amount"], len(hand))):
                        self.rs, i = _rng.below(self.rs, len(hand))
                        self.boneyard[p].append(hand.pop(i))
                else:
                    self._keep(self.discards)
                    self.discards.append([p if chooser == "owner" else ctrl, p, step["amount"]])
            elif op == "action_points":
                amount = step["amount"]
                if step["when"] == "this_turn" and p == self.active and self.phase != 0:
                    self.ap = max(0, self.ap + amount)
                else:
                    self._keep(self.ap_next)
                    self.ap_next[p] += amount
            elif op == "influence":
                craft = c.craft if step["craft"] == "own" else CRAFT_INDEX[step["craft"]]
                if p == self.active:
                    self._keep(self.infl)
                    self.infl[craft] += step["amount"]
            elif op == "reveal_hand":
                self._j.extend(("rs", self.rs, SET))
                hand = list(self.hand[p])
                amount = step["amount"]
                if amount and amount < len(hand):
                    shown = []
                    for _ in range(amount):
                        self.rs, i = _rng.below(self.rs, len(hand))
                        shown.append(hand.pop(i))
                    hand = shown
                self._keep(self.revealed[ctrl])
                self.revealed[ctrl].extend(hand)
            elif op == "search_deck":
                filt = step.get("filter") or {}
                self._j.extend(("rs", self.rs, SET))
                deck = self.deck[p]
                self._keep(deck, self.hand[p], self.revealed[1 - p])
                found = []
                for iid in reversed(deck):  # DG-18.10: from the top down
                    if len(found) == step["amount"]:
                        break
                    if self._card_matches(self.inst[iid], filt):
                        found.append(iid)
                for iid in found:
                    deck.remove(iid)
                    self.hand[p].append(iid)
                self.revealed[1 - p].extend(found)
                self.rs = _rng.shuffle(self.rs, deck)
            else:
                raise UnknownEffect(f"op {op!r}")

    def _card_matches(self, c: Compiled, filt: dict) -> bool:
        card = c.card
        for key, value in filt.items():
            if key == "type" and card.type not in value:
                return False
            if key == "subtype" and card.subtype not in value:
                return False
            if key == "craft" and card.craft not in value:
                return False
            if key == "keyword" and value not in card.keywords:
                return False
            if key == "max_vitality" and (card.vitality is None or card.vitality > value):
                return False
        return True

    # --- continuous abilities (static, equipped) ----------------------------------------

    def refresh_statics(self) -> None:
        """Rebuild every modifier from static and equipped abilities (effects.md: re-evaluated on change)."""
        units = self.units
        new: dict[int, tuple[list, list]] = {}
        tactical = self.fmt == 2
        if self.gate_static:
            for p in (0, 1):
                g = self.gateway[p]
                if g is not None and g.continuous:
                    self._apply_static(p, -1, None, g, "static", new)
        for iid in sorted(self.statics):
            if iid in units:
                if not tactical:
                    self._apply_static(self.owner_of[iid], iid, units[iid].cell, self.inst[iid], "static", new)
            else:
                self._apply_static(self.owner_of[iid], iid, self._source_cell(iid), self.inst[iid], "", new)
        # Only units that had static modifiers or get some now can change.
        for iid in self.smodded | new.keys():
            u = units.get(iid)
            if u is None:
                continue
            mods, kws = new.get(iid) or ([], [])
            if mods != u.smods or kws != u.skw:
                self._keep(u)
                u.smods, u.skw = mods, kws
                u.recalc()
        if self.smodded != new.keys():
            self._j.extend(("smodded", self.smodded, SET))
            self.smodded = set(new)
        if self.static_live != bool(new):
            self._j.extend(("static_live", self.static_live, SET))
            self.static_live = bool(new)

    def _apply_static(self, ctrl: int, src: int, cell: int | None, c: Compiled, only: str, new: dict) -> None:
        for trig, steps in c.continuous:
            if only and trig != only:
                continue
            prev: list[int] = []
            for step in steps:
                targets = self._select(ctrl, src, cell, step["target"], prev)
                if step["op"] == "modify":
                    mod = (STAT_INDEX[step["stat"]], step["amount"])
                    for t in targets:
                        entry = new.get(t)
                        if entry is None:
                            entry = new[t] = ([], [])
                        entry[0].append(mod)
                else:
                    mod = (KEYWORD_BITS[step["keyword"]], step["op"] == "grant_keyword")
                    for t in targets:
                        entry = new.get(t)
                        if entry is None:
                            entry = new[t] = ([], [])
                        entry[1].append(mod)
                prev = targets
