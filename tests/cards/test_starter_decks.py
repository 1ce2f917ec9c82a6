"""Starter decks: two per craft (Standard and Tactical), built around their craft. Their legality is checked by
the deck validator itself, where they are loaded (tests/decks/test_starters.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from cards.catalog.build import default_catalog
from cards.catalog.starter_decks import load_starter_decks

CRAFTS = ("artifice", "champion", "divine", "engineering", "hinter", "sorcery")


@pytest.fixture(scope="module")
def decks():
    return load_starter_decks(fmt="standard")


@pytest.fixture(scope="module")
def tactical():
    return load_starter_decks(fmt="tactical")


def test_one_starter_deck_per_craft_and_format(decks, tactical):
    assert sorted(decks) == sorted(CRAFTS)
    assert sorted(tactical) == sorted(f"{craft}-tactical" for craft in CRAFTS)
    assert sorted(deck.craft for deck in tactical.values()) == sorted(CRAFTS)
    assert sorted(load_starter_decks()) == sorted([*decks, *tactical])


@pytest.mark.parametrize("craft", CRAFTS)
def test_a_tactical_starter_holds_only_units_and_items_and_no_gateway(tactical, craft):
    """DC-6, DC-7, DG-1.4: units and Inventory Items, no legend, talent, glyph or gateway."""
    deck = tactical[f"{craft}-tactical"]
    by_number = default_catalog().by_number()
    assert deck.format == "tactical" and deck.gateway == ""
    assert {by_number[number]["type"] for number, _ in deck.cards} == {"unit", "item"}
    assert all(by_number[number]["craft"] in (craft, "universal") for number, _ in deck.cards)


@pytest.mark.parametrize("craft", CRAFTS)
def test_starter_deck_is_a_sensible_mix_of_its_craft(decks, craft):
    by_number = default_catalog().by_number()
    deck = decks[craft]
    types = Counter()
    for number, count in deck.cards:
        card = by_number[number]
        assert card["craft"] in (craft, "universal"), number
        types[card["type"]] += count
    assert types["legend"] >= 3 and types["glyph"] == 5
    assert types["unit"] >= 12 and types["talent"] >= 8 and types["item"] >= 4
    assert by_number[deck.gateway]["type"] == "gateway"

