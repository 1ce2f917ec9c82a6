"""The shipped catalog and starter decks as engine card lists (pure Python, no database)."""

from __future__ import annotations

from functools import lru_cache

from cards.catalog.build import default_catalog
from cards.catalog.starter_decks import load_starter_decks
from playtest.dreadgate.cards import CardDef


@lru_cache(maxsize=1)
def catalog_cards() -> dict[str, CardDef]:
    """Every catalog card (authored and the 8,100 units) by collector number."""
    return {c["collector_number"]: CardDef.from_dict(c) for c in default_catalog().cards}


@lru_cache(maxsize=3)
def starter_decks(fmt: str = "standard") -> dict[str, list[CardDef]]:
    """Each craft's starter deck for a format (Standard and Quick share theirs) as a deck list, by craft: its
    cards with their copies, and its gateway pair (DC-7) where the format has a gateway."""
    cards = catalog_cards()
    out = {}
    for deck in load_starter_decks(fmt="tactical" if fmt == "tactical" else "standard").values():
        listed = [cards[number] for number, copies in deck.cards for _ in range(copies)]
        out[deck.craft] = listed + ([cards[deck.gateway]] * 2 if deck.gateway else [])
    return out
