"""Every card of the catalog runs in the engine: the 8,100 units compile, and every ability of every
authored card is played, deployed, activated or applied in a real position without an error."""

from __future__ import annotations

import itertools
import random

import pytest

from playtest.dreadgate import State, check_ability, format_action, new_game
from playtest.dreadgate.actions import DEPLOY, EQUIP, INSTANT, NO_BEARER, PLAY, USE
from playtest.dreadgate.board import parse_cell
from playtest.dreadgate.cards import Compiled
from playtest.dreadgate.effects import refresh_statics
from playtest.dreadgate.state import MAIN_PHASE
from playtest.simulation.catalog import catalog_cards, starter_decks

from .factories import FILLER, attach, game, item, put, unit
from .test_properties import check_invariants

AUTHORED = sorted(
    (c for c in catalog_cards().values() if c.type != "unit"), key=lambda c: c.collector_number
)  # fmt: skip
CRAFTS = ("artifice", "champion", "divine", "engineering", "hinter", "sorcery", "universal")
TARGETS = [
    unit("U-T1", 6, 2, 2, 2, 1, craft="champion"),
    unit("U-T2", 5, 2, 1, 2, 1, craft="sorcery", kw=["spectral"]),
    unit("U-T3", 4, 1, 1, 1, 1, craft="hinter", kw=["aviation"], fm=2),
    unit("U-T4", 7, 3, 3, 1, 1, craft="universal", type="legend", influence=1),
    *(unit(f"U-C{i}", 5, 2, 2, 2, 1, craft=craft) for i, craft in enumerate(CRAFTS)),
    *(unit(f"U-D{i}", 4, 1, 2, 2, 1, craft=craft) for i, craft in enumerate(CRAFTS)),
]

BORNE = [item(f"I-S{i}", subtype=sub, cost=0) for i, sub in enumerate(
    ("armor", "equipment", "exotic", "musical instrument", "weapon", "relic", "relic weapon", "relic armor"))]


def test_every_generated_unit_compiles():
    units = [c for c in catalog_cards().values() if c.type == "unit"]
    assert len(units) == 8100
    for i, card in enumerate(units):
        c = Compiled(card, i)  # raises CardDataError on an unknown keyword or a missing stat
        assert c.vit == card.vitality and c.kw >= 0
        for ability in card.abilities:
            check_ability(ability)


@pytest.mark.parametrize("card", [c for c in AUTHORED if c.abilities], ids=lambda c: c.collector_number)
def test_every_ability_of_every_authored_card_executes(card):
    for ability in card.abilities:
        check_ability(ability)  # every op, selector, filter, duration and trigger is one the engine runs
    s = position(card)
    me = s.active
    triggers = {a["trigger"] for a in card.abilities}
    if card.type in ("unit", "legend"):
        apply_and_resolve(s, (DEPLOY, s.by_code[card.collector_number], parse_cell("a1")))
        u = next(u for u in s.units.values() if u.c.code == card.collector_number)
        u.deployed = s.turn - 1
        s.board[u.cell], s.board[parse_cell("d4")], u.cell = -1, u.iid, parse_cell("d4")  # among the enemies
        refresh_statics(s)
        s._stamp += 1
        source = u.iid
    elif card.type == "item":
        d = s.by_code[card.collector_number]
        c = s.defs[d]
        bearer = NO_BEARER if (c.consumable or c.battlefield_item) else next(
            u.iid for u in s.units.values() if u.owner == me)  # fmt: skip
        apply_and_resolve(s, (EQUIP, d, bearer))
        source = next((i for i in s.item_bearer if s.inst[i].code == card.collector_number), None)
        if source is None:
            source = next((i for i in s.sideline[me] if s.inst[i].code == card.collector_number), None)
    elif card.type in ("talent", "glyph"):
        d = s.by_code[card.collector_number]
        apply_and_resolve(s, (PLAY, d, 0))
        if s.defs[d].instant:  # and, in a fresh position, for talent points (DG-15.3)
            check_invariants(s)
            s = position(card)
            apply_and_resolve(s, (INSTANT, d, 0))
        source = None
    else:
        source = None
    if source is not None:
        for idx, ability in enumerate(card.abilities):
            if ability["trigger"] in ("activated", "instant"):
                s.ap, s.tp[me] = 10, 10
                s._stamp += 1
                apply_and_resolve(s, (USE, source, idx))
    if triggers & {"static", "equipped"} and source is not None:
        refresh_statics(s)
        assert any(u.smods or u.skw for u in s.units.values()), "a continuous ability applied to no unit"
    check_invariants(s)


def position(card) -> State:
    """A board with friendly and enemy units of several kinds near each other, the card in hand."""
    s = game(card, *TARGETS, *BORNE)
    me = s.active
    for p, code, cell in ((me, "U-F00", "b2"), (me, "U-F01", "c2"), (me, "U-T1", "d2"), (me, "U-T3", "e2"),
                          (1 - me, "U-F02", "b3"), (1 - me, "U-T2", "d3"), (1 - me, "U-F03", "c4"),
                          (1 - me, "U-T4", "e3"), (1 - me, "U-T1", "a3"), (1 - me, "U-T3", "b5")):  # fmt: skip
        put(s, p, code, cell)
    # friendly units of every craft, around d4 (where a deployed unit is moved) and near b2 (item bearer)
    # (the card's own craft next to d4 and to the bearer b2, since crafts' auras favour their own units)
    own = CRAFTS.index(card.craft)
    order = [own] + [i for i in range(7) if i != own]
    for i, cell in zip(order, ("c5", "d5", "e5", "e4", "a2", "a4", "b4"), strict=True):
        put(s, me, f"U-C{i}", cell)
    put(s, me, f"U-D{own}", "c1")
    for borne in BORNE:  # a friendly and an enemy unit bear an item of every subtype
        attach(s, me, borne.collector_number, s.units[s.board[parse_cell("d5")]])
        attach(s, 1 - me, borne.collector_number, s.units[s.board[parse_cell("c4")]])
    for p in (0, 1):
        for code in ("U-F10", "U-F11", "U-F12"):
            s.hand[p].append(next(i for i in s.deck[p] if s.inst[i].code == code))
            s.deck[p].remove(s.hand[p][-1])
    s.hand[me].append(next(i for i in s.deck[me] if s.inst[i].code == card.collector_number))
    s.deck[me].remove(s.hand[me][-1])
    s.ap, s.rp, s.tp[me] = 10, 10, 10
    s._stamp += 1
    return s


def apply_and_resolve(s: State, action) -> None:
    assert action in s.legal_actions(), f"{format_action(s, action)} should be legal here"
    s.apply(action)
    while s.phase != MAIN_PHASE and not s.is_over():  # choose targets, discards, ... with the first option
        s.apply(s.legal_actions()[0])


def test_the_starter_decks_are_playable_deck_lists():
    decks = starter_decks()
    assert len(decks) == 6
    for deck in decks.values():
        new_game([deck, deck], 0)


@pytest.mark.parametrize("pair", list(itertools.combinations_with_replacement(sorted(starter_decks()), 2)),
                         ids=lambda p: f"{p[0]}-{p[1]}")  # fmt: skip
def test_twenty_random_games_of_every_starter_pair_end_without_error(pair):
    decks = starter_decks()
    for seed in range(20):
        s = new_game([decks[pair[0]], decks[pair[1]]], seed)
        rnd = random.Random(seed)
        while not s.is_over():
            s.apply(rnd.choice(s.legal_actions()))
        assert s.winner in (0, 1, 2) and s.condition in ("beyond", "boneyard", "turn limit", "simultaneous")
        assert s.turn <= 100


def test_filler_is_distinct_from_catalog_numbers():
    assert not {c.collector_number for c in FILLER} & set(catalog_cards())
