"""decks 0002 (tags and the considering list) on a database filled before it: every deck and revision reads as
"no tags, nothing considered", and an old version can still be compared and reverted to."""

import pytest

from cards.models import Card
from decks.models import Deck, DeckEntry, DeckRevision
from decks.selectors import deck_considering, deck_entries, deck_tags
from decks.services import deck_revert, revision_diff
from tests.support import migrate_to

from .factories import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]


def test_decks_saved_before_tags_read_as_untagged_with_nothing_considered():
    owner = make_user()
    cards = list(Card.objects.filter(type="unit").order_by("collector_number")[:2])
    old = migrate_to([("decks", "0001_initial")])
    old_deck = old.get_model("decks", "Deck").objects.create(owner_id=owner.pk, name="Old deck", share_token="old",
                                                              version=2, card_count=6)
    old.get_model("decks", "DeckEntry").objects.create(deck=old_deck, card_id=cards[0].pk, count=4)
    old.get_model("decks", "DeckEntry").objects.create(deck=old_deck, card_id=cards[1].pk, count=2)
    old_revision = old.get_model("decks", "DeckRevision")
    for number, pairs in ((1, [[cards[0].collector_number, 4]]),
                          (2, sorted([[cards[0].collector_number, 4], [cards[1].collector_number, 2]]))):
        old_revision.objects.create(deck=old_deck, number=number, name="Old deck", format="standard", cards=pairs)

    migrate_to(None)
    deck = Deck.objects.get(pk=old_deck.pk)
    assert list(DeckEntry.objects.filter(deck=deck).values_list("tag", flat=True)) == ["", ""]
    assert deck_tags(deck) == {} and deck_considering(deck) == []
    revisions = {r.number: r for r in DeckRevision.objects.filter(deck=deck)}
    assert all(r.tags == {} and r.considering == [] for r in revisions.values())
    diff = revision_diff(revisions[1], revisions[2])
    assert diff["tags"] == [] and diff["considering"] == [] and len(diff["cards"]) == 1
    deck = deck_revert(deck=deck, actor=owner, number=1, expected_version=2)
    assert [(e.card.id, e.count) for e in deck_entries(deck)] == [(cards[0].pk, 4)]
    assert deck.revisions.get(number=3).tags == {} and deck.revisions.get(number=3).considering == []
