"""The export of all of a player's decks (`/decks/export/`, JSON or text) imported back: each deck a new private
deck, all of them or none (docs/rules.md, DC-9)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from core.intbounds import shortened

from .decklist import deck_texts, list_name
from .errors import InvalidDeck, InvalidDeckCode, InvalidDeckList
from .models import Deck
from .services import deck_import

MAX_RESTORED_DECKS = 200  # more than a player builds; a file of more is refused whole, never cut short


def all_decks(text: str, data: Any) -> list[dict[str, Any]] | None:
    """The decks of an import holding several (the JSON export of all decks, or a text with several `# name:`
    lines), each as deck_import's arguments; None for one deck."""
    if isinstance(data, dict) and "decks" in data and "cards" not in data:
        if not isinstance(data["decks"], list) or not data["decks"]:
            raise InvalidDeck('The export of all decks holds a "decks" list of JSON decks.', details={"field": "decks"})
        return [{"data": deck} for deck in data["decks"]]
    if data is None and len(texts := deck_texts(text)) > 1:
        return [{"text": part} for part in texts]
    return None


def decks_restore(*, owner, decks: list[dict[str, Any]], format: str = "") -> list[Deck]:
    """Each deck imported as deck_import imports one, in one transaction: a deck that cannot be imported is refused
    with its place and name, and nothing is saved."""
    if len(decks) > MAX_RESTORED_DECKS:
        raise InvalidDeck(f"An import holds at most {MAX_RESTORED_DECKS} decks; this one holds {len(decks)}: import "
                          "them in parts.", details={"field": "list"})
    restored = []
    with transaction.atomic():
        for place, deck in enumerate(decks, start=1):
            try:
                restored.append(deck_import(owner=owner, format=format, **deck))
            except (InvalidDeckList, InvalidDeckCode, InvalidDeck) as exc:
                raise type(exc)(f"Deck {place} of {len(decks)}{_named(deck)}: {exc.message}",
                                code=exc.code, details={**exc.details, "deck": place}) from None
    return restored


def _named(deck: dict[str, Any]) -> str:
    data = deck.get("data")
    name = data.get("name") if isinstance(data, dict) else list_name(deck.get("text", ""))
    return f" (“{shortened(name, 40)}”)" if isinstance(name, str) and name else ""
