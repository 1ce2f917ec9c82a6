"""Dreadgate's card types as stored in Card.type, their labels and their order on a deck list."""

from __future__ import annotations

LEGEND, UNIT, TALENT, GLYPH, ITEM, GATEWAY = "legend", "unit", "talent", "glyph", "item", "gateway"
TYPE_LABELS = {
    LEGEND: "Legend",
    UNIT: "Unit",
    TALENT: "Talent",
    GLYPH: "Glyph",
    ITEM: "Inventory Item",
    GATEWAY: "Gateway",
}
TYPE_ORDER = (LEGEND, UNIT, TALENT, GLYPH, ITEM, GATEWAY)
CARD_TYPES = frozenset(TYPE_ORDER)
MAIN_DECK_TYPES = frozenset({LEGEND, UNIT, TALENT, GLYPH, ITEM})  # the gateway pair comes beside the deck (DC-7)
BOARD_TYPES = frozenset({UNIT, LEGEND})

# Subtypes in the order of the rules text; a subtype's label is its name in title case.
TALENT_SUBTYPE_ORDER = ("talent", "enchant talent", "battlefield talent", "intrigue talent", "spell talent")
ITEM_SUBTYPE_ORDER = ("armor", "battlefield", "equipment", "exotic", "musical instrument", "weapon", "relic",
                      "relic weapon", "relic armor")  # fmt: skip
SUBTYPE_ORDER = TALENT_SUBTYPE_ORDER + ITEM_SUBTYPE_ORDER
TALENT_SUBTYPES = frozenset(TALENT_SUBTYPE_ORDER)
ITEM_SUBTYPES = frozenset(ITEM_SUBTYPE_ORDER)
SUBTYPES = TALENT_SUBTYPES | ITEM_SUBTYPES
