"""decks/editor_saves.py: a save of the editor sent again with its key (its answer was lost) is applied once, for
every kind of save; a refused save leaves no key behind, so it can be sent again; a count that is not a whole
number from 0 up is refused, not read as "add one" or "remove"."""

import html
import json

import pytest

from decks.models import Deck, EditorSave
from decks.services import deck_create

from .factories import entries_of, make_card

pytestmark = pytest.mark.django_db


def counts(deck) -> dict[str, int]:
    return {e.card.name: e.count for e in Deck.objects.get(pk=deck.pk).entries.select_related("card")}


def undo_of(response) -> list:
    html = response.content.decode()
    start = html.index('data-changes="') + len('data-changes="')
    return json.loads(html[start:html.index('"', start)].replace("&quot;", '"'))


@pytest.mark.parametrize("kind, fields, expected", [
    ("change", {"delta": "1"}, {"Zz Saved Once": 2}),
    ("quick", {"lines": "2 Zz Saved Once"}, {"Zz Saved Once": 3}),
    ("move", {"count": "1", "to": "considering"}, {}),
    ("tag", {"tag": "core"}, {"Zz Saved Once": 1}),
])
def test_a_save_sent_again_with_its_key_is_applied_once_and_answered_as_the_first_time(logged_in, owner, kind,
                                                                                       fields, expected):
    card = make_card(name="Zz Saved Once")
    deck = deck_create(owner=owner, name="Once", entries=entries_of((card, 1)))
    url = f"/decks/{deck.pk}/edit/{kind}/"
    data = {**fields, "save": "k" * 32}
    if kind != "quick":
        data["card"] = card.collector_number
    first = logged_in.post(url, data)
    again = logged_in.post(url, data)
    assert first.status_code == again.status_code == 200
    assert counts(deck) == expected
    assert Deck.objects.get(pk=deck.pk).version == deck.version + 1
    assert undo_of(again) == undo_of(first) != []
    if kind in ("change", "quick"):  # another key is another save (a move or a tag done twice would change nothing)
        logged_in.post(url, {**data, "save": "m" * 32})
        assert Deck.objects.get(pk=deck.pk).version == deck.version + 2


def test_without_a_key_every_save_is_applied(logged_in, owner):
    card = make_card(name="Zz Keyless")
    deck = deck_create(owner=owner, name="Keyless", entries=entries_of((card, 1)))
    for _ in range(2):
        logged_in.post(f"/decks/{deck.pk}/edit/change/", {"card": card.collector_number, "delta": "1"})
    assert counts(deck) == {"Zz Keyless": 3}


def test_a_refused_save_keeps_no_key_and_is_refused_again(logged_in, owner):
    card = make_card(name="Zz Refused Twice")
    deck = deck_create(owner=owner, name="Full", entries=entries_of((card, 4)))
    data = {"card": card.collector_number, "delta": "1", "save": "r" * 32}
    for _ in range(2):
        response = logged_in.post(f"/decks/{deck.pk}/edit/change/", data)
        assert response.status_code == 400 and "at most 4" in response.content.decode()
    assert not EditorSave.objects.filter(deck=deck).exists()
    assert counts(deck) == {"Zz Refused Twice": 4}


def test_a_stale_change_rolls_back_the_whole_save(logged_in, owner):
    card = make_card(name="Zz Stale Whole")
    deck = deck_create(owner=owner, name="Whole", entries=entries_of((card, 1)))
    response = logged_in.post(f"/decks/{deck.pk}/edit/change/", {
        "card": card.collector_number, "delta": "1", "name": "Renamed", "version": "0", "save": "s" * 32})
    assert response.status_code == 409
    assert counts(deck) == {"Zz Stale Whole": 1} and Deck.objects.get(pk=deck.pk).name == "Whole"


def test_a_tag_another_window_changed_is_refused_with_409_and_says_what_it_is_now(logged_in, owner):
    """docs/decks.md: the StaleTag refusal is a 409, on the editor's page as through the API."""
    card = make_card(name="Zz Stale Tag")
    deck = deck_create(owner=owner, name="Tagged", entries=entries_of((card, 2)), tags={card.collector_number: "Alpha"})
    response = logged_in.post(f"/decks/{deck.pk}/edit/tag/", {"card": card.collector_number, "tag": "Beta",
                                                              "was": "", "save": "t" * 32})
    assert response.status_code == 409 and "“Alpha”" in response.content.decode()
    assert Deck.objects.get(pk=deck.pk).entries.get().tag == "Alpha"
    refused = logged_in.post(f"/decks/{deck.pk}/edit/tag/", {"card": card.collector_number, "tag": "\t",
                                                             "was": "Alpha", "save": "u" * 32})
    assert refused.status_code == 400  # a tag the rules refuse is still a 400


def test_a_key_longer_than_64_characters_is_refused(logged_in, owner):
    card = make_card(name="Zz Long Key")
    deck = deck_create(owner=owner, name="Long", entries=entries_of((card, 1)))
    response = logged_in.post(f"/decks/{deck.pk}/edit/change/", {
        "card": card.collector_number, "delta": "1", "save": "x" * 65})
    assert response.status_code == 400 and "at most 64 characters" in response.content.decode()
    assert counts(deck) == {"Zz Long Key": 1}


@pytest.mark.parametrize("typed", ["", "-3", "+2", "1.5"])
def test_a_count_that_is_not_a_whole_number_from_0_is_refused(logged_in, owner, typed):
    card = make_card(name="Zz Count Box")
    deck = deck_create(owner=owner, name="Box", entries=entries_of((card, 2)))
    response = logged_in.post(f"/decks/{deck.pk}/edit/change/", {
        "card": card.collector_number, "count": typed, "version": str(deck.version)})
    assert response.status_code == 400 and "whole number from 0 up" in response.content.decode()
    assert counts(deck) == {"Zz Count Box": 2}


@pytest.mark.parametrize("removal", [{"delta": "-1"}, {"count": "0"}, {"lines": "-1 Zz Tagged Last"}])
def test_undoing_the_removal_of_a_tagged_cards_last_copy_brings_its_tag_back(logged_in, owner, removal):
    from decks.considering import deck_tag_card

    card = make_card(name="Zz Tagged Last")
    deck = deck_create(owner=owner, name="Tagged", entries=entries_of((card, 1)))
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=card, tag="Aggro")
    kind = "quick" if "lines" in removal else "change"
    data = dict(removal) if kind == "quick" else {"card": card.collector_number, "version": str(deck.version),
                                                  **removal}
    response = logged_in.post(f"/decks/{deck.pk}/edit/{kind}/", data)
    assert response.status_code == 200 and counts(deck) == {}
    for request in undo_of(response):  # as the editor's undo sends them, in order
        assert logged_in.post(f"/decks/{deck.pk}/edit/{request['url']}/", request["fields"]).status_code == 200
    entry = Deck.objects.get(pk=deck.pk).entries.get()
    assert (entry.count, entry.tag) == (1, "Aggro")


def test_quick_add_lines_naming_one_card_add_up_before_the_copy_limit_is_applied(logged_in, owner):
    card = make_card(name="Zz Lines Add Up")
    deck = deck_create(owner=owner, name="Full", entries=entries_of((card, 4)))
    both = logged_in.post(f"/decks/{deck.pk}/edit/quick/", {"lines": f"2 {card.name}\n-2 {card.name}"})
    assert both.status_code == 400 and "Nothing to change" in both.content.decode()
    assert counts(deck) == {"Zz Lines Add Up": 4}
    logged_in.post(f"/decks/{deck.pk}/edit/quick/", {"lines": f"-3 {card.name}\n1 {card.name}"})
    assert counts(deck) == {"Zz Lines Add Up": 2}


def test_a_detail_sent_as_the_deck_already_has_it_saves_no_version(client, django_user_model):
    user = django_user_model.objects.create_user("same-name", password="x" * 12)
    deck = deck_create(owner=user, name="Kept", entries=[])
    client.force_login(user)
    answer = client.post(f"/decks/{deck.pk}/edit/change/", {"name": " Kept ", "version": deck.version, "save": "k1"})
    assert answer.status_code == 200
    assert Deck.objects.get(pk=deck.pk).version == deck.version and deck.revisions.count() == 1
    client.post(f"/decks/{deck.pk}/edit/change/", {"name": "Changed", "version": deck.version, "save": "k2"})
    assert Deck.objects.get(pk=deck.pk).version == deck.version + 1
    # Its history says what changed, not a bare "Saved".
    assert deck.revisions.order_by("-number").first().message == "Name: Kept → Changed"
    client.post(f"/decks/{deck.pk}/edit/change/", {"visibility": "public", "version": deck.version + 1, "save": "k3"})
    assert deck.revisions.order_by("-number").first().message == "Visibility: Private → Public"


def test_quick_add_taking_out_more_copies_than_the_deck_holds_takes_them_all_and_says_so(logged_in, owner):
    card = make_card(name="Zz Fewer Held")
    deck = deck_create(owner=owner, name="Two", entries=entries_of((card, 2)))
    answer = logged_in.post(f"/decks/{deck.pk}/edit/quick/", {"lines": f"-5 {card.name}"})
    assert answer.status_code == 200 and counts(deck) == {}
    assert "Zz Fewer Held: 5 asked out, 2 in the deck; 2 taken out." in answer.content.decode()


def test_quick_add_puts_a_pasted_sideboard_on_the_considering_list_in_one_version_undone_as_one(logged_in, owner):
    """DC-9: a Moxfield list pasted whole, with its sideboard, was refused: its sideboard's cards go to the
    considering list, as an import puts them, in the same version as the main deck's, and undo takes both back."""
    from decks.selectors import deck_considering

    main, side = make_card(name="Zz Pasted Main"), make_card(name="Zz Pasted Side")
    deck = deck_create(owner=owner, name="Pasted", entries=entries_of((main, 1)))
    answer = logged_in.post(f"/decks/{deck.pk}/edit/quick/",
                            {"lines": f"3 {main.name}\n\nSIDEBOARD:\n2 {side.name}\nSB: 1 {main.name}", "save": "p1"})
    assert answer.status_code == 200
    deck = Deck.objects.get(pk=deck.pk)
    assert counts(deck) == {main.name: 4}  # 1 + 3
    assert {e.card.name: e.count for e in deck_considering(deck)} == {side.name: 2, main.name: 1}
    assert deck.version == 2 and "Considering Zz Pasted Side: 0 → 2" in deck.revisions.get(number=2).message
    for number, step in enumerate(undo_of(answer)):  # what the page sends to take the save back
        logged_in.post(f"/decks/{deck.pk}/edit/{step['url']}/", {**step["fields"], "save": f"u{number}"})
    deck = Deck.objects.get(pk=deck.pk)
    assert counts(deck) == {main.name: 1} and deck_considering(deck) == []


def tags_of(deck) -> dict[str, str]:
    return {e.card.name: e.tag for e in Deck.objects.get(pk=deck.pk).entries.select_related("card")}


def test_cards_tagged_together_are_one_version_taken_back_by_one_save_each_to_its_own_tag(logged_in, owner):
    a, b, c = (make_card(name=f"Zz Together {n}") for n in "ABC")
    deck = deck_create(owner=owner, name="Together", entries=entries_of((a, 1), (b, 2), (c, 1)),
                       tags={b.collector_number: "Draw"})
    url = f"/decks/{deck.pk}/edit/tag/"
    tagging = [{"card": a.collector_number, "tag": "Ramp", "was": ""},
               {"card": b.collector_number, "tag": "Ramp", "was": "Draw"}]
    response = logged_in.post(url, {"tags": json.dumps(tagging), "save": "g" * 32})
    assert response.status_code == 200
    assert tags_of(deck) == {"Zz Together A": "Ramp", "Zz Together B": "Ramp", "Zz Together C": ""}
    saved = Deck.objects.get(pk=deck.pk)
    assert saved.version == deck.version + 1
    assert saved.revisions.order_by("-number").first().message == (
        "Zz Together A: tagged “Ramp”; Zz Together B: tag “Draw” → “Ramp”")
    [undo] = undo_of(response)
    back = logged_in.post(url, {**undo["fields"], "save": "h" * 32})
    assert back.status_code == 200 and Deck.objects.get(pk=deck.pk).version == deck.version + 2
    assert tags_of(deck) == {"Zz Together A": "", "Zz Together B": "Draw", "Zz Together C": ""}


@pytest.mark.parametrize("second, status, words", [
    ({"tag": "Ramp", "was": "Other"}, 409, "taken off in another window"),
    ({"tag": "x" * 31, "was": ""}, 400, "at most 30 characters"),
    ({"tag": "Ramp", "was": "", "card": "no-such-card"}, 400, "item 2: no card"),
])
def test_cards_tagged_together_are_all_tagged_or_none(logged_in, owner, second, status, words):
    a, b = (make_card(name=f"Zz All Or None {n}") for n in "AB")
    deck = deck_create(owner=owner, name="All or none", entries=entries_of((a, 1), (b, 1)))
    tagging = [{"card": a.collector_number, "tag": "Ramp", "was": ""}, {"card": b.collector_number, **second}]
    response = logged_in.post(f"/decks/{deck.pk}/edit/tag/", {"tags": json.dumps(tagging)})
    assert response.status_code == status and words in response.content.decode()
    assert tags_of(deck) == {"Zz All Or None A": "", "Zz All Or None B": ""}
    assert Deck.objects.get(pk=deck.pk).version == deck.version


@pytest.mark.parametrize("raw, words", [
    ("not json", "tags: not a JSON list"),
    ("[]", "tags: a list of 1 to 200 cards"),
    ('{"card": "x"}', "tags: a list of 1 to 200 cards"),
    ('[{"card": 7}]', "tags, item 1: a card's number"),
    ('["x"]', "tags, item 1: a card's number"),
])
def test_a_body_of_several_tags_that_does_not_read_is_refused_saying_where(logged_in, owner, raw, words):
    card = make_card(name="Zz Unread Tags")
    deck = deck_create(owner=owner, name="Unread", entries=entries_of((card, 1)))
    response = logged_in.post(f"/decks/{deck.pk}/edit/tag/", {"tags": raw})
    assert response.status_code == 400 and words in html.unescape(response.content.decode())
    assert Deck.objects.get(pk=deck.pk).version == deck.version
