"""Reads for the goldfish table and the replay viewer."""

from __future__ import annotations

from typing import Any

from cards.selectors import card_texts
from playtest.goldfish.board import CardFaces


def card_faces(*, decks: list[dict[str, Any]]) -> CardFaces:
    """The cards of these deck snapshots, with the catalog's rules text (a card it lacks is drawn plainly)."""
    codes = {code for d in decks for code in d["cards"]}
    return CardFaces.from_decks(decks, card_texts(codes=codes))
