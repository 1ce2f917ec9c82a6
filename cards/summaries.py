"""A card as a search result (and in the catalog export): its fields, defined once for every path.

The SQL path (selectors.card_search_rows, card_summaries) and the in-process index
(cards/search/index.py) both build a result row with `card_summary`, so the API answers the same
bytes whichever path found the cards.
"""

from __future__ import annotations

from .svg import directions_of

EXPORT_FIELDS = (
    "collector_number", "name", "craft", "type", "subtype", "text", "flavor", "vitality", "attack", "defense",
    "range", "maneuver", "flying_maneuver", "attack_directions", "maneuver_directions", "is_unique", "is_instant",
    "is_consumable", "cost", "influence", "abilities", "catalog_version",
)
SUMMARY_FIELDS = tuple(f for f in EXPORT_FIELDS if f not in ("flavor", "abilities"))  # a search result's fields


def card_summary(row: dict, keywords: list[str], image: str) -> dict:
    """A search result from a row of SUMMARY_FIELDS, the card's keyword slugs and the URL pattern of
    its image (with CN where the collector number goes)."""
    summary = {field: row[field] for field in SUMMARY_FIELDS}
    summary["attack_directions"] = directions_of(row["attack_directions"])
    summary["maneuver_directions"] = directions_of(row["maneuver_directions"])
    summary["keywords"] = sorted(keywords)
    summary["image"] = image.replace("CN", row["collector_number"])
    return summary
