"""A deck's history read as sittings: the versions one player saved one after another, shown together with what
they changed between them."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from decks.models import Deck, DeckRevision
from decks.services import deck_change_card, deck_create
from decks.sittings import SITTING_GAP, sittings

from .factories import entries_of, make_card, make_user

START = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def revision(number, minutes, author=1):
    return SimpleNamespace(number=number, author_id=author, created_at=START + timedelta(minutes=minutes))


def test_versions_saved_one_after_another_by_one_player_are_one_sitting():
    gap = SITTING_GAP.total_seconds() / 60
    newest_first = [revision(7, 60), revision(6, 59), revision(5, 58, author=2), revision(4, 40), revision(3, 40 - gap),
                    revision(2, 40 - gap - 0.5), revision(1, 0)]
    assert [[r.number for r in s.revisions] for s in sittings(newest_first)] == [[7, 6], [5], [4, 3, 2], [1]]
    assert [s.before for s in sittings(newest_first)] == [5, 4, 1, 1]
    # a version missing in between (a page of the history ends there) starts another
    assert len(sittings([revision(9, 10), revision(7, 9)])) == 2


@pytest.mark.django_db
def test_the_history_page_groups_a_sitting_and_links_to_what_it_changed(client):
    owner = make_user()
    card = make_card(name="Zz Sitting Pike")
    deck = deck_create(owner=owner, name="Evening", entries=entries_of((card, 1)))
    for _ in range(3):
        deck, _before, _after = deck_change_card(deck=Deck.objects.get(pk=deck.pk), actor=owner, card=card, delta=1)
    DeckRevision.objects.filter(deck=deck, number=1).update(created_at=START - timedelta(days=1))  # the day before
    client.force_login(owner)
    html = client.get(f"/decks/{deck.pk}/history/").content.decode()
    assert "Versions 2 to 4, saved one after another by" in html
    assert "from=1&amp;to=4#diff-title" in html and "Versions 1 to" not in html
    compared = client.get(f"/decks/{deck.pk}/history/?from=1&to=4").content.decode()
    assert "+3 Zz Sitting Pike (1 → 4)" in compared
