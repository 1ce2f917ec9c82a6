"""Playing an action the rules allow: one small function per action kind, and the turn structure (DG-4 to DG-17).

Functions over the game's data, above the rule checks (the defence step asks them for the defender's instants).
Each change is journaled by the primitives of zones.py or here, so that State.undo can take it back.
"""

from __future__ import annotations

from collections.abc import Callable

from . import rng as _rng
from .actions import (
    ATTACK,
    DEFEND,
    DEPLOY,
    DISCARD,
    DRAW,
    END,
    EQUIP,
    FLY,
    GROUND,
    INSTANT,
    KEEP,
    MOVE,
    MULLIGAN,
    PASS,
    PLAY,
    RECYCLE,
    STRIKE,
    TARGET_DIR,
    TARGET_DIST,
    TARGET_UNIT,
    USE,
    Action,
)  # fmt: skip
from .board import GATE
from .cards import KW_SPECTRAL, KW_SUBDUE, UNIVERSAL, Compiled
from .effects import after_effect, finish_pending, next_slot, refresh_statics, start_effect, use
from .journal import ATTR, BOARD, BONE_POP, CPOP, ITEM, KEY_DEL, MOVED, POP, RECYCLED, SET, TURN, UATTR, UNIT_DEL
from .rules import defense_left, instant_actions
from .zones import (
    AP_PER_TURN,
    BEYOND_GOAL,
    BONEYARD_GOAL,
    COMBAT_PHASE,
    DEFENSE_PHASE,
    DISCARD_PHASE,
    DRAW_RESULT,
    FOREVER,
    MAIN_PHASE,
    OPENING_HAND,
    OVER_PHASE,
    RESPONSE_PHASE,
    TACTICAL,
    TARGET_PHASE,
    TURN_LIMIT,
    Game,
    Unit,
)  # fmt: skip


def do(g: Game, action: Action) -> None:
    """Play an action known to be legal."""
    kind, a, b = action
    _BY_KIND[kind](g, a, b)


# --- the actions of a turn ------------------------------------------------------------------


def _move(g: Game, a: int, b: int) -> None:
    u = g.units[a]
    g.ap -= 1
    board = g.board
    if board[b] < 0 and u.subduing < 0 and u.subdued_by < 0 and (b != GATE or g.fmt == TACTICAL):
        g._j.extend((a, u.cell, u.moved, MOVED))  # the common case, in one entry
        board[u.cell] = -1
        board[b] = a
        u.cell = b
        u.moved = g.turn
        # Only a cell changed: continuous abilities see it only if they reach by distance (State.apply).
        if (g.static_live or g.statics or g.gate_static) and _positional(g):
            refresh_statics(g)
    else:
        g._j.extend((a, "moved", u.moved, UATTR))
        u.moved = g.turn
        _maneuver(g, u, b)
        if g.static_live or g.statics or g.gate_static:
            refresh_statics(g)


def _positional(g: Game) -> bool:
    """Whether a continuous ability in play reaches by distance (a `within` filter)."""
    inst = g.inst
    for iid in g.statics:
        if inst[iid].positional:
            return True
    return g.gate_static and any(gate is not None and gate.positional for gate in g.gateway)


def _attack(g: Game, a: int, b: int) -> None:
    u = g.units[a]
    g._j.extend((a, "attacked", u.attacked, UATTR))
    g.ap -= 1
    u.attacked = g.turn
    melee = max(abs(g.units[b].cell % 5 - u.cell % 5), abs(g.units[b].cell // 5 - u.cell // 5)) == 1
    if g.phase == COMBAT_PHASE:
        assert g.combat is not None
        g._j.append(CPOP)
        g.combat[1].append((a, melee))
    else:
        g._j.extend(("combat", g.combat, SET))
        g.combat = [b, [(a, melee)], {}]
        g.phase = COMBAT_PHASE


def _end(g: Game, a: int, b: int) -> None:
    p = 1 - g.active
    if _can_answer(g, p):  # DG-15.6: the end-of-turn window, before anything of the turn lapses
        g._j.extend(("ending", g.ending, SET))
        g.ending = True
        g.phase = RESPONSE_PHASE
        g.decider = p
    else:
        _end_turn(g)


def _draw(g: Game, a: int, b: int) -> None:
    g.ap -= 1
    g._draw(g.active, 1)


def _deploy(g: Game, d: int, cell: int) -> None:
    p = g.active
    c = g.defs[d]
    iid = g._hand_iid(p, d)
    g._from_hand(p, iid)
    g.ap -= 1  # DG-7.3: at least 1 AP
    need = _spend_influence(g, range(7) if c.craft == UNIVERSAL else (c.craft,), c.vit - 1)
    if need > 0:
        take = g.rp if g.rp < need else need
        g.rp -= take
        need -= take
    if need > 0:
        g.ap -= need
    u = Unit(iid, p, c, cell, g.turn)
    g.units[iid] = u  # the newest key: undo deletes it, and the order of play is kept
    g._j.extend((iid, UNIT_DEL))
    g._j.extend((cell, g.board[cell], BOARD))
    g.board[cell] = iid
    g._in_play(iid, c)
    if c.abilities and g.fmt != TACTICAL:
        deploy = tuple(i for i, ab in enumerate(c.abilities) if ab.get("trigger") == "deploy")
        if deploy:
            start_effect(g, p, iid, c, deploy, spell=False)


def _spend_influence(g: Game, crafts: range | tuple[int], need: int) -> int:
    """Influence of those crafts pays up to `need` points, the crafts in their order (DG-7.4); what is left."""
    infl = g.infl
    if need > 0 and any(infl):
        # Kept in place, as an effect that adds influence keeps it (effects.py): replacing the list here would
        # leave that effect's undo restoring a list the game no longer holds.
        g._keep(infl)
        for k in crafts:
            if need <= 0:
                break
            take = infl[k] if infl[k] < need else need
            infl[k] -= take
            need -= take
    return need


def _pay_card(g: Game, c: Compiled) -> None:
    """A talent's, glyph's or item's card cost: AP; a universal card's first AP, then influence, then AP (DG-17.4)."""
    need: int = c.cost
    if c.craft == UNIVERSAL and need > 1:
        g.ap -= 1
        need = _spend_influence(g, range(7), need - 1)
    g.ap -= need


def _recycle(g: Game, a: int, b: int) -> None:
    p = g.active
    hand = g.hand[p]
    i = g._hand_index(p, a)
    g._j.extend((p, i, hand[i], RECYCLED))
    g.boneyard[p].append(hand.pop(i))
    g.rp += 1


def _switch(g: Game, a: int, fly: bool) -> None:
    u = g.units[a]
    g._j.extend((a, "flying", u.flying, UATTR))
    g._j.extend((a, "switched", u.switched, UATTR))
    u.flying = fly
    u.switched = g.turn


def _ground(g: Game, a: int, b: int) -> None:
    _switch(g, a, False)


def _fly(g: Game, a: int, b: int) -> None:
    _switch(g, a, True)


def _equip(g: Game, d: int, bearer: int) -> None:
    p = g.active
    c = g.defs[d]
    iid = g._hand_iid(p, d)
    g._from_hand(p, iid)
    _pay_card(g, c)
    j = g._j
    if c.consumable:  # DG-14.3
        j.extend((p, BONE_POP))
        g.boneyard[p].append(iid)
        idxs = tuple(i for i, ab in enumerate(c.abilities) if ab.get("trigger") == "consumable")
        if idxs:
            start_effect(g, p, iid, c, idxs, spell=False)
        return
    if c.battlefield_item:  # DG-14.2
        j.extend((g.sideline[p], POP))
        g.sideline[p].append(iid)
    else:
        u = g.units[bearer]
        j.extend((u, "items", u.items, ATTR))
        u.items = [*u.items, iid]
        g._keep(g.item_bearer)
        g.item_bearer[iid] = bearer
    g._in_play(iid, c)


def _play(g: Game, a: int, b: int) -> None:
    _play_card(g, g.current_player, a, by_talent_points=False)


def _instant(g: Game, a: int, b: int) -> None:
    _play_card(g, g.current_player, a, by_talent_points=True)


def _play_card(g: Game, p: int, d: int, by_talent_points: bool) -> None:
    """Talents and glyphs (DG-15, DG-16)."""
    c = g.defs[d]
    iid = g._hand_iid(p, d)
    g._from_hand(p, iid)
    j = g._j
    if by_talent_points:
        j.extend((g.tp, p, g.tp[p], ITEM))
        g.tp[p] -= c.tp_cost
    else:
        _pay_card(g, c)
    if c.subtype == "battlefield talent" and c.lasting in ("next_turn", "permanent"):
        j.extend((g.sideline[p], POP))
        g.sideline[p].append(iid)
        j.extend((g.side_until, iid, KEY_DEL))  # a card from the hand is not on the sideline yet
        g.side_until[iid] = g._expiry(c.lasting, p)
    else:
        j.extend((p, BONE_POP))
        g.boneyard[p].append(iid)
    idxs = tuple(i for i, ab in enumerate(c.abilities) if ab.get("trigger") in ("play", "instant"))
    if idxs:
        start_effect(g, p, iid, c, idxs, spell=True)


def _use(g: Game, a: int, b: int) -> None:
    use(g, g.current_player, a, b)


# --- choices: defense, targets, discards, mulligans -----------------------------------------


def _strike(g: Game, a: int, b: int) -> None:
    assert g.combat is not None
    target = g.units.get(g.combat[0])
    defender = g.owner_of[g.combat[0]]
    needs = target is not None and len(g.combat[1]) > 1 and target.dfn > 0
    g.phase = DEFENSE_PHASE  # DG-15.5: the defence step, offered only when there is a decision
    g.decider = defender
    if not (needs or (target is not None and instant_actions(g, defender))):
        _resolve_combat(g)


def _defend(g: Game, a: int, b: int) -> None:
    assert g.combat is not None
    g._keep(g.combat[2])
    g.combat[2][a] = g.combat[2].get(a, 0) + b
    if defense_left(g) is None:
        _resolve_combat(g)


def _pass(g: Game, a: int, b: int) -> None:
    if g.phase == RESPONSE_PHASE:
        _close_window(g)  # DG-15.5: the action stands; the player on turn goes on (or the turn ends)
        return
    _resolve_combat(g)


# --- the response windows (DG-15.5, DG-15.6) -------------------------------------------------

# The actions of the player on turn that the opponent may answer once they have resolved (DG-15.5): the text's
# actions, drawing a card included (DG-15.6), and using an ability; an attack is answered in its defence step,
# the end of the turn in its own window (`_end`). Recycling, grounding and launching are no actions of the text.
ANSWERABLE = frozenset({DRAW, DEPLOY, MOVE, EQUIP, PLAY, INSTANT, USE})
# Actions after which a response window is already as it should be: they opened it themselves, or closed it.
_WINDOW_SET = frozenset({END, PASS, KEEP, MULLIGAN})


def open_windows(g: Game, kind: int, before: int) -> None:
    """After an action of `kind` played in phase `before`: the opponent's window once an answerable action has
    resolved, with the targets and discards it called for (which end in the main phase), and again after each
    answer while they can play another (DG-15.5)."""
    phase = g.phase
    if phase == MAIN_PHASE:
        if before == MAIN_PHASE:
            if kind in ANSWERABLE:
                offer_response(g)
        elif before == TARGET_PHASE or before == DISCARD_PHASE:
            offer_response(g)
    elif phase == RESPONSE_PHASE and kind not in _WINDOW_SET:
        offer_response(g)


def _can_answer(g: Game, p: int) -> bool:
    """Whether p has an instant to play now, in a window of theirs (DG-15.5); the phase is left as it was."""
    if g.fmt == TACTICAL:
        return False  # no instants in Tactical (DG-1.4)
    answers = g.answers  # a cheap look first: most of the time no card in hand or in play could answer
    if answers.isdisjoint(g.hand[p]) and answers.isdisjoint(g.users):
        return False
    phase, decider = g.phase, g.decider
    g.phase = RESPONSE_PHASE
    g.decider = p
    found = bool(instant_actions(g, p))
    g.phase, g.decider = phase, decider
    return found


def offer_response(g: Game) -> None:
    """Open the opponent's window, or keep it open after an answer, only while they have an instant they can
    play now (DG-15.5); otherwise play goes on in the main phase, or the turn ends if the window was its end."""
    p = 1 - g.active
    if _can_answer(g, p):
        g.phase = RESPONSE_PHASE
        g.decider = p
    elif g.phase == RESPONSE_PHASE:
        _close_window(g)


def _close_window(g: Game) -> None:
    g.phase = MAIN_PHASE
    if g.ending:  # DG-15.6: the end-of-turn window closed, so the turn ends
        g._j.extend(("ending", g.ending, SET))
        g.ending = False
        _end_turn(g)


def _target(g: Game, a: int, b: int) -> None:
    assert g.pending is not None
    g._j.extend((g.pending[4], POP))
    g.pending[4].append(a)
    if next_slot(g) is None:
        finish_pending(g)


def _discard(g: Game, a: int, b: int) -> None:
    chooser, victim, count = g.discards[0]
    iid = g._hand_iid(victim, a)
    g._keep(g.discards, g.discards[0])
    g._from_hand(victim, iid)
    g._j.extend((victim, BONE_POP))
    g.boneyard[victim].append(iid)
    if count > 1:
        g.discards[0][2] -= 1
    else:
        g.discards.pop(0)
        after_effect(g)


def _keep_hand(g: Game, a: int, b: int) -> None:
    _mulligan(g, False)


def _take_mulligan(g: Game, a: int, b: int) -> None:
    _mulligan(g, True)


# --- turn structure (DG-4.5, DG-5) ----------------------------------------------------------


def _mulligan(g: Game, take: bool) -> None:
    p = g.decider
    g._keep(g.mulled)
    if take:
        g._order_deck(p)
        g._keep(g.deck[p], g.hand[p])
        g.deck[p].extend(g.hand[p])
        g.hand[p].clear()
        g._j.extend(("rs", g.rs, SET))
        g.rs = _rng.shuffle(g.rs, g.deck[p])
        g._draw(p, OPENING_HAND)
    g.mulled[p] = True
    if p == 0:
        g.decider = 1
    else:
        _start_turn(g, 0)


def _start_turn(g: Game, p: int) -> None:
    # infl and used are replaced below, never changed again: the entry may keep them as they are. infl is kept
    # even when all zero: an earlier entry of this turn (a deploy's spent influence) restores into that very list
    g._j.extend((p, g.turn, g.active, g.infl, g.used or None, g.ap_next[p], g.tp[p], TURN))
    g.turn += 1
    g.active = p
    g.phase = MAIN_PHASE
    allowance = AP_PER_TURN + g.ap_next[p]  # DG-5.1, DG-5.2: the first turn too
    g.ap_next[p] = 0
    g.ap = allowance if allowance > 0 else 0
    g.rp = 0
    infl = [0] * 7
    tp = 0
    for u in g.units.values():
        if u.owner == p and u.subdued_by < 0:
            tp += 1
            if u.c.kind == "legend":
                infl[u.c.craft] += u.c.influence
    g.infl = infl
    g.tp[p] = tp
    g.used = set()
    offer_response(g)  # DG-15.6: the start-of-turn window, before the player on turn acts


def _end_turn(g: Game) -> None:
    t = g.turn
    expired = False
    for u in g.units.values():
        if u.mods or u.kwmods:
            mods = [m for m in u.mods if m[2] > t]
            kwmods = [m for m in u.kwmods if m[2] > t]
            if (len(mods), len(kwmods)) != (len(u.mods), len(u.kwmods)):
                g._keep(u)
                u.mods, u.kwmods = mods, kwmods
                u.recalc()
                expired = True
    if expired and (g.static_live or g.statics or g.gate_static):
        refresh_statics(g)  # a keyword that lapsed may change who an aura reaches
    if g.side_until:
        for iid, last in list(g.side_until.items()):
            if last <= t:
                owner = g.owner_of[iid]
                g._keep(g.sideline[owner], g.boneyard[owner], g.side_until)
                g.sideline[owner].remove(iid)
                g.boneyard[owner].append(iid)
                del g.side_until[iid]
    if g.revealed[0] or g.revealed[1]:
        g._j.extend(("revealed", g.revealed, SET))  # replaced, never changed again
        g.revealed = [[], []]
    if t >= TURN_LIMIT:
        if g.fmt == TACTICAL:
            _tactical_limit(g)  # DG-1.9
        else:
            _finish(g, DRAW_RESULT, "turn limit")
        return
    _start_turn(g, 1 - g.active)


def _tactical_limit(g: Game) -> None:
    """DG-1.9: at the turn limit of a Tactical game, the player nearer the win total (the vitality in the
    opponent's boneyard) wins; then the one with more vitality on the battlefield; only then is it a draw."""
    bone = g.bone_score
    if bone[0] != bone[1]:
        _finish(g, 0 if bone[1] > bone[0] else 1, "turn limit: boneyard")
        return
    held = [0, 0]
    for u in g.units.values():
        held[u.owner] += u.vit
    if held[0] != held[1]:
        _finish(g, 0 if held[0] > held[1] else 1, "turn limit: battlefield")
    else:
        _finish(g, DRAW_RESULT, "turn limit")


def check_win(g: Game) -> None:
    """DG-1.2 to DG-1.7: after every action."""
    f = g.fmt
    bone_goal = BONEYARD_GOAL[f]
    beyond_goal = BEYOND_GOAL[f] or FOREVER
    bone, beyond = g.bone_score, g.beyond_score
    if bone[0] < bone_goal and bone[1] < bone_goal and beyond[0] < beyond_goal and beyond[1] < beyond_goal:
        return
    won = [False, False]
    why = ["", ""]
    for p in (0, 1):
        if g.beyond_score[p] >= beyond_goal:
            won[p], why[p] = True, "beyond"
        if g.bone_score[1 - p] >= bone_goal:
            won[p], why[p] = True, why[p] or "boneyard"
    if won[0] and won[1]:
        _finish(g, DRAW_RESULT, "simultaneous")
    elif won[0] or won[1]:
        w = 0 if won[0] else 1
        _finish(g, w, why[w])


def _finish(g: Game, winner: int, condition: str) -> None:
    for name in ("winner", "condition", "combat", "pending", "discards"):
        g._j.extend((name, getattr(g, name), SET))
    g.winner = winner
    g.condition = condition
    g.phase = OVER_PHASE
    g.combat = None
    g.pending = None
    g.discards = []


# --- maneuvers, the gateway, combat (DG-8 to DG-13) ------------------------------------------


def _maneuver(g: Game, u: Unit, cell: int) -> None:
    board = g.board
    if cell == GATE and g.fmt != TACTICAL:
        g._leave_board(u)
        j = g._j
        j.extend((g.beyond[u.owner], POP))
        g.beyond[u.owner].append(u.iid)
        j.extend((g.beyond_score, u.owner, g.beyond_score[u.owner], ITEM))
        g.beyond_score[u.owner] += u.vit  # DG-9.1
        return
    g._lift(u)  # journals the unit and its cell
    occ = board[cell]
    if occ < 0:
        g._j.extend((cell, occ, BOARD))
        board[cell] = u.iid
        u.cell = cell
        return
    o = g.units[occ]
    if u.kw & KW_SUBDUE:  # DG-12.2
        g._j.extend((u.iid, "subduing", u.subduing, UATTR))
        g._j.extend((o.iid, "subdued_by", o.subdued_by, UATTR))
        u.cell = cell
        u.subduing = o.iid
        o.subdued_by = u.iid
    else:  # DG-12.4 execution
        g._kill(o)
        g._j.extend((cell, board[cell], BOARD))
        board[cell] = u.iid
        u.cell = cell


def _resolve_combat(g: Game) -> None:
    assert g.combat is not None
    tid, attackers, alloc = g.combat
    g._j.extend(("combat", g.combat, SET))
    g.combat = None
    g.phase = MAIN_PHASE
    target = g.units.get(tid)
    if target is None:
        return
    units = g.units
    live = [(units[a], melee) for a, melee in attackers if a in units]
    if not live:
        return
    if len(live) == 1 and len(attackers) == 1:
        alloc = {live[0][0].iid: target.dfn}
    total = sum(u.atk for u, _ in live)
    relic_attack = any(g._bears_relic_weapon(u) for u, _ in live)
    relic_defense = g._bears_relic_weapon(target)
    dmg = total - target.dfn
    hurt: list[Unit] = []
    if dmg > 0:
        _combat_damage(g, target, dmg, relic_attack)
        hurt.append(target)
    for u, melee in live:
        if melee:  # DG-10.7
            back = alloc.get(u.iid, 0) - u.atk
            if back > 0:
                _combat_damage(g, u, back, relic_defense)
                hurt.append(u)
    for u in hurt:  # DG-10.9: all damage first, then deaths
        if u.vit <= 0 and u.iid in units:
            g._kill(u)


def _combat_damage(g: Game, u: Unit, amount: int, relic: bool) -> None:
    g._j.extend((u.iid, "vit", u.vit, UATTR))
    if u.kw & KW_SPECTRAL and not relic:  # DG-13.1
        u.vit = max(u.vit - amount, 1) if u.vit > 1 else u.vit
    else:
        u.vit -= amount


_BY_KIND: tuple[Callable[[Game, int, int], None], ...] = (
    _end, _draw, _deploy, _recycle, _move, _attack, _strike, _defend, _pass, _equip, _play, _instant, _use,
    _ground, _fly, _target, _target, _discard, _keep_hand, _take_mulligan, _target,
)  # fmt: skip
assert (END, DRAW, DEPLOY, RECYCLE, MOVE, ATTACK, STRIKE, DEFEND, PASS, EQUIP, PLAY, INSTANT, USE, GROUND, FLY,
        TARGET_UNIT, TARGET_DIR, DISCARD, KEEP, MULLIGAN, TARGET_DIST) == tuple(range(21))  # fmt: skip
