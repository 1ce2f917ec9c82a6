"""The editor's "Edit as text": the main deck written out whole and saved as the counts its lines give, in one
version undone as one, against the version the text was of; while a line does not read, nothing is saved and each
line's problem is said on its line."""

import pytest

from decks.considering import deck_tag_card
from decks.models import Deck
from decks.services import deck_create

from .factories import entries_of, make_card
from .test_editor_saves import counts, undo_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def three():
    return (make_card(name="Zz Text Alpha"), make_card(name="Zz Text Beta"), make_card(name="Zz Text Gamma"))


def whole(client, deck, text, version=None, **extra):
    version = Deck.objects.get(pk=deck.pk).version if version is None else version
    return client.post(f"/decks/{deck.pk}/edit/whole/", {"lines": text, "version": str(version), **extra})


def test_the_text_is_the_main_deck_and_saving_it_sets_every_count_in_one_version_undone_as_one(logged_in, owner,
                                                                                               three):
    a, b, c = three
    deck = deck_create(owner=owner, name="Text", entries=entries_of((a, 2), (b, 1)))
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=b, tag="Ramp")
    text = logged_in.get(f"/decks/{deck.pk}/edit/text/").json()
    assert text["version"] == deck.version
    assert "2 Zz Text Alpha" in text["text"] and "1 Zz Text Beta" in text["text"]
    response = whole(logged_in, deck, "3 Zz Text Alpha\nZz Text Gamma\n")  # Beta left out: taken away
    assert response.status_code == 200
    assert counts(deck) == {"Zz Text Alpha": 3, "Zz Text Gamma": 1}
    assert Deck.objects.get(pk=deck.pk).version == deck.version + 1
    for step in undo_of(response):  # the editor's undo: the requests it sends, in order
        logged_in.post(f"/decks/{deck.pk}/edit/{step['url']}/", step["fields"])
    assert counts(deck) == {"Zz Text Alpha": 2, "Zz Text Beta": 1}
    assert Deck.objects.get(pk=deck.pk).entries.get(card=b).tag == "Ramp"  # its tag came back with it


def test_a_card_at_0_in_the_text_is_taken_out_as_its_help_says(logged_in, owner, three):
    a, b, _ = three
    deck = deck_create(owner=owner, name="Text", entries=entries_of((a, 2), (b, 1)))
    response = whole(logged_in, deck, "2 Zz Text Alpha\n0 Zz Text Beta\n")
    assert response.status_code == 200 and counts(deck) == {"Zz Text Alpha": 2}
    response = whole(logged_in, deck, "2 Zz Text Alpha\n0 Zz Text Nowhere\n")  # at 0, still a card to name
    assert response.status_code == 400 and "No card is named &quot;Zz Text Nowhere&quot;" in response.content.decode()


@pytest.mark.parametrize("text, said", [
    ("2 Zz Text Alpha\nfour Zz Text Beta\n", "Line 2"),
    ("2 Zz Text Alpha\n-1 Zz Text Beta\n", "count, not a change; write how many copies"),
    ("999 Zz Text Alpha\n", "999 copies is more than any deck holds of one card: a line holds at most 60"),
    ("2 Zz Text Alpha\nSideboard\n1 Zz Text Beta\n", "the text changes the main deck only"),
])
def test_a_line_that_does_not_read_saves_nothing_and_is_said_on_its_line(logged_in, owner, three, text, said):
    a, b, _ = three
    deck = deck_create(owner=owner, name="Text", entries=entries_of((a, 1), (b, 1)))
    response = whole(logged_in, deck, text)
    assert response.status_code == 400 and said in response.content.decode()
    assert counts(deck) == {"Zz Text Alpha": 1, "Zz Text Beta": 1}
    assert Deck.objects.get(pk=deck.pk).version == deck.version


def test_a_text_of_an_older_version_is_refused_not_saved_over_the_newer_deck(logged_in, owner, three):
    a, b, _ = three
    deck = deck_create(owner=owner, name="Text", entries=entries_of((a, 1)))
    older = deck.version
    logged_in.post(f"/decks/{deck.pk}/edit/change/", {"card": b.collector_number, "delta": "1"})  # another window
    response = whole(logged_in, deck, "4 Zz Text Alpha\n", version=older)
    assert response.status_code == 409
    assert counts(deck) == {"Zz Text Alpha": 1, "Zz Text Beta": 1}


def test_more_copies_than_the_rules_allow_are_refused_on_their_line_and_nothing_is_saved(logged_in, owner, three):
    a, b, _ = three
    deck = deck_create(owner=owner, name="Text", entries=entries_of((a, 1), (b, 1)))
    response = whole(logged_in, deck, "1 Zz Text Beta\n5 Zz Text Alpha\n4 Zz Text Alpha\n")
    html = response.content.decode()
    assert response.status_code == 400 and "Line 2" in html and "at most 4 copies" in html and "gives 9" in html
    assert counts(deck) == {"Zz Text Alpha": 1, "Zz Text Beta": 1}


def test_a_text_sent_again_with_its_key_is_applied_once(logged_in, owner, three):
    a, _, _ = three
    deck = deck_create(owner=owner, name="Text", entries=entries_of((a, 1)))
    first = whole(logged_in, deck, "4 Zz Text Alpha\n", save="t" * 32)
    assert first.status_code == 200
    again = whole(logged_in, deck, "4 Zz Text Alpha\n", version=deck.version, save="t" * 32)
    assert again.status_code == 200 and undo_of(again) == undo_of(first)
    assert counts(deck) == {"Zz Text Alpha": 4}
    assert Deck.objects.get(pk=deck.pk).version == deck.version + 1


def test_the_problems_of_a_text_are_said_in_the_order_of_its_lines(logged_in, owner, three):
    a, b, _ = three
    deck = deck_create(owner=owner, name="Text", entries=entries_of((a, 1)))
    html = whole(logged_in, deck, "-1 Zz Text Alpha\nfour Zz Text Beta\n").content.decode()
    assert html.index("Line 1") < html.index("Line 2")


def test_a_deck_already_past_the_limit_keeps_its_count_but_cannot_grow(logged_in, owner, three):
    a, b, _ = three
    deck = deck_create(owner=owner, name="Text", entries=entries_of((a, 6)))  # stored over the limit (DC-5 allows 4)
    assert whole(logged_in, deck, "6 Zz Text Alpha\n1 Zz Text Beta\n").status_code == 200
    assert counts(deck) == {"Zz Text Alpha": 6, "Zz Text Beta": 1}
    assert whole(logged_in, deck, "7 Zz Text Alpha\n1 Zz Text Beta\n").status_code == 400


def test_the_decks_own_text_export_is_read_back_as_it_stands_gateway_line_and_all(logged_in, owner):
    """The export writes the gateway under its own heading; Edit as text refused that line ("comes with the deck")."""
    from decks.services import deck_copy

    deck = deck_copy(deck=Deck.objects.filter(is_starter=True, format="standard").order_by("pk").first(), owner=owner)
    exported = logged_in.get(f"/decks/{deck.pk}/export.txt").content.decode()
    assert deck.gateway.name in exported
    response = whole(logged_in, deck, exported)
    assert response.status_code == 200 and "Nothing to change: the deck already reads so." in response.content.decode()
    assert Deck.objects.get(pk=deck.pk).version == deck.version


def test_quick_add_taking_out_a_card_the_deck_does_not_hold_says_so(logged_in, owner, three):
    a, b, _c = three
    deck = deck_create(owner=owner, name="Held", entries=entries_of((a, 2)))
    answer = logged_in.post(f"/decks/{deck.pk}/edit/quick/", {"lines": f"-1 {b.name}"})
    assert answer.status_code == 400 and f"Nothing to change: {b.name} is not in the deck." in answer.content.decode()
