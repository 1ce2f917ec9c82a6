"""Which actions the rules allow: the legal actions of a position, and the check that names the rule an action
breaks (DG-4 to DG-18). Functions over the game's data, above the effects; they never change the game.

Both are one small function per action kind. The legal actions come in a fixed order (tests, records and
policies rely on it): end, draw, then the hand cards in hand order (deploy, equip or play, then recycle), the
instants, then each unit in order of play (ground or fly, maneuvers, attacks), then the abilities.
"""

from __future__ import annotations

from collections.abc import Callable

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
    NO_BEARER,
    PASS,
    PLAY,
    RECYCLE,
    STRIKE,
    TARGET_DIR,
    TARGET_DIST,
    TARGET_UNIT,
    USE,
    Action,
    IllegalAction,
)  # fmt: skip
from .board import _LINES, BACK_RANK, GATE, MASK_DIRS, RAYS, SIZE, VECTORS, lines, turn_dir
from .cards import KW_AVIATION, KW_EXECUTION, KW_SPECTRAL, KW_SUBDUE, UNIVERSAL, Compiled
from .effects import can_use, next_slot, playable, sources
from .zones import (
    COMBAT_PHASE,
    DEFENSE_PHASE,
    DISCARD_PHASE,
    MAIN_PHASE,
    MULLIGAN_PHASE,
    OVER_PHASE,
    RESPONSE_PHASE,
    TACTICAL,
    TARGET_PHASE,
    Game,
    Unit,
)  # fmt: skip

_NO_ARGS = frozenset({END, DRAW, STRIKE, PASS, KEEP, MULLIGAN})
_ONE_ARG = frozenset({RECYCLE, PLAY, INSTANT, GROUND, FLY, TARGET_UNIT, TARGET_DIR, DISCARD, TARGET_DIST})

# --- what units can reach (DG-8 to DG-12) ---------------------------------------------------


def move_targets(g: Game, u: Unit) -> list[int]:
    """Cells the unit may end a maneuver on (DG-8, DG-9, DG-11, DG-12)."""
    out = []
    board = g.board
    units = g.units
    gate = GATE if g.fmt != TACTICAL else -1
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
            if share and can_share(u, units[occ]):
                out.append(cell)
            if not flying:
                break  # DG-8.3
    return out


def can_share(u: Unit, o: Unit) -> bool:
    """DG-12: a grounded enemy alone on its cell, subdued or executed."""
    if o.owner == u.owner or o.flying or o.subdued_by >= 0 or o.subduing >= 0:
        return False
    if u.kw & KW_SUBDUE:
        return True
    return bool(u.kw & KW_EXECUTION) and o.vit < u.atk and not o.kw & KW_SPECTRAL


def attack_targets(g: Game, u: Unit) -> list[tuple[int, bool]]:
    """(target iid, melee) for each enemy the unit may attack (DG-10.1 to DG-10.4)."""
    out = []
    board = g.board
    units = g.units
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


def defense_left(g: Game) -> int | None:
    """Defense points still to distribute, or None when there is nothing to distribute (DG-10.8)."""
    assert g.combat is not None
    target = g.units.get(g.combat[0])
    if target is None or len(g.combat[1]) < 2:
        return None
    left: int = target.dfn - sum(g.combat[2].values())
    return left if left > 0 else None


# --- legal actions, by phase ----------------------------------------------------------------


def legal_actions(g: Game) -> list[Action]:
    """The legal actions of the player who decides now, in a fixed order (empty when the game is over)."""
    return _BY_PHASE[g.phase](g)


def _mulligan_actions(g: Game) -> list[Action]:
    return [(KEEP, 0, 0), (MULLIGAN, 0, 0)]


def _combat_actions(g: Game) -> list[Action]:
    """DG-10.5: more attackers on the same target, or strike."""
    out: list[Action] = [(STRIKE, 0, 0)]
    combat = g.combat
    if g.ap >= 1 and combat is not None:
        target = combat[0]
        joined = {a for a, _ in combat[1]}
        for u in g.units.values():
            if u.owner == g.active and u.iid not in joined and u.attacked != g.turn and g._can_act(u):
                for t, _ in attack_targets(g, u):
                    if t == target:
                        out.append((ATTACK, u.iid, t))
    return out


def _defense_actions(g: Game) -> list[Action]:
    """DG-10.8, DG-15.5: instants, then the defense to distribute or pass."""
    out = instant_actions(g, g.decider)
    remaining = defense_left(g)
    if remaining is None:
        out.append((PASS, 0, 0))
    else:
        assert g.combat is not None
        for a, _ in g.combat[1]:
            for n in range(1, remaining + 1):
                out.append((DEFEND, a, n))
    return out


def _response_actions(g: Game) -> list[Action]:
    """DG-15.5: the responder's instants, or pass (let the action stand)."""
    out = instant_actions(g, g.decider)
    out.append((PASS, 0, 0))
    return out


def _target_actions(g: Game) -> list[Action]:
    """DG-18.4: the next target of the effect being played: a unit, a direction or a distance (DG-18.7)."""
    slot = next_slot(g)
    if slot is not None and slot[0] == "unit":
        return [(TARGET_UNIT, iid, 0) for iid in slot[1]]
    if slot is not None and slot[0] == "dist":
        return [(TARGET_DIST, n, 0) for n in range(1, slot[1] + 1)]
    return [(TARGET_DIR, d, 0) for d in range(8)]


def answer_cells(g: Game) -> dict[Action, int]:
    """The cell each answer to a move's question (DG-18.7) points at on the board, for a table to light it:
    (TARGET_DIR, d) the first cell that way from the moving unit, (TARGET_DIST, n) the cell n away where it
    stops. Answers that lead off the board have none, and so has every other decision."""
    if g.phase != TARGET_PHASE or g.pending is None:
        return {}
    slot = next_slot(g)
    if slot is not None and slot[0] == "dir" and slot[1] in g.units:
        unit, ctrl = g.units[slot[1]], g.pending[0]
        ways = {(TARGET_DIR, d, 0): _cell_along(unit.cell, turn_dir(d, ctrl), 1) for d in range(8)}
        return {action: cell for action, cell in ways.items() if cell >= 0}
    if slot is not None and slot[0] == "dist" and slot[2] in g.units:
        reach, unit, way = slot[1], g.units[slot[2]], slot[3]
        return {(TARGET_DIST, n, 0): _cell_along(unit.cell, way, n) for n in range(1, reach + 1)}
    return {}


def _cell_along(cell: int, d: int, n: int) -> int:
    """The cell n steps from `cell` in absolute direction d, or -1 off the board."""
    df, dr = VECTORS[d]
    f, r = cell % SIZE + df * n, cell // SIZE + dr * n
    return r * SIZE + f if 0 <= f < SIZE and 0 <= r < SIZE else -1


def _discard_actions(g: Game) -> list[Action]:
    """DG-18.8: one card of each definition in the discarding player's hand."""
    victim = g.discards[0][1]
    seen = sorted({g.inst[iid].index for iid in g.hand[victim]})
    return [(DISCARD, d, 0) for d in seen]


def _over_actions(g: Game) -> list[Action]:
    return []


def _main_actions(g: Game) -> list[Action]:
    """A turn's actions (DG-5.4): end, draw, the hand's cards, the instants, the units, the abilities."""
    p = g.active
    out: list[Action] = [(END, 0, 0)]
    ap = g.ap
    # One pass over the hand: distinct definitions, and how many unit or legend cards it holds.
    hand_defs: dict[int, Compiled] = {}  # in hand order, which is deterministic
    board_cards = 0
    inst = g.inst
    for iid in g.hand[p]:
        c = inst[iid]
        if c.board:
            board_cards += 1
        hand_defs[c.index] = c
    if ap >= 1 and g.deck[p]:
        out.append((DRAW, 0, 0))  # DG-6.1
    if hand_defs:
        _hand_actions(g, p, hand_defs, board_cards, out)
    my_units = [u for u in g.units.values() if u.owner == p]
    turn = g.turn
    for u in my_units:
        if u.kw & KW_AVIATION and u.switched != turn and u.stun < turn and u.subdued_by < 0:
            out.append((GROUND if u.flying else FLY, u.iid, 0))  # DG-11.2
        if u.deployed == turn or u.stun >= turn or u.subdued_by >= 0 or ap < 1:
            continue
        if u.moved != turn:
            _moves(g, u, out)
        if u.attacked != turn:
            _attacks(g, u, out)
    if g.users:
        _uses(g, p, out)
    return out


def _hand_actions(g: Game, p: int, hand_defs: dict[int, Compiled], board_cards: int, out: list[Action]) -> None:
    """For each card in hand: deploy it, equip it or play it, then recycle it; the instants after them all."""
    ap = g.ap
    board = g.board
    empty_back = [c for c in BACK_RANK[p] if board[c] < 0] if ap >= 1 and board_cards else []
    tactical = g.fmt == TACTICAL
    instants: list[Action] = []
    infl = g.infl
    points = ap + g.rp
    any_infl = sum(infl) if empty_back else 0
    for d, c in hand_defs.items():
        if c.board:
            if empty_back and points + (any_infl if c.craft == UNIVERSAL else infl[c.craft]) >= c.vit:
                for cell in empty_back:  # DG-7
                    out.append((DEPLOY, d, cell))
        elif c.kind == "item":
            if c.cost <= ap or g._card_payable(c):  # DG-14.1, DG-17.4
                _equips(g, p, d, c, out)
        elif not tactical:  # talent or glyph
            if (c.cost <= ap or g._card_payable(c)) and playable(g, p, c):  # DG-15.1, DG-17.4
                out.append((PLAY, d, 0))
            if c.instant and c.tp_cost <= g.tp[p] and playable(g, p, c):  # DG-15.3
                instants.append((INSTANT, d, 0))
        out.append((RECYCLE, d, 0))  # DG-7.6: any card of the hand
    out.extend(instants)


def _equips(g: Game, p: int, d: int, c: Compiled, out: list[Action]) -> None:
    """DG-14: on the sideline or used up (battlefield items, consumables), else on one of p's units."""
    if c.consumable or c.battlefield_item:
        if playable(g, p, c):
            out.append((EQUIP, d, NO_BEARER))
    else:
        for u in g.units.values():
            if u.owner == p:
                out.append((EQUIP, d, u.iid))


def _moves(g: Game, u: Unit, out: list[Action]) -> None:
    """DG-8: move_targets, inlined with the cached lines of sight for speed."""
    board = g.board
    units = g.units
    gate = GATE if g.fmt != TACTICAL else -1
    iid = u.iid
    flying = u.flying
    share = u.kw & (KW_SUBDUE | KW_EXECUTION)
    reach = u.fmnv if flying else u.mnv
    if reach > 4:
        reach = 4  # no line on a 5x5 board is longer
    key = (u.cell << 12) | (u.mdirs << 4) | reach
    for line in _LINES.get(key) or lines(u.cell, u.mdirs, reach):
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
            if share and can_share(u, units[occ]):
                out.append((MOVE, iid, cell))
            if not flying:
                break


def _attacks(g: Game, u: Unit, out: list[Action]) -> None:
    """DG-10: attack_targets, inlined with the cached lines of sight for speed."""
    board = g.board
    units = g.units
    iid = u.iid
    owner = u.owner
    reach = u.rng if u.rng < 4 else 4
    key = (u.cell << 12) | (u.adirs << 4) | reach
    for line in _LINES.get(key) or lines(u.cell, u.adirs, reach):
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


def _uses(g: Game, p: int, out: list[Action]) -> None:
    """DG-18.2: the abilities p may use now."""
    for src, idx, ability in sources(g, p, affordable=True):
        if can_use(g, p, src, idx, ability):
            out.append((USE, src, idx))


def instant_actions(g: Game, p: int) -> list[Action]:
    """Instant cards and instant abilities payable with talent points (DG-15.3 to DG-15.5)."""
    out: list[Action] = []
    if g.fmt == TACTICAL:
        return out
    tp = g.tp[p]
    seen = set()
    for iid in g.hand[p]:
        c = g.inst[iid]
        if c.instant and c.index not in seen:
            seen.add(c.index)
            if c.tp_cost <= tp and playable(g, p, c):
                out.append((INSTANT, c.index, 0))
    if g.users:
        for src, idx, ability in sources(g, p, affordable=True):
            if ability.get("trigger") == "instant" and can_use(g, p, src, idx, ability):
                out.append((USE, src, idx))
    return out


_BY_PHASE: tuple[Callable[[Game], list[Action]], ...] = (
    _mulligan_actions, _main_actions, _combat_actions, _defense_actions, _target_actions, _discard_actions,
    _over_actions, _response_actions,
)  # fmt: skip
assert [MULLIGAN_PHASE, MAIN_PHASE, COMBAT_PHASE, DEFENSE_PHASE, TARGET_PHASE, DISCARD_PHASE, OVER_PHASE,
        RESPONSE_PHASE] == list(range(8))  # fmt: skip


# --- the check: the rule an action breaks, by phase and kind ----------------------------------


def check(g: Game, action: Action) -> None:
    """Raise IllegalAction, naming the rule, unless the player who decides now may take this action."""
    if not isinstance(action, tuple) or len(action) != 3 or not all(type(x) is int for x in action):
        raise IllegalAction("DG-19.1", f"{action!r} is not an action")
    kind, a, b = action
    if (kind in _NO_ARGS and (a or b)) or (kind in _ONE_ARG and b) or not 0 <= kind < 21:
        raise IllegalAction("DG-19.1", f"{action!r} is not an action")
    _CHECK_BY_PHASE[g.phase](g, kind, a, b)


def _check_over(g: Game, kind: int, a: int, b: int) -> None:
    raise IllegalAction("DG-1.7", "the game is over")


def _check_mulligan(g: Game, kind: int, a: int, b: int) -> None:
    if kind not in (KEEP, MULLIGAN):
        raise IllegalAction("DG-4.5", "before the first turn each player keeps or takes a mulligan")


def _check_target(g: Game, kind: int, a: int, b: int) -> None:
    slot = next_slot(g)
    if slot is not None and slot[0] == "unit":
        if kind != TARGET_UNIT or a not in slot[1]:
            raise IllegalAction("DG-18.4", "choose one of the legal targets")
    elif slot is not None and slot[0] == "dist":
        if kind != TARGET_DIST or not 1 <= a <= slot[1]:
            raise IllegalAction("DG-18.7", f"choose how far the unit moves: 1 to {slot[1]} cells")
    elif kind != TARGET_DIR or not 0 <= a < 8:
        raise IllegalAction("DG-18.4", "choose a direction")


def _check_discard(g: Game, kind: int, a: int, b: int) -> None:
    if kind != DISCARD:
        raise IllegalAction("DG-18.8", "a discard must be chosen first")
    if g._hand_iid(g.discards[0][1], a) < 0:
        raise IllegalAction("DG-18.8", "that card is not in the discarding player's hand")


def _check_defense(g: Game, kind: int, a: int, b: int) -> None:
    if kind in (INSTANT, USE):
        _check_instant_or_use(g, g.decider, kind, a, b)
        return
    remaining = defense_left(g)
    if kind == PASS:
        if remaining is not None:
            raise IllegalAction("DG-10.8", "the defender must distribute all of the defense first")
        return
    if kind == DEFEND:
        assert g.combat is not None
        if remaining is None:
            raise IllegalAction("DG-10.8", "with one attacker the defense is not distributed")
        if a not in {x for x, _ in g.combat[1]}:
            raise IllegalAction("DG-10.8", "defense goes to one of the attackers")
        if not 1 <= b <= remaining:
            raise IllegalAction("DG-10.8", f"{remaining} defense points are left to distribute")
        return
    raise IllegalAction("DG-10.8", "the defender distributes defense, plays instants or passes")


def _check_response(g: Game, kind: int, a: int, b: int) -> None:
    if kind in (INSTANT, USE):
        _check_instant_or_use(g, g.decider, kind, a, b)
    elif kind != PASS:
        raise IllegalAction("DG-15.5", "the opponent answers the action with an instant, or passes")


def _check_combat(g: Game, kind: int, a: int, b: int) -> None:
    if kind == STRIKE:
        return
    if kind != ATTACK:
        raise IllegalAction("DG-10.5", "declare another attacker on the same target, or strike")
    assert g.combat is not None
    if b != g.combat[0]:
        raise IllegalAction("DG-10.5", "all attackers of one attack have the same target")
    _check_attack(g, a, b)


def _check_main(g: Game, kind: int, a: int, b: int) -> None:
    check_kind = _CHECK_BY_KIND.get(kind)
    if check_kind is None:
        raise IllegalAction("DG-5.4", "that is not an action of a player's turn")
    check_kind(g, kind, a, b)


def _check_end(g: Game, kind: int, a: int, b: int) -> None:
    return


def _check_draw(g: Game, kind: int, a: int, b: int) -> None:
    if g.ap < 1:
        raise IllegalAction("DG-6.1", "drawing costs 1 AP")
    if not g.deck[g.active]:
        raise IllegalAction("DG-6.2", "the deck is empty")


def _check_deploy(g: Game, kind: int, a: int, b: int) -> None:
    p = g.active
    c = g._def(a)
    if c.kind not in ("unit", "legend"):
        raise IllegalAction("DG-7.1", f"{c.code} is not a unit or legend")
    if g._hand_iid(p, a) < 0:
        raise IllegalAction("DG-7.1", f"{c.code} is not in your hand")
    if b not in BACK_RANK[p]:
        raise IllegalAction("DG-2.4", "units are deployed on your back rank")
    if g.board[b] >= 0:
        raise IllegalAction("DG-7.1", "the deploy cell is occupied")
    if g.ap < 1:
        raise IllegalAction("DG-7.3", "deploying spends at least 1 AP")
    if g._available(c.craft) < c.vit:
        raise IllegalAction("DG-7.3", f"{c.code} costs {c.vit}; you have {g._available(c.craft)} points")


def _check_recycle(g: Game, kind: int, a: int, b: int) -> None:
    p = g.active
    c = g._def(a)
    if g._hand_iid(p, a) < 0:
        raise IllegalAction("DG-7.6", f"{c.code} is not in your hand")


def _check_move(g: Game, kind: int, a: int, b: int) -> None:
    u = _own_actor(g, a, "DG-8.1")
    if u.moved == g.turn:
        raise IllegalAction("DG-5.7", "this unit has already maneuvered this turn")
    if g.ap < 1:
        raise IllegalAction("DG-8.1", "a maneuver costs 1 AP")
    if b not in move_targets(g, u):
        raise IllegalAction(_why_no_move(g, u, b), "the unit can't maneuver to that cell")


def _check_attack_kind(g: Game, kind: int, a: int, b: int) -> None:
    _check_attack(g, a, b)


def _check_switch(g: Game, kind: int, a: int, b: int) -> None:
    """GROUND and FLY (DG-11.2)."""
    u = g._unit(a)
    if u.owner != g.active:
        raise IllegalAction("DG-11.2", "that is not your unit")
    if not u.kw & KW_AVIATION:
        raise IllegalAction("DG-11.2", "only aviation units fly")
    if u.flying != (kind == GROUND):
        raise IllegalAction("DG-11.2", "the unit is already " + ("grounded" if kind == GROUND else "flying"))
    if u.switched == g.turn:
        raise IllegalAction("DG-11.2", "an aviation unit switches at most once per turn")
    if u.stun >= g.turn or u.subdued_by >= 0:
        raise IllegalAction("DG-11.2", "a stunned or subdued unit can't switch")


def _unpaid(c: Compiled) -> str:
    """A card cost the player can't pay, in the words of what may pay it (DG-17.4 for universal cards)."""
    if c.craft == UNIVERSAL:
        return f"{c.code} costs {c.cost}: 1 AP, the rest in AP or influence of any colour (DG-17.4)"
    return f"{c.code} costs {c.cost} AP"


def _check_equip(g: Game, kind: int, a: int, b: int) -> None:
    p = g.active
    c = g._def(a)
    if c.kind != "item":
        raise IllegalAction("DG-14.1", f"{c.code} is not an item")
    if g._hand_iid(p, a) < 0:
        raise IllegalAction("DG-14.1", f"{c.code} is not in your hand")
    if not g._card_payable(c):
        raise IllegalAction("DG-14.1", _unpaid(c))
    if c.consumable or c.battlefield_item:
        if b != NO_BEARER:
            raise IllegalAction("DG-14.2" if c.battlefield_item else "DG-14.3", f"{c.code} has no bearer")
        if not playable(g, p, c):
            raise IllegalAction("DG-18.5", f"{c.code} has no legal target")
        return
    u = g.units.get(b)
    if u is None or u.owner != p:
        raise IllegalAction("DG-14.1", f"{c.code} goes on one of your own units on the battlefield; that is not one")


def _check_play(g: Game, kind: int, a: int, b: int) -> None:
    p = g.active
    c = g._def(a)
    if c.kind not in ("talent", "glyph"):
        raise IllegalAction("DG-15.1", f"{c.code} is not a talent or glyph")
    if g.fmt == TACTICAL:
        raise IllegalAction("DG-1.4", "talents and glyphs are not played in Tactical")
    if g._hand_iid(p, a) < 0:
        raise IllegalAction("DG-15.1", f"{c.code} is not in your hand")
    if not g._card_payable(c):
        raise IllegalAction("DG-15.1", _unpaid(c))
    if not playable(g, p, c):
        raise IllegalAction("DG-18.5", f"{c.code} has no legal target")


def _check_instant_or_use_kind(g: Game, kind: int, a: int, b: int) -> None:
    _check_instant_or_use(g, g.active, kind, a, b)


def _own_actor(g: Game, iid: int, rule: str) -> Unit:
    u = g._unit(iid)
    if u.owner != g.active:
        raise IllegalAction(rule, "that is not your unit")
    if u.deployed == g.turn:
        raise IllegalAction("DG-5.8", "a unit can't maneuver or attack in the turn it was deployed")
    if u.subdued_by >= 0:
        raise IllegalAction("DG-12.2", "a subdued unit can't maneuver or attack")
    if u.stun >= g.turn:
        raise IllegalAction("DG-18.3", "a stunned unit can't maneuver or attack")
    return u


def _why_no_move(g: Game, u: Unit, cell: int) -> str:
    """The rule a refused maneuver breaks, for the message."""
    if not 0 <= cell < 25:
        return "DG-2.1"
    gate = GATE if g.fmt != TACTICAL else -1
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
        if not u.flying and any(g.board[c] >= 0 for c in path):
            return "DG-8.3"
        if cell == gate:
            return "DG-9.2"
        if g.board[cell] >= 0:
            return "DG-12.1" if u.kw & (KW_SUBDUE | KW_EXECUTION) else "DG-8.3"
    return "DG-8.2"


def _check_attack(g: Game, a: int, b: int) -> None:
    u = _own_actor(g, a, "DG-10.1")
    if u.attacked == g.turn:
        raise IllegalAction("DG-5.7", "this unit has already attacked this turn")
    if g.ap < 1:
        raise IllegalAction("DG-10.1", "an attack costs 1 AP")
    if all(t != b for t, _ in attack_targets(g, u)):
        o = g.units.get(b)
        if o is not None and o.owner != u.owner and o.flying and max(
            abs(o.cell % 5 - u.cell % 5), abs(o.cell // 5 - u.cell // 5)
        ) == 1:
            raise IllegalAction("DG-10.4", "only ranged attacks can target a flying unit")
        raise IllegalAction("DG-10.1", "the target is not an enemy in the unit's attack directions and range")


def _check_instant_or_use(g: Game, p: int, kind: int, a: int, b: int) -> None:
    if g.fmt == TACTICAL and kind == INSTANT:
        raise IllegalAction("DG-1.4", "talents and glyphs are not played in Tactical")
    if kind == INSTANT:
        c = g._def(a)
        if not c.instant:
            raise IllegalAction("DG-15.3", f"{c.code} is not an instant")
        if g._hand_iid(p, a) < 0:
            raise IllegalAction("DG-15.3", f"{c.code} is not in your hand")
        if c.tp_cost > g.tp[p]:
            raise IllegalAction("DG-15.4", f"{c.code} costs {c.tp_cost} talent points; you have {g.tp[p]}")
        if not playable(g, p, c):
            raise IllegalAction("DG-18.5", f"{c.code} has no legal target")
        return
    for src, idx, ability in sources(g, p):
        if src == a and idx == b:
            trig = ability.get("trigger")
            if trig == "activated" and g.phase != MAIN_PHASE:
                raise IllegalAction("DG-18.2", "activated abilities are used on your own turn")
            if not can_use(g, p, src, idx, ability):
                raise IllegalAction("DG-18.2", "that ability can't be used now")
            return
    raise IllegalAction("DG-18.2", "you control no such ability")


Check = Callable[[Game, int, int, int], None]
_CHECK_BY_KIND: dict[int, Check] = {
    END: _check_end, DRAW: _check_draw, DEPLOY: _check_deploy, RECYCLE: _check_recycle, MOVE: _check_move,
    ATTACK: _check_attack_kind, GROUND: _check_switch, FLY: _check_switch, EQUIP: _check_equip, PLAY: _check_play,
    INSTANT: _check_instant_or_use_kind, USE: _check_instant_or_use_kind,
}  # fmt: skip
_CHECK_BY_PHASE: tuple[Check, ...] = (
    _check_mulligan, _check_main, _check_combat, _check_defense, _check_target, _check_discard, _check_over,
    _check_response,
)  # fmt: skip
