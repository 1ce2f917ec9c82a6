"""Load the Dread Draw card set (dreaddraw/data/cardset.json) into DreadDrawCard.

Bulk and idempotent: unchanged cards are left alone, changed ones are updated in one query, and
each card records the set version that last changed it. The same parser as the engine validates
the file, so the database and the engine can never disagree about a card.
"""

from __future__ import annotations

from pathlib import Path

from django.db import transaction

from dreaddraw.engine.cardset import CardDef, load_cardset

from .models import DreadDrawCard

FIELDS = ("name", "strength", "damage", "keyword", "effect", "text", "fortune_present", "fortune_near", "fortune_far")


def _row(card: CardDef) -> dict[str, object]:
    return {
        "name": card.name, "strength": card.strength, "damage": card.damage, "keyword": card.keyword,
        "effect": {"op": card.op, "amount": card.amount} if card.op else {}, "text": card.text,
        "fortune_present": card.fortune_present, "fortune_near": card.fortune_near, "fortune_far": card.fortune_far,
    }


@transaction.atomic
def load_dreaddraw_set(path: Path | str | None = None) -> dict[str, int]:
    cardset = load_cardset(path)
    version = cardset.version
    existing = {c.number: c for c in DreadDrawCard.objects.all()}
    wanted = {c.number: c for c in cardset.cards if c is not None}
    # Names are unique: free the names of cards that are going away or being renamed first.
    stale = [n for n in existing if n not in wanted]
    DreadDrawCard.objects.filter(number__in=stale).delete()
    create, update = [], []
    for number, card in wanted.items():
        row = _row(card)
        current = existing.get(number)
        if current is None:
            create.append(DreadDrawCard(number=number, catalog_version=version, **row))
        elif any(getattr(current, f) != v for f, v in row.items()):
            for f, v in row.items():
                setattr(current, f, v)
            current.catalog_version = version
            update.append(current)
    if update:
        renamed = [c.pk for c in update]
        # Two cards swapping names would trip the unique constraint mid-update: park them first.
        for obj in DreadDrawCard.objects.filter(pk__in=renamed):
            obj.name = f"~{obj.pk}"
            obj.save(update_fields=["name"])
        DreadDrawCard.objects.bulk_update(update, [*FIELDS, "catalog_version"])
    if create:
        DreadDrawCard.objects.bulk_create(create)
    return {
        "dreaddraw_created": len(create), "dreaddraw_updated": len(update), "dreaddraw_deleted": len(stale),
        "dreaddraw_unchanged": len(wanted) - len(create) - len(update),
    }
