"""Hand-built Dreadgate cards and positions for the engine tests."""

from __future__ import annotations

from playtest.dreadgate import CardDef, State, new_game, parse_action
from playtest.dreadgate.board import parse_cell
from playtest.dreadgate.effects import refresh_statics
from playtest.dreadgate.state import Unit

ALL = 255
N, NE, E, SE, S, SW, W, NW = (1 << i for i in range(8))


def unit(code: str, vit=3, atk=2, dfn=1, rng=1, mnv=1, *, adirs=ALL, mdirs=ALL, craft="champion", kw=(), fm=None,
         type="unit", influence=None, abilities=()) -> CardDef:  # fmt: skip
    return CardDef(
        collector_number=code, name=f"Card {code}", craft=craft, type=type, vitality=vit, attack=atk, defense=dfn,
        range=rng, maneuver=mnv, flying_maneuver=fm, attack_directions=adirs, maneuver_directions=mdirs,
        keywords=list(kw), influence=influence, abilities=list(abilities),
    )  # fmt: skip


def legend(code: str, vit=4, atk=2, dfn=2, influence=2, craft="sorcery", abilities=()) -> CardDef:
    return unit(code, vit, atk, dfn, 1, 1, craft=craft, type="legend", influence=influence, abilities=abilities)


def talent(code: str, *abilities, cost=1, subtype="talent", instant=False, craft="sorcery", type="talent"):
    return CardDef(collector_number=code, name=f"Card {code}", craft=craft, type=type, subtype=subtype, cost=cost,
                   is_instant=instant, abilities=list(abilities))  # fmt: skip


def item(code: str, *abilities, cost=1, subtype="weapon", consumable=False, craft="engineering"):
    return CardDef(collector_number=code, name=f"Card {code}", craft=craft, type="item", subtype=subtype, cost=cost,
                   is_consumable=consumable, abilities=list(abilities))  # fmt: skip


def gateway(*abilities) -> CardDef:
    return CardDef(collector_number="X-GATE", name="Gateway", craft="universal", type="gateway",
                   abilities=list(abilities))  # fmt: skip


def ability(trigger: str, effect: dict, cost: int = 0, name: str = "Test") -> dict:
    return {"name": name, "trigger": trigger, "cost": cost, "text": name, "effect": effect}


FILLER = [unit(f"U-F{i:02d}", vit=2, atk=1, dfn=1) for i in range(30)]


def game(*cards: CardDef, fmt: str = "standard", seed: int = 1, keep: bool = True) -> State:
    """A game where both seats hold the same pool (the given cards, once each, plus fillers), past the mulligans.

    The hands are emptied so that each test gives exactly the cards it needs.
    """
    pool = list(cards) + FILLER
    state = new_game([pool, pool], seed, fmt)
    if keep:
        state.apply((18, 0, 0))  # keep
        state.apply((18, 0, 0))
        for p in (0, 1):
            state.deck[p].extend(state.hand[p])
            state.hand[p].clear()
        state._stamp += 1
    return state


def _take(state: State, p: int, code: str) -> int:
    state._stamp += 1  # the position changes by hand: no cached legal actions survive it
    for zone in (state.deck[p], state.hand[p]):
        for iid in zone:
            if state.inst[iid].code == code:
                zone.remove(iid)
                return iid
    raise AssertionError(f"{code} is not in seat {p}'s deck or hand")


def give(state: State, p: int, code: str) -> int:
    iid = _take(state, p, code)
    state.hand[p].append(iid)
    return iid


def put(state: State, p: int, code: str, cell: str, *, fresh=False, flying=None, vit=None) -> Unit:
    """Place a unit on the battlefield as if it had been deployed on an earlier turn (or this turn if fresh)."""
    iid = _take(state, p, code)
    c = state.inst[iid]
    u = Unit(iid, p, c, parse_cell(cell), state.turn if fresh else state.turn - 1)
    if flying is not None:
        u.flying = flying
    if vit is not None:
        u.vit = vit
    state.units[iid] = u
    state.board[u.cell] = iid
    if c.has_static:
        state.statics.add(iid)
    if c.has_use:
        state.users.add(iid)
    refresh_statics(state)
    return u


def attach(state: State, p: int, code: str, bearer: Unit) -> int:
    iid = _take(state, p, code)
    bearer.items.append(iid)
    state.item_bearer[iid] = bearer.iid
    c = state.inst[iid]
    if c.has_static:
        state.statics.add(iid)
    if c.has_use:
        state.users.add(iid)
    refresh_statics(state)
    return iid


def play(state: State, *texts: str) -> None:
    for text in texts:
        state.apply(parse_action(state, text))


def end_turn(state: State) -> None:
    state.apply((0, 0, 0))


def _t(select="chosen", side="enemy", **extra) -> dict:
    return {"select": select, "side": side, **extra} if select in ("chosen", "all") else {"select": select}


def rich_pool() -> list[CardDef]:
    """Cards that between them use every primitive, selector, trigger and keyword of the vocabulary."""
    ab = ability
    return [
        legend("L-SOR-01", influence=3, abilities=[
            ab("activated", {"op": "damage", "amount": 1, "target": _t(count=2)}, cost=1),
            ab("static", {"op": "modify", "stat": "defense", "amount": 1, "duration": "while_source",
                          "target": _t("all", "friendly", filter={"within": 1})}),
        ]),
        legend("L-CHA-01", craft="champion", influence=2, abilities=[
            ab("instant", {"op": "heal", "amount": 2, "target": _t(side="friendly")}, cost=1),
            ab("deploy", {"op": "draw", "player": "self", "amount": 1}),
        ]),
        unit("U-AV1", 3, 2, 1, 2, 1, kw=["aviation"], fm=3),
        unit("U-SUB", 3, 2, 2, 1, 2, kw=["subdue"]),
        unit("U-EXE", 4, 5, 1, 1, 2, kw=["execution"]),
        unit("U-SPC", 3, 1, 3, 2, 1, kw=["spectral"], craft="universal"),
        unit("U-DEP", 2, 1, 1, 1, 1, abilities=[
            ab("deploy", {"op": "move", "distance": 2, "direction": "forward", "target": {"select": "self"}}),
        ]),
        talent("T-SOR-01", ab("play", {"op": "sequence", "steps": [
            {"op": "damage", "amount": 2, "target": _t(filter={"max_vitality": 5})},
            {"op": "stun", "duration": "next_turn", "target": {"select": "previous"}},
        ]}), subtype="spell talent"),
        talent("T-SOR-02", ab("instant", {"op": "modify", "stat": "attack", "amount": -2, "duration": "end_of_turn",
                                          "target": _t("all", "enemy")}, cost=1), instant=True),
        talent("T-SOR-03", ab("play", {"op": "move", "distance": 2, "direction": "chosen", "target": _t(side="any")}),
               subtype="intrigue talent"),
        talent("T-SOR-04", ab("play", {"op": "sequence", "steps": [
            {"op": "discard", "player": "opponent", "amount": 1, "chooser": "owner"},
            {"op": "reveal_hand", "player": "opponent", "amount": 0},
            {"op": "action_points", "player": "self", "amount": 1, "when": "this_turn"},
        ]}), subtype="intrigue talent"),
        talent("T-SOR-05", ab("play", {"op": "sequence", "steps": [
            {"op": "grant_keyword", "keyword": "spectral", "duration": "permanent", "target": _t(side="friendly")},
            {"op": "modify", "stat": "maneuver", "amount": 1, "duration": "permanent",
             "target": {"select": "previous"}},
        ]}), subtype="enchant talent"),
        talent("T-SOR-06", ab("play", {"op": "modify", "stat": "defense", "amount": 2, "duration": "next_turn",
                                       "target": _t("all", "friendly")}), subtype="battlefield talent"),
        talent("T-SOR-07", ab("play", {"op": "sequence", "steps": [
            {"op": "search_deck", "player": "self", "amount": 1, "filter": {"type": ["unit"]}},
            {"op": "influence", "player": "self", "amount": 2, "craft": "own"},
            {"op": "discard", "player": "opponent", "amount": 1, "chooser": "random"},
            {"op": "action_points", "player": "opponent", "amount": -1, "when": "next_turn"},
        ]})),
        talent("G-SOR-01", ab("play", {"op": "sequence", "steps": [
            {"op": "return_to_hand", "target": _t(filter={"type": ["unit"]})},
            {"op": "discard", "player": "opponent", "amount": 1, "chooser": "controller"},
        ]}), type="glyph", subtype="", cost=2),
        talent("G-SOR-02", ab("instant", {"op": "destroy", "target": _t(filter={"keyword": "spectral"})}, cost=2),
               type="glyph", subtype="", instant=True),
        talent("T-SOR-08", ab("play", {"op": "sequence", "steps": [
            {"op": "remove_keyword", "keyword": "aviation", "duration": "end_of_turn", "target": _t("all", "any")},
            {"op": "move", "distance": 1, "direction": "away", "target": {"select": "previous"}},
        ]})),
        item("I-ENG-01", ab("equipped", {"op": "sequence", "steps": [
            {"op": "modify", "stat": "attack", "amount": 2, "duration": "while_source", "target": {"select": "bearer"}},
            {"op": "grant_keyword", "keyword": "subdue", "duration": "while_source", "target": {"select": "bearer"}},
        ]}), subtype="relic weapon"),
        item("I-ENG-02", ab("consumable", {"op": "heal", "amount": 3, "target": _t(side="friendly")}), cost=0,
             subtype="equipment", consumable=True),
        item("I-ENG-03", ab("static", {"op": "modify", "stat": "range", "amount": 1, "duration": "while_source",
                                       "target": _t("all", "friendly", filter={"bears": "any"})}),
             ab("activated", {"op": "move", "distance": 1, "direction": "toward",
                              "target": _t(side="enemy")}, cost=1), subtype="battlefield"),
        item("I-ENG-04", ab("activated", {"op": "stun", "duration": "end_of_turn",
                                          "target": _t(filter={"within": 2})}, cost=1), subtype="armor"),
        unit("U-GRT", 2, 1, 1, 1, 1, abilities=[
            ab("deploy", {"op": "grant_keyword", "keyword": "aviation", "duration": "permanent",
                          "target": {"select": "self"}}),
            ab("activated", {"op": "move", "distance": 1, "direction": "backward",
                             "target": _t("all", "enemy", filter={"within": 1, "min_vitality": 1})}, cost=1),
        ]),
    ]


def rich_deck() -> list[CardDef]:
    from cards.catalog.units import generate_units

    pool = rich_pool()
    units = [CardDef.from_dict(u) for u in generate_units()[::300]]
    return pool + pool + units
