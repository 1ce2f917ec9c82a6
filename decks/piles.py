"""The deck as piles of card faces (the editor's and the deck page's visual view), grouped by type, by vitality
(the cost curve), by craft, or by the player's own tags, and sorted within a pile by name, vitality or copies.
Pure Python, no Django."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from core.crafts import CRAFTS

from .cardinfo import TYPE_LABELS, TYPE_ORDER, CardInfo, Entry

GROUPINGS: dict[str, str] = {"type": "Type", "vitality": "Vitality", "craft": "Craft", "tag": "Tag"}
DEFAULT_GROUPING = "type"
# Within a pile: by name; by vitality (the curve, cards without one last), then name; by copies (most first), then name
SORTS: dict[str, str] = {"name": "Name", "vitality": "Vitality", "copies": "Copies"}
DEFAULT_SORT = "name"
NO_VITALITY = "none"
UNTAGGED = ""


def grouping_of(value: str | None) -> str:
    return value if value in GROUPINGS else DEFAULT_GROUPING


def sort_of(value: str | None) -> str:
    return value if value in SORTS else DEFAULT_SORT


def _sort_key(sort: str) -> Callable[[Entry], tuple]:
    if sort == "vitality":
        return lambda e: (e.card.vitality is None, e.card.vitality or 0, e.card.name.casefold())
    if sort == "copies":
        return lambda e: (-e.count, e.card.name.casefold())
    return lambda e: (e.card.name.casefold(),)


def piles(entries: Sequence[Entry], grouping: str, tags: Mapping[str, str] | None = None,
          sort: str = DEFAULT_SORT) -> list[dict]:
    """Piles in their grouping's order, each {key, label, count, entries}, its cards in the order `sort` names
    (SORTS). With the tag grouping, `tags` (collector number -> tag) decides; untagged cards make the last pile."""
    tags = tags or {}
    key_of, order, label_of = _GROUPERS[grouping_of(grouping)](tags)
    by_key: dict[str, list[Entry]] = {}
    for entry in entries:
        by_key.setdefault(key_of(entry.card), []).append(entry)
    out = []
    keys = sorted(by_key, key=order)
    for key, slug in zip(keys, unique_slugs(keys), strict=True):
        rows = sorted(by_key[key], key=_sort_key(sort_of(sort)))
        out.append({"key": key, "slug": slug, "label": label_of(key), "count": sum(e.count for e in rows),
                    "entries": rows})
    return out


def unique_slugs(keys: Sequence[str]) -> list[str]:
    """Each pile's part of its element ids, one per pile: tags that differ only in case or punctuation ("a!" and
    "A?"), or none of whose letters are ASCII, would otherwise share one; untagged is "untagged"."""
    slugs: list[str] = []
    for key in keys:
        base = re.sub(r"[^a-z0-9]+", "-", key.casefold()).strip("-") or ("untagged" if key == UNTAGGED else "tag")
        slug, n = base, 1
        while slug in slugs:
            n += 1
            slug = f"{base}-{n}"
        slugs.append(slug)
    return slugs


Grouper = tuple[Callable[[CardInfo], str], Callable[[str], object], Callable[[str], str]]


def _by_type(tags: Mapping[str, str]) -> Grouper:
    def label(key: str) -> str:
        text = TYPE_LABELS.get(key, key)
        return text if text.endswith("s") else text + "s"

    return (lambda card: card.type), lambda key: TYPE_ORDER.index(key) if key in TYPE_ORDER else 99, label


def _by_vitality(tags: Mapping[str, str]) -> Grouper:
    return ((lambda card: str(card.vitality) if card.vitality is not None else NO_VITALITY),
            lambda key: int(key) if key != NO_VITALITY else 1_000,
            lambda key: f"Vitality {key}" if key != NO_VITALITY else "No vitality (talents, glyphs, items)")


def _by_craft(tags: Mapping[str, str]) -> Grouper:
    crafts = list(CRAFTS)
    return ((lambda card: card.craft), lambda key: crafts.index(key) if key in crafts else 99,
            lambda key: CRAFTS[key].label if key in CRAFTS else key.title())


def _by_tag(tags: Mapping[str, str]) -> Grouper:
    return ((lambda card: tags.get(card.collector_number, UNTAGGED)), lambda key: (key == UNTAGGED, key.casefold()),
            lambda key: key or "Untagged")


_GROUPERS: dict[str, Callable[[Mapping[str, str]], Grouper]] = {
    "type": _by_type, "vitality": _by_vitality, "craft": _by_craft, "tag": _by_tag}
