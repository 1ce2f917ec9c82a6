"""The few facts about a card that deck building needs, as plain data.

Validation, list parsing, deck codes and statistics work on these, never on model
instances, so that they stay pure and fast (a 60-card deck validates in microseconds).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.cardtypes import GATEWAY, GLYPH, ITEM, LEGEND, MAIN_DECK_TYPES, TALENT, TYPE_LABELS, TYPE_ORDER, UNIT
from core.crafts import UNIVERSAL

__all__ = ["GATEWAY", "GLYPH", "ITEM", "LEGEND", "MAIN_DECK_TYPES", "TALENT", "TYPE_LABELS", "TYPE_ORDER", "UNIT",
           "UNIVERSAL", "CardInfo", "Entry"]


@dataclass(frozen=True, slots=True)
class CardInfo:
    id: int
    collector_number: str
    name: str
    craft: str
    type: str
    subtype: str = ""
    is_unique: bool = False
    vitality: int | None = None
    attack: int | None = None
    defense: int | None = None
    range: int | None = None
    maneuver: int | None = None

    @property
    def type_label(self) -> str:
        return TYPE_LABELS.get(self.type, self.type)


@dataclass(frozen=True, slots=True)
class Entry:
    """A card and its number of copies; `line` is where a parsed list named it (1-based)."""

    card: CardInfo
    count: int
    line: int | None = None
