"""The starter decks: one ready deck per craft, read from the catalog's data file and saved as
public, ownerless decks that anyone can see and clone. Loaded with the catalog (idempotent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from django.db import transaction

from cards.catalog.starter_decks import STARTER_DECKS_FILE
from cards.models import Card

from .cardinfo import Entry
from .selectors import card_index, clear_card_index
from .services import starter_deck_save
from .validation import validate_deck


class StarterDeckError(ValueError):
    """The data file names a card the catalog does not have, or a starter deck is not legal."""


@transaction.atomic
def load_starter_decks(path: Path = STARTER_DECKS_FILE) -> dict[str, Any]:
    """Save every starter deck of the data file; returns how many were created, updated or unchanged."""
    report = {"created": 0, "updated": 0, "unchanged": 0}
    if not path.exists():
        return report
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    clear_card_index()  # the catalog was (re)loaded just before
    index = card_index()
    problems: list[str] = []
    for key, spec in (data.get("decks") or {}).items():
        entries = []
        for ref, count in (spec.get("cards") or {}).items():
            card = index.resolve(str(ref))
            if card is None:
                problems.append(f"starter deck {key}: no card {ref!r}")
            else:
                entries.append(Entry(card, int(count)))
        gateway = None
        if spec.get("gateway"):
            gateway = Card.objects.filter(collector_number=spec["gateway"]).first()
            if gateway is None:
                problems.append(f"starter deck {key}: no gateway card {spec['gateway']!r}")
        result = validate_deck(entries, spec.get("format", "standard"))
        problems += [f"starter deck {key}: {issue.message}" for issue in result.errors]
        if problems:
            continue
        _, outcome = starter_deck_save(key=str(key), name=spec.get("name") or f"{str(key).title()} starter",
                                       description=spec.get("description", ""), entries=entries, gateway=gateway,
                                       format=spec.get("format", "standard"))
        report[outcome] += 1
    if problems:
        raise StarterDeckError("; ".join(problems))
    return report

