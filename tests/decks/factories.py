"""Test helpers: cards and decks made in code (names and stats chosen never to clash with the catalog)."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from cards.models import Card
from decks.cardinfo import CardInfo, Entry
from decks.selectors import card_info, clear_card_index

_seq = itertools.count(1)


def info(type: str = "unit", *, name: str | None = None, craft: str = "champion", unique: bool = False,
         vitality: int | None = 3, **stats) -> CardInfo:
    """A pure CardInfo for validator and parser tests (no database)."""
    n = next(_seq)
    return CardInfo(
        id=10_000_000 + n, collector_number=f"T-{n:05d}", name=name or f"Test {type.title()} {n}", craft=craft,
        type=type, is_unique=unique, vitality=vitality if type in ("unit", "legend") else None,
        attack=stats.get("attack", 2), defense=stats.get("defense", 2), range=stats.get("range", 1),
        maneuver=stats.get("maneuver", 1),
    )


def make_card(type: str = "unit", *, name: str | None = None, craft: str = "champion", unique: bool = False,
              vitality: int | None = 3, collector_number: str | None = None, **fields) -> Card:
    """A card in the database; units get an attack outside the catalog's stat space so they never clash."""
    n = next(_seq)
    stats = {}
    if type in ("unit", "legend"):
        stats = {"vitality": vitality, "attack": fields.pop("attack", 100 + n), "defense": fields.pop("defense", 2),
                 "range": fields.pop("range", 1), "maneuver": fields.pop("maneuver", 1)}
    card = Card.objects.create(
        collector_number=collector_number or f"T-{n:05d}", name=name or f"Zz Test {type.title()} {n}", craft=craft,
        type=type, is_unique=unique, catalog_version="test", **stats, **fields,
    )
    clear_card_index()
    return card


def make_user(username: str | None = None, *, staff: bool = False):
    n = next(_seq)
    return get_user_model().objects.create_user(username or f"player{n}", password="pw-for-tests-only",
                                                is_staff=staff)


def entries_of(*pairs: tuple[Card | CardInfo, int]) -> list[Entry]:
    return [Entry(c if isinstance(c, CardInfo) else card_info(c), n) for c, n in pairs]


def legal_pool(size: int = 10, **kwargs) -> list[Card]:
    """`size` distinct non-unique units: 4 copies of 9 of them make a legal 36-card deck."""
    return [make_card("unit", **kwargs) for _ in range(size)]


def legal_deck(owner, name: str = "Tagged API deck", **kwargs):
    """A legal deck of 4 copies of 9 units, and those units."""
    from decks.services import deck_create

    pool = legal_pool(9)
    return deck_create(owner=owner, name=name, entries=entries_of(*[(c, 4) for c in pool]), **kwargs), pool


def considering_of(deck) -> list[tuple[str, int]]:
    from decks.selectors import deck_considering

    return [(e.card.collector_number, e.count) for e in deck_considering(deck)]
