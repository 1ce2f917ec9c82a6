"""Writes the catalog (cards/catalog/build.py) to the database, idempotently and in bulk.

- New cards are bulk-created, changed cards bulk-updated in place (same row, same id, so decks keep
  pointing at them), unchanged cards are not written at all: a second run writes nothing.
- Cards are never deleted: a card missing from the data stays (decks may use it).
- Every new or changed card is stamped with the catalog version, and the version is recorded as a
  CatalogRelease (declared version + content digest, so a change without a version bump still shows).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from django.utils import timezone

from cards.models import Card, CatalogRelease, Keyword

from .build import Catalog, default_catalog

CARD_FIELDS = (
    "name", "craft", "type", "subtype", "text", "flavor",
    "vitality", "attack", "defense", "range", "maneuver", "flying_maneuver",
    "attack_directions", "maneuver_directions",
    "is_unique", "is_instant", "is_consumable", "cost", "influence", "abilities",
)  # fmt: skip
BATCH_SIZE = 1000
UPDATE_BATCH_SIZE = 500  # bulk_update builds one CASE per field per batch; smaller batches keep it quick


class CatalogLoadError(RuntimeError):
    pass


@transaction.atomic
def load_catalog(catalog: Catalog | None = None) -> dict[str, Any]:
    """Load (or update in place) the Dreadgate catalog. Returns what it did, as counts."""
    catalog = catalog or default_catalog()
    keywords_created, keywords_updated = _load_keywords(catalog)
    keyword_ids = dict(Keyword.objects.values_list("slug", "id"))

    existing = {row["collector_number"]: row for row in Card.objects.values("id", "collector_number", *CARD_FIELDS)}
    existing_keywords: dict[int, set[int]] = defaultdict(set)
    for card_id, keyword_id in Card.keywords.through.objects.values_list("card_id", "keyword_id"):
        existing_keywords[card_id].add(keyword_id)

    to_create: list[Card] = []
    to_update: list[Card] = []
    wanted_keywords: dict[str, set[int]] = {}
    unchanged = 0
    for data in catalog.cards:
        number = data["collector_number"]
        fields = {f: data[f] for f in CARD_FIELDS}
        wanted_keywords[number] = {keyword_ids[slug] for slug in data["keywords"]}
        row = existing.get(number)
        if row is None:
            to_create.append(Card(collector_number=number, catalog_version=catalog.version, **fields))
        elif any(row[f] != fields[f] for f in CARD_FIELDS) or existing_keywords[row["id"]] != wanted_keywords[number]:
            to_update.append(Card(id=row["id"], collector_number=number, catalog_version=catalog.version, **fields))
        else:
            unchanged += 1

    _check_names(existing, to_create, to_update)
    _update_cards(existing, to_update)
    Card.objects.bulk_create(to_create, batch_size=BATCH_SIZE)
    _sync_keywords(existing, existing_keywords, wanted_keywords, {c.collector_number for c in to_create + to_update})

    if to_create or to_update or keywords_created or keywords_updated:
        # Bulk writes send no signals: this process's search index is dropped here, now and again once
        # the load is committed (a search in between would rebuild it from the old rows).
        from cards.search.index import forget

        forget()
        transaction.on_commit(forget)
    release_created = False
    if to_create or to_update or not CatalogRelease.objects.filter(version=catalog.version).exists():
        release, release_created = CatalogRelease.objects.get_or_create(
            version=catalog.version, defaults={"digest": catalog.digest, "card_count": len(catalog.cards)}
        )
        if not release_created:
            # Back to an earlier release's content: it becomes the current release again.
            CatalogRelease.objects.filter(pk=release.pk).update(loaded_at=timezone.now())
    return {
        "version": catalog.version,
        "created": len(to_create),
        "updated": len(to_update),
        "unchanged": unchanged,
        "keywords_created": keywords_created,
        "keywords_updated": keywords_updated,
        "release_created": release_created,
    }


def _load_keywords(catalog: Catalog) -> tuple[int, int]:
    existing = {k.slug: k for k in Keyword.objects.all()}
    new, changed = [], []
    for data in catalog.keywords:
        keyword = existing.get(data["slug"])
        if keyword is None:
            new.append(Keyword(**data))
        elif (keyword.name, keyword.reminder) != (data["name"], data["reminder"]):
            keyword.name, keyword.reminder = data["name"], data["reminder"]
            changed.append(keyword)
    Keyword.objects.bulk_create(new)
    Keyword.objects.bulk_update(changed, ["name", "reminder"])
    return len(new), len(changed)


def _check_names(existing: dict[str, dict], to_create: list[Card], to_update: list[Card]) -> None:
    """A new name may not belong to a card the data no longer describes (that card is never deleted)."""
    final_names = {row["name"]: number for number, row in existing.items()}
    for card in to_update:
        final_names.pop(existing[card.collector_number]["name"], None)
    for card in to_update + to_create:
        holder = final_names.get(card.name)
        if holder is not None and holder != card.collector_number:
            raise CatalogLoadError(
                f"{card.collector_number}: the name {card.name!r} belongs to card {holder}, which the data no "
                "longer changes; rename one of them"
            )
        final_names[card.name] = card.collector_number


def _update_cards(existing: dict[str, dict], to_update: list[Card]) -> None:
    renamed = [c for c in to_update if existing[c.collector_number]["name"] != c.name]
    if renamed:
        # Names are unique: park renamed cards on placeholder names first, so two cards can swap names.
        parked = [Card(id=c.id, name=f"(renaming) {c.collector_number}") for c in renamed]
        Card.objects.bulk_update(parked, ["name"], batch_size=UPDATE_BATCH_SIZE)
    Card.objects.bulk_update(to_update, [*CARD_FIELDS, "catalog_version"], batch_size=UPDATE_BATCH_SIZE)


def _sync_keywords(
    existing: dict[str, dict],
    existing_keywords: dict[int, set[int]],
    wanted_keywords: dict[str, set[int]],
    touched: set[str],
) -> None:
    """Add and remove card-keyword links of the created and updated cards only."""
    if not touched:
        return
    through = Card.keywords.through
    ids = dict(Card.objects.values_list("collector_number", "id"))  # one query, however many were touched
    links, stale = [], []
    for number in touched:
        card_id = ids[number]
        have = existing_keywords.get(card_id, set()) if number in existing else set()
        want = wanted_keywords[number]
        links += [through(card_id=card_id, keyword_id=k) for k in want - have]
        stale += [(card_id, k) for k in have - want]
    for card_id, keyword_id in stale:
        through.objects.filter(card_id=card_id, keyword_id=keyword_id).delete()
    through.objects.bulk_create(links, batch_size=BATCH_SIZE)
