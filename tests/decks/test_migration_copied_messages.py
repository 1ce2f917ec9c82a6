"""Copies' first versions written before their message named the source by its version alone are rewritten so by
migration decks 0005 (they named the source deck's id, an unlisted or private one's too)."""

import pytest

from decks.models import DeckRevision
from tests.support import migrate_to

from .factories import make_user


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_a_copys_message_naming_its_source_deck_is_rewritten_by_its_version_alone():
    old = migrate_to([("decks", "0004_public_order_index")])
    owner = make_user()
    deck = old.get_model("decks", "Deck").objects.create(owner_id=owner.pk, name="Old copy", format="standard")
    revisions = old.get_model("decks", "DeckRevision").objects
    fields = {"deck_id": deck.pk, "name": "Old copy", "format": "standard"}
    copied = revisions.create(number=1, message="Copied from deck 16, version 2", **fields)
    other = revisions.create(number=2, message="Copied from deck notes: see the description", **fields)
    migrate_to(None)
    assert DeckRevision.objects.get(pk=copied.pk).message == "Copied from version 2 of its source deck"
    assert DeckRevision.objects.get(pk=other.pk).message == "Copied from deck notes: see the description"
