"""Executing the effect vocabulary of docs/effects.md (DG-18): targets, choices, primitives, statics.

Functions over the game's data (zones.py), below the rule checks and the turn structure. Every primitive of the
vocabulary is implemented here; an op, selector, filter or trigger the engine does not know raises UnknownEffect, so a
card can never be silently ignored (tests walk the whole catalog through `check_ability`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from core.crafts import CRAFT_INDEX
from core.effects import CARD_FILTER_KEYS, CONTINUOUS_OPS, DURATIONS, MOVE_DIRECTIONS, OPS, SELECTS, TRIGGERS

from . import rng as _rng
from .board import GATE, SIZE, VECTORS, direction_between, turn_dir
from .cards import KEYWORD_BITS, KW_SPECTRAL, Compiled, chosen_of
from .journal import BOARD, POP, SET
from .zones import TACTICAL, Game, Unit

Ability = dict[str, Any]
Target = dict[str, Any]
# ("unit", candidate iids), ("dir", the unit whose direction is chosen) or ("dist", the farthest it may go,
# the unit, the absolute direction it goes in)
Slot = tuple[Any, ...]
Picks = dict[tuple[int, int], dict[int, int]]  # (ability, step) -> unit -> the direction or distance chosen
Plan = tuple[dict[tuple[int, int], list[int]], Picks, Picks]  # chosen units, directions, distances

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
Tests = tuple[tuple[int, Any], ...]  # (test code, value) pairs
_TARGETS: dict[int, tuple[Target, tuple[int, Tests]]] = {}
_CACHE_LIMIT = 20_000


def _compiled_target(target: Target) -> tuple[int, Tests]:
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


def _compile_target(target: Target) -> tuple[int, Tests]:
    """The side code and the filter as (test code, value) pairs, so the hot loop compares ints."""
    tests: list[tuple[int, Any]] = []
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


_CHOSEN: dict[int, tuple[Ability, tuple[Target, ...]]] = {}


def chosen_targets(ability: Ability) -> tuple[Target, ...]:
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


# --- sources of abilities ------------------------------------------------------------


def sources(g: Game, p: int, affordable: bool = False) -> Iterator[tuple[int, int, Ability]]:
    """(source iid, ability index, ability) for the activated and instant abilities player p controls.

    With `affordable`, only those whose cost p can pay now (a cheap filter before _can_use).
    """
    tactical = g.fmt == TACTICAL
    ap = g.ap if (g.phase == 1 and p == g.active) else -1
    tp = g.tp[p]
    seen: set[tuple[int, int, int]] = set()
    units = g.units
    for iid in sorted(g.users):
        if g.owner_of[iid] != p:
            continue
        is_unit = iid in units
        if tactical and is_unit:
            continue  # DG-1.4: no unit abilities in Tactical
        c = g.inst[iid]
        for idx, ability, activated, cost in c.uses:
            if affordable and cost > (ap if activated else tp):
                continue
            if not is_unit:
                # Copies of an item in one place are one source in the notation: offer the first unused.
                key = (g.item_bearer.get(iid, -1), c.index, idx)
                if key in seen or g.item_for(p, *key) != iid:
                    continue
                seen.add(key)
            yield iid, idx, ability


def can_use(g: Game, p: int, src: int, idx: int, ability: Ability) -> bool:
    trig = ability.get("trigger")
    if trig == "activated":
        if g.phase != 1 or p != g.active or g.ap < ability.get("cost", 0):
            return False
    else:
        # DG-15.5: on one's own turn, in the defence step and in the response window
        if not ((g.phase == 1 and p == g.active) or ((g.phase == 3 or g.phase == 7) and p == g.decider)):
            return False
        if g.tp[p] < ability.get("cost", 0):
            return False
    if (src, idx) in g.used:
        return False
    actor = g.units.get(src)
    if actor is None:
        b = g.item_bearer.get(src)
        actor = None if b is None else g.units[b]
    if actor is not None and (actor.stun >= g.turn or actor.subdued_by >= 0):  # DG-18.3
        return False
    return targets_exist(g, p, src, (ability,))


def use(g: Game, p: int, src: int, idx: int) -> None:
    ability = g.inst[src].abilities[idx]
    g._keep(g.tp, g.used)
    if ability.get("trigger") == "activated":
        g.ap -= ability.get("cost", 0)
    else:
        g.tp[p] -= ability.get("cost", 0)
    g.used.add((src, idx))
    start_effect(g, p, src, g.inst[src], (idx,), spell=False)


def playable(g: Game, p: int, c: Compiled) -> bool:
    """DG-18.5: every chosen target of the card's played abilities has a legal unit."""
    for target in c.chosen:
        if not candidates(g, p, -1, None, target):
            return False
    return True


def targets_exist(g: Game, p: int, src: int, abilities: Iterable[Ability]) -> bool:
    targets = [t for ability in abilities for t in chosen_targets(ability)]
    if not targets:
        return True
    cell = g.source_cell(src) if src >= 0 else None
    for target in targets:
        if not candidates(g, p, src, cell, target):
            return False
    return True


# --- targets -------------------------------------------------------------------------


def candidates(g: Game, ctrl: int, src: int, cell: int | None, target: Target) -> list[int]:
    side, tests = _compiled_target(target)
    out: list[int] = []
    for iid, u in g.units.items():  # play order: deterministic, and replays reproduce it
        if side == 1 and u.owner != ctrl or side == 2 and u.owner == ctrl:
            continue
        if tests and not _matches(g, u, tests, src, cell):
            continue
        out.append(iid)
    return out


def _matches(g: Game, u: Unit, tests: Tests, src: int, cell: int | None) -> bool:
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
            inst = g.inst
            if not any(value == "any" or inst[i].subtype == value for i in u.items):
                return False
    return True


def select(g: Game, ctrl: int, src: int, cell: int | None, target: Target, prev: list[int]) -> list[int]:
    """Targets of a non-chosen selector, now."""
    how = target["select"]
    if how == "all":
        return candidates(g, ctrl, src, cell, target)
    if how == "self":
        return [src] if src in g.units else []
    if how == "bearer":
        b = g.item_bearer.get(src)
        return [] if b is None else [b]
    if how == "previous":
        return list(prev)
    raise UnknownEffect(f"select {how!r}")


# --- choices (DG-18.4) ---------------------------------------------------------------


def start_effect(g: Game, ctrl: int, src: int, c: Compiled, idxs: Iterable[int], spell: bool) -> None:
    g._j.extend((g.return_phase, POP))
    g.return_phase.append([g.phase, g.decider])  # where play resumes, and who decided there
    g._j.extend(("pending", g.pending, SET))
    g.pending = [ctrl, src, c.index, list(idxs), [], int(spell)]
    if next_slot(g) is None:
        finish_pending(g)
    else:
        g.phase = 4
        g.decider = ctrl


def next_slot(g: Game) -> Slot | None:
    assert g.pending is not None
    return walk(g, g.pending)[0]


def walk(g: Game, pend: list[Any]) -> tuple[Slot | None, Plan]:
    """(next slot to choose or None, plan) for a pending effect; pure, reads the board only."""
    ctrl, src, d, idxs, picks, _ = pend
    c = g.defs[d]
    cell = g.source_cell(src)
    pi = 0
    plan: dict[tuple[int, int], list[int]] = {}
    dirs: Picks = {}
    dists: Picks = {}
    for ai in idxs:
        prev: list[int] = []
        for si, step in enumerate(steps_of(c.abilities[ai]["effect"])):
            target = step.get("target")
            if target is None:
                continue
            if target["select"] == "chosen":
                cands = candidates(g, ctrl, src, cell, target)
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
                            return ("unit", [x for x in cands if x not in chosen]), (plan, dirs, dists)
                plan[(ai, si)] = chosen
                targets = chosen
            else:
                targets = select(g, ctrl, src, cell, target, prev)
            if step["op"] == "move":
                chosen_dir = step["direction"] == "chosen"
                per = dirs.setdefault((ai, si), {})
                far = dists.setdefault((ai, si), {})
                for t in targets:
                    if chosen_dir:
                        if pi < len(picks):
                            per[t] = picks[pi]
                            pi += 1
                        else:
                            return ("dir", t), (plan, dirs, dists)
                    if step["distance"] > 1 and t in g.units:  # "up to N cells": the controller says how far
                        reach = _reach(g, g.units[t], _push_dir(g, g.units[t], step, cell, ctrl, per), step)
                        if reach > 1:
                            if pi < len(picks):
                                far[t] = picks[pi]
                                pi += 1
                            else:
                                return ("dist", reach, t, _push_dir(g, g.units[t], step, cell, ctrl, per)), (
                                    plan, dirs, dists)
            prev = targets
    return None, (plan, dirs, dists)


def finish_pending(g: Game) -> None:
    pend = g.pending
    assert pend is not None
    g._j.extend(("pending", pend, SET))
    g.pending = None
    _, (plan, dirs, dists) = walk(g, pend)
    ctrl, src, d, idxs, _, spell = pend
    _resolve(g, ctrl, src, g.defs[d], idxs, plan, dirs, dists, bool(spell))
    after_effect(g)


def after_effect(g: Game) -> None:
    hand = g.hand
    if g.discards:
        g._j.extend(("discards", g.discards, SET))
        g.discards = [[e[0], e[1], min(e[2], len(hand[e[1]]))] for e in g.discards if e[2] > 0 and hand[e[1]]]
    if g.discards:
        g.phase = 5
        g.decider = g.discards[0][0]
    else:
        if g.return_phase:
            g._keep(g.return_phase)
            g.phase, g.decider = g.return_phase.pop()
        else:
            g.phase = 1


# --- resolution ----------------------------------------------------------------------


def _resolve(g: Game, ctrl: int, src: int, c: Compiled, idxs: list[int], plan: dict[tuple[int, int], list[int]],
             dirs: Picks, dists: Picks, spell: bool) -> None:
    for ai in idxs:
        prev: list[int] = []
        for si, step in enumerate(steps_of(c.abilities[ai]["effect"])):
            op = step["op"]
            if op in UNIT_OPS:
                cell = g.source_cell(src)
                target = step["target"]
                if target["select"] == "chosen":
                    targets = [t for t in plan.get((ai, si), [])]
                else:
                    targets = select(g, ctrl, src, cell, target, prev)
                _unit_op(g, ctrl, cell, step, [t for t in targets if t in g.units], spell, dirs.get((ai, si), {}),
                         dists.get((ai, si), {}))
                prev = targets
            else:
                _player_op(g, ctrl, c, step)


def _unit_op(g: Game, ctrl: int, cell: int | None, step: dict[str, Any], targets: list[int], spell: bool,
             dirs: dict[int, int], dists: dict[int, int]) -> None:
    op = step["op"]
    units = g.units
    for t in targets:
        u = units.get(t)
        if u is None:
            continue
        g._keep(u)
        if op == "damage":
            amount = step["amount"]
            if u.kw & KW_SPECTRAL and not spell:  # DG-13.1
                u.vit = max(u.vit - amount, 1) if u.vit > 1 else u.vit
            else:
                u.vit -= amount
            if u.vit <= 0:
                g._kill(u)
        elif op == "heal":
            u.vit = min(u.c.vit, u.vit + step["amount"])
        elif op == "modify":
            u.mods = [*u.mods, (STAT_INDEX[step["stat"]], step["amount"], g._expiry(step["duration"], ctrl))]
            u.recalc()
        elif op == "grant_keyword" or op == "remove_keyword":
            bit = KEYWORD_BITS[step["keyword"]]
            u.kwmods = [*u.kwmods, (bit, op == "grant_keyword", g._expiry(step["duration"], ctrl))]
            u.recalc()  # a unit that gains aviation is flying (DG-11.1)
        elif op == "move":
            _push(g, u, step, cell, ctrl, dirs, dists)
        elif op == "destroy":
            g._kill(u)
        elif op == "return_to_hand":
            g._leave_board(u)
            g._j.extend((g.hand[u.owner], POP))
            g.hand[u.owner].append(u.iid)
        elif op == "stun":
            u.stun = max(u.stun, g._expiry(step["duration"], ctrl))
        else:
            raise UnknownEffect(f"op {op!r}")


def _push_dir(g: Game, u: Unit, step: dict[str, Any], cell: int | None, ctrl: int, dirs: dict[int, int]) -> int | None:
    """The absolute direction a `move` takes the unit in, or None when it moves nothing (DG-18.7)."""
    how = step["direction"]
    if how == "forward":
        return turn_dir(0, u.owner)
    if how == "backward":
        return turn_dir(4, u.owner)
    if how == "chosen":
        return turn_dir(dirs[u.iid], ctrl) if u.iid in dirs else None
    if cell is None:
        return None  # DG-18.7
    away = direction_between(cell, u.cell)
    if away is None:
        return None
    return (away + 4) % 8 if how == "toward" else away


def _reach(g: Game, u: Unit, d: int | None, step: dict[str, Any]) -> int:
    """How many cells the unit can go in direction d, up to the step's distance: it stops before the board's
    edge, an occupied cell or the Gateway (effects.md, DG-9.4)."""
    if d is None:
        return 0
    df, dr = VECTORS[d]
    f, r = u.cell % SIZE, u.cell // SIZE
    gate = GATE if g.fmt != TACTICAL else -1
    n = 0
    for _ in range(step["distance"]):
        f, r = f + df, r + dr
        if not (0 <= f < SIZE and 0 <= r < SIZE):
            break
        nxt = r * SIZE + f
        if nxt == gate or g.board[nxt] >= 0:
            break
        n += 1
    return n


def _push(g: Game, u: Unit, step: dict[str, Any], cell: int | None, ctrl: int, dirs: dict[int, int],
          dists: dict[int, int]) -> None:
    d = _push_dir(g, u, step, cell, ctrl, dirs)
    n = _reach(g, u, d, step)
    chosen = dists.get(u.iid)
    if chosen is not None and chosen < n:
        n = chosen  # DG-18.7: as far as the controller chose, if the way is still free
    if n > 0 and d is not None:
        df, dr = VECTORS[d]
        end = (u.cell // SIZE + dr * n) * SIZE + u.cell % SIZE + df * n
        g._lift(u)  # journals the unit
        g._j.extend((end, g.board[end], BOARD))
        g.board[end] = u.iid
        u.cell = end


def _players(ctrl: int, who: str) -> tuple[int, ...]:
    if who == "self":
        return (ctrl,)
    if who == "opponent":
        return (1 - ctrl,)
    return (ctrl, 1 - ctrl)


def _player_op(g: Game, ctrl: int, c: Compiled, step: dict[str, Any]) -> None:
    op = step["op"]
    for p in _players(ctrl, step.get("player", "self")):
        if op == "draw":
            g._draw(p, step["amount"])
        elif op == "discard":
            chooser = step["chooser"]
            if chooser == "random":
                g._j.extend(("rs", g.rs, SET))
                hand = g.hand[p]
                g._keep(hand, g.boneyard[p])
                for _ in range(min(step["amount"], len(hand))):
                    g.rs, i = _rng.below(g.rs, len(hand))
                    g.boneyard[p].append(hand.pop(i))
            else:
                g._keep(g.discards)
                g.discards.append([p if chooser == "owner" else ctrl, p, step["amount"]])
        elif op == "action_points":
            amount = step["amount"]
            if step["when"] == "this_turn" and p == g.active and g.phase != 0:
                g.ap = max(0, g.ap + amount)
            else:
                g._keep(g.ap_next)
                g.ap_next[p] += amount
        elif op == "influence":
            craft = c.craft if step["craft"] == "own" else CRAFT_INDEX[step["craft"]]
            if p == g.active:
                g._keep(g.infl)
                g.infl[craft] += step["amount"]
        elif op == "reveal_hand":
            g._j.extend(("rs", g.rs, SET))
            hand = list(g.hand[p])
            amount = step["amount"]
            if amount and amount < len(hand):
                shown: list[int] = []
                for _ in range(amount):
                    g.rs, i = _rng.below(g.rs, len(hand))
                    shown.append(hand.pop(i))
                hand = shown
            g._keep(g.revealed[ctrl])
            g.revealed[ctrl].extend(hand)
        elif op == "search_deck":
            filt = step.get("filter") or {}
            g._j.extend(("rs", g.rs, SET))
            g._order_deck(p)
            deck = g.deck[p]
            g._keep(deck, g.hand[p], g.revealed[1 - p])
            found: list[int] = []
            for iid in reversed(deck):  # DG-18.10: from the top down
                if len(found) == step["amount"]:
                    break
                if card_matches(g.inst[iid], filt):
                    found.append(iid)
            for iid in found:
                deck.remove(iid)
                g.hand[p].append(iid)
            g.revealed[1 - p].extend(found)
            g.rs = _rng.shuffle(g.rs, deck)
        else:
            raise UnknownEffect(f"op {op!r}")


def card_matches(c: Compiled, filt: dict[str, Any]) -> bool:
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

Statics = dict[int, tuple[list[tuple[int, int]], list[tuple[int, bool]]]]  # unit -> (stat mods, keyword mods)


def refresh_statics(g: Game) -> None:
    """Rebuild every modifier from static and equipped abilities (effects.md: re-evaluated on change)."""
    units = g.units
    new: Statics = {}
    tactical = g.fmt == TACTICAL
    if g.gate_static:
        for p in (0, 1):
            gate = g.gateway[p]
            if gate is not None and gate.continuous:
                _apply_static(g, p, -1, None, gate, "static", new)
    for iid in sorted(g.statics):
        if iid in units:
            if not tactical:
                _apply_static(g, g.owner_of[iid], iid, units[iid].cell, g.inst[iid], "static", new)
        else:
            _apply_static(g, g.owner_of[iid], iid, g.source_cell(iid), g.inst[iid], "", new)
    # Only units that had static modifiers or get some now can change.
    for iid in g.smodded | new.keys():
        u = units.get(iid)
        if u is None:
            continue
        mods, kws = new.get(iid) or ([], [])
        if mods != u.smods or kws != u.skw:
            g._keep(u)
            u.smods, u.skw = mods, kws
            u.recalc()
    if g.smodded != new.keys():
        g._j.extend(("smodded", g.smodded, SET))
        g.smodded = set(new)
    if g.static_live != bool(new):
        g._j.extend(("static_live", g.static_live, SET))
        g.static_live = bool(new)


def _apply_static(g: Game, ctrl: int, src: int, cell: int | None, c: Compiled, only: str, new: Statics) -> None:
    for trig, steps in c.continuous:
        if only and trig != only:
            continue
        prev: list[int] = []
        for step in steps:
            targets = select(g, ctrl, src, cell, step["target"], prev)
            if step["op"] == "modify":
                mod: tuple[int, int] = (STAT_INDEX[step["stat"]], step["amount"])
                for t in targets:
                    entry = new.get(t)
                    if entry is None:
                        entry = new[t] = ([], [])
                    entry[0].append(mod)
            else:
                kwmod = (KEYWORD_BITS[step["keyword"]], step["op"] == "grant_keyword")
                for t in targets:
                    entry = new.get(t)
                    if entry is None:
                        entry = new[t] = ([], [])
                    entry[1].append(kwmod)
            prev = targets
