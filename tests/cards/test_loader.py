"""The loader against the database: the 8,100, the unique constraint, idempotency, updates in place."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from cards.catalog.build import Catalog, content_digest, default_catalog
from cards.catalog.loader import load_catalog
from cards.models import Card, CatalogRelease, Keyword
from cards.selectors import catalog_version
from decks.models import Deck

pytestmark = pytest.mark.django_db
WRITES = ("INSERT", "UPDATE", "DELETE")


def writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def variant(edit) -> Catalog:
    """A copy of the shipped catalog with `edit(cards)` applied, under its own content version."""
    base = default_catalog()
    cards = [dict(c) for c in base.cards]
    edit(cards)
    digest = content_digest(base.keywords, tuple(cards))
    return dataclasses.replace(base, cards=tuple(cards), digest=digest, version=f"test+{digest[:10]}")


def test_exactly_one_unit_card_per_stat_combination():
    units = Card.objects.filter(type="unit")
    assert units.count() == 8100
    combos = units.values("vitality", "attack", "defense", "range", "maneuver").distinct().count()
    assert combos == 8100
    assert units.filter(vitality__gte=1, vitality__lte=9, range__lte=3, maneuver__lte=3).count() == 8100


def test_the_database_refuses_a_duplicate_stat_combination():
    existing = Card.objects.get(collector_number="U-93021")
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.create(
            collector_number="U-DUPE", name="Duplicate Of A Real Unit", craft="universal", type="unit",
            vitality=9, attack=3, defense=0, range=2, maneuver=1, catalog_version="test",
        )  # fmt: skip
    assert existing.vitality == 9
    # Legends are not among the 8,100: the same stats are allowed for them.
    Card.objects.create(
        collector_number="L-TST-01", name="A Legend With Unit Stats", craft="champion", type="legend",
        vitality=9, attack=3, defense=0, range=2, maneuver=1, catalog_version="test",
    )  # fmt: skip


def test_keywords_and_their_links_are_loaded():
    assert set(Keyword.objects.values_list("slug", flat=True)) == {"subdue", "execution", "spectral", "aviation"}
    aviation = Card.objects.filter(type="unit", keywords__slug="aviation")
    assert aviation.exists()
    assert not aviation.filter(flying_maneuver__isnull=True).exists()
    expected = sum("aviation" in c["keywords"] for c in default_catalog().cards)
    assert Card.objects.filter(keywords__slug="aviation").count() == expected


def test_a_second_run_writes_nothing():
    with CaptureQueriesContext(connection) as ctx:
        report = load_catalog()
    assert writes(ctx.captured_queries) == []
    assert report["created"] == report["updated"] == 0
    assert report["unchanged"] == len(default_catalog().cards)
    assert report["release_created"] is False


def test_the_release_records_the_version_and_cards_are_stamped():
    catalog = default_catalog()
    release = CatalogRelease.objects.get(version=catalog.version)
    assert release.digest == catalog.digest and release.card_count == len(catalog.cards)
    assert not Card.objects.exclude(catalog_version=catalog.version).exists()


def test_a_changed_card_is_updated_in_place_and_stamped():
    def edit(cards):
        legend = next(c for c in cards if c["collector_number"] == "L-CHA-01")
        legend["flavor"] = "Rewritten flavour."
        legend["keywords"] = ["subdue"]

    changed = variant(edit)
    before = Card.objects.get(collector_number="L-CHA-01")
    with CaptureQueriesContext(connection) as ctx:
        report = load_catalog(changed)
    assert (report["created"], report["updated"]) == (0, 1)
    after = Card.objects.get(collector_number="L-CHA-01")
    assert after.id == before.id
    assert after.flavor == "Rewritten flavour."
    assert list(after.keywords.values_list("slug", flat=True)) == ["subdue"]
    assert after.catalog_version == changed.version != before.catalog_version
    assert Card.objects.filter(catalog_version=changed.version).count() == 1
    assert CatalogRelease.objects.filter(version=changed.version).exists()
    assert len(writes(ctx.captured_queries)) <= 5  # the card, its keyword link, the release


def test_going_back_to_an_earlier_release_makes_it_current_again():
    original = default_catalog()
    changed = variant(lambda cards: cards[0].update(flavor="A passing change."))
    load_catalog(changed)
    assert catalog_version() == changed.version
    report = load_catalog(original)
    assert (report["updated"], report["release_created"]) == (1, False)
    assert catalog_version() == original.version
    assert Card.objects.get(collector_number=original.cards[0]["collector_number"]).catalog_version == original.version


def test_cards_missing_from_the_data_are_never_deleted():
    kept = Card.objects.create(
        collector_number="T-OLD-01", name="A Retired Talent", craft="sorcery", type="talent", catalog_version="old"
    )
    dropped = variant(lambda cards: cards.remove(next(c for c in cards if c["collector_number"] == "T-SOR-01")))
    report = load_catalog(dropped)
    assert report["created"] == report["updated"] == 0
    assert Card.objects.filter(pk=kept.pk).exists()
    assert Card.objects.filter(collector_number="T-SOR-01").exists()


def test_two_cards_can_swap_names():
    def edit(cards):
        a = next(c for c in cards if c["collector_number"] == "T-SOR-09")
        b = next(c for c in cards if c["collector_number"] == "T-DIV-09")
        a["name"], b["name"] = b["name"], a["name"]

    report = load_catalog(variant(edit))
    assert report["updated"] == 2
    assert Card.objects.get(collector_number="T-SOR-09").name == "Smite"
    assert Card.objects.get(collector_number="T-DIV-09").name == "Fireball"


def test_a_first_load_uses_bulk_inserts():
    Deck.objects.all().delete()  # decks protect the cards they use (the starter decks are loaded too)
    Card.objects.all().delete()
    with CaptureQueriesContext(connection) as ctx:
        report = load_catalog()
    assert report["created"] == len(default_catalog().cards)
    inserts = [q for q in writes(ctx.captured_queries) if q.lstrip().upper().startswith("INSERT")]
    # Batches, not one INSERT per card (SQLite caps a statement at 999 parameters: ~43 cards each).
    assert len(inserts) < report["created"] / 20
    assert Card.objects.filter(type="unit").count() == 8100
