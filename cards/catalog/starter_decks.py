"""The starter deck lists (cards/catalog/data/starter_decks.yaml), resolved to collector numbers.

Pure Python: the decks app turns them into Deck rows, the rules engine and benches play them as they
are. Cards are named in the file by card name or collector number.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from .authored import DATA_DIR, CatalogDataError
from .build import Catalog, default_catalog

STARTER_DECKS_FILE = DATA_DIR / "starter_decks.yaml"


@dataclass(frozen=True, slots=True)
class StarterDeck:
    craft: str
    name: str
    description: str
    gateway: str  # collector number of the gateway card that comes with the deck ("" in Tactical: none)
    cards: tuple[tuple[str, int], ...]  # (collector number, copies), in file order
    format: str = "standard"  # the format it is built for (a Tactical deck plays only there)

    @property
    def size(self) -> int:
        return sum(n for _, n in self.cards)


def load_starter_decks(catalog: Catalog | None = None, path: Path = STARTER_DECKS_FILE,
                       fmt: str | None = None) -> dict[str, StarterDeck]:
    """The starter decks by key (a craft, or `<craft>-tactical`), or only those of one format; every card
    reference is checked against the catalog."""
    catalog = catalog or default_catalog()
    by_number = catalog.by_number()
    by_name = {c["name"]: c["collector_number"] for c in catalog.cards}
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    errors: list[str] = []
    decks: dict[str, StarterDeck] = {}
    for key, deck in (data.get("decks") or {}).items():
        where = f"decks.{key}"
        craft = deck.get("craft", key)
        deck_format = deck.get("format", "standard")
        cards = []
        for ref, count in (deck.get("cards") or {}).items():
            number = ref if ref in by_number else by_name.get(ref)
            if number is None:
                errors.append(f"{where}.cards: {ref!r} is neither a card name nor a collector number")
            elif not isinstance(count, int) or isinstance(count, bool) or count < 1:
                errors.append(f"{where}.cards.{ref}: the count must be a whole number from 1")
            else:
                cards.append((number, count))
        gateway = deck.get("gateway", "")
        if deck_format == "tactical":
            if gateway:
                errors.append(f"{where}.gateway: a Tactical deck has no gateway (DC-7)")
        elif by_number.get(gateway, {}).get("type") != "gateway":
            errors.append(f"{where}.gateway: {gateway!r} is not a gateway card")
        if fmt is None or deck_format == fmt:
            decks[key] = StarterDeck(craft, deck.get("name", ""), deck.get("description", ""), gateway, tuple(cards),
                                     deck_format)
    if errors:
        raise CatalogDataError(errors, path.name)
    return decks

