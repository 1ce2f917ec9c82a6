"""The export of all of a player's decks imported back on the import page (decks.restore, DC-9): each deck a new
private deck with its cards, tags and considering list, all of them or none."""

import json

import pytest

from decks.considering import deck_consider, deck_tag_card
from decks.models import Deck, Visibility
from decks.selectors import card_info, deck_considering, deck_entries, deck_tags
from decks.services import deck_create

from .factories import entries_of, legal_pool, make_user

pytestmark = pytest.mark.django_db


def saved(deck):
    deck = Deck.objects.get(pk=deck.pk)
    return ({e.card.collector_number: e.count for e in deck_entries(deck)}, deck.format,
            {e.card.collector_number: e.count for e in deck_considering(deck)}, deck_tags(deck))


@pytest.fixture
def decks(logged_in):
    owner = logged_in.user
    pool = legal_pool(10)
    first = deck_create(owner=owner, name="First", visibility=Visibility.PUBLIC,
                        entries=entries_of(*[(c, 4) for c in pool[:9]]))
    first, _ = deck_tag_card(deck=first, actor=owner, card=card_info(pool[0]), tag="early")
    first, _ = deck_consider(deck=first, actor=owner, card=card_info(pool[9]), delta=2)
    second = deck_create(owner=owner, name="Second", format="quick", entries=entries_of((pool[3], 2)))
    return [first, second]


@pytest.fixture
def logged_in(client):
    client.user = make_user("restorer")
    client.force_login(client.user)
    return client


def restored(owner, before):
    return list(Deck.objects.filter(owner=owner).exclude(pk__in=[d.pk for d in before]).order_by("pk"))


def test_the_json_export_of_all_decks_is_imported_back_whole_each_deck_private(logged_in, decks):
    backup = logged_in.get("/decks/export/").content.decode()
    answer = logged_in.post("/decks/import/", {"list": backup}, follow=True)
    assert answer.redirect_chain[-1][0] == "/decks/"
    assert "Imported 2 decks, each private: “Second”, “First”." in answer.content.decode()  # as exported
    new = restored(logged_in.user, decks)[::-1]
    assert [d.name for d in new] == ["First", "Second"] and {d.visibility for d in new} == {Visibility.PRIVATE}
    assert [saved(d) for d in new] == [saved(d) for d in decks]


def test_the_text_export_of_all_decks_is_imported_back_as_that_many_decks(logged_in, decks):
    backup = logged_in.get("/decks/export/?as=txt").content.decode()
    assert logged_in.post("/decks/import/", {"list": backup}).status_code == 302
    new = restored(logged_in.user, decks)[::-1]
    assert [d.name for d in new] == ["First", "Second"]
    assert [saved(d)[:3] for d in new] == [saved(d)[:3] for d in decks]  # all but the tags, which JSON keeps


def test_a_deck_that_cannot_be_imported_is_named_by_its_place_and_nothing_is_saved(logged_in, decks):
    backup = json.loads(logged_in.get("/decks/export/").content)
    backup["decks"][1]["cards"][0]["card"] = "No Such Card"  # the second deck exported: the first made
    answer = logged_in.post("/decks/import/", {"list": json.dumps(backup)})
    page = answer.content.decode()
    assert answer.status_code == 400 and "Deck 2 of 2 (“First”): 1 line of the list cannot be imported" in page
    assert "No card is named &quot;No Such Card&quot;" in page
    assert restored(logged_in.user, decks) == []


def test_the_name_box_names_one_deck_so_it_is_refused_beside_several(logged_in, decks):
    backup = logged_in.get("/decks/export/").content.decode()
    answer = logged_in.post("/decks/import/", {"list": backup, "name": "Which one?"})
    assert answer.status_code == 400 and "This holds 2 decks, each named by the list" in answer.content.decode()
    assert restored(logged_in.user, decks) == []
