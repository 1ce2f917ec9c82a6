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


@lru_cache(maxsize=1)
def starter_decks() -> dict[str, list[CardDef]]:
    """Each craft's starter deck as a deck list: its cards with their copies, and its gateway pair (DC-7)."""
    cards = catalog_cards()
    out = {}
    for craft, deck in load_starter_decks().items():
        listed = [cards[number] for number, copies in deck.cards for _ in range(copies)]
        out[craft] = listed + [cards[deck.gateway], cards[deck.gateway]]
    return out
