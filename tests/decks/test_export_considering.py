"""The JSON export carries each card's tag and the considering list, and importing it restores them; the text
carries the considering list and leaves the tags out (saying so); the code leaves both out."""

import pytest

from decks.considering import deck_consider, deck_tag_card
from decks.errors import InvalidDeck, InvalidDeckList
from decks.models import Deck
from decks.selectors import (
    TEXT_EXPORT_LEAVES_OUT,
    card_info,
    deck_entries,
    deck_export_code,
    deck_export_json,
    deck_export_text,
    deck_tags,
)
from decks.services import deck_import

from .factories import considering_of, legal_deck, make_card

pytestmark = pytest.mark.django_db




def tagged_deck(owner):
    deck, pool = legal_deck(owner)
    pilfer = make_card("talent", name="Zz Export Pilfer")
    unique = make_card("legend", name="Zz Export Legend", unique=True)
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=card_info(pool[0]), tag="ramp")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=card_info(pool[1]), tag="card draw")
    deck, _ = deck_consider(deck=deck, actor=owner, card=card_info(pilfer), delta=2)
    deck, _ = deck_consider(deck=deck, actor=owner, card=card_info(unique), delta=3)  # over its limit: not counted
    return deck, pool, pilfer, unique


def test_the_json_export_carries_tags_and_the_considering_list_and_imports_them_back(api, owner):
    deck, pool, pilfer, unique = tagged_deck(owner)
    as_json = deck_export_json(deck)
    assert {c["card"]: c["tag"] for c in as_json["cards"] if c["tag"]} == {
        pool[0].collector_number: "ramp", pool[1].collector_number: "card draw"}
    assert all("tag" in c for c in as_json["cards"])
    assert sorted((c["card"], c["count"]) for c in as_json["considering"]) == sorted(
        [(pilfer.collector_number, 2), (unique.collector_number, 3)])
    back = deck_import(owner=owner, data=as_json)
    assert deck_tags(back) == deck_tags(deck) and considering_of(back) == considering_of(deck)
    assert deck_export_code(back) == deck_export_code(deck) and back.card_count == 36 and back.is_legal
    assert back.revisions.get().tags == deck_tags(deck)
    assert back.revisions.get().considering == sorted([list(p) for p in considering_of(deck)])
    # The same through the API, from its export.
    exported = api.get(f"/api/decks/{deck.pk}/export/?as=json").json()
    imported = api.post("/api/decks/import/", {"deck": exported}, format="json")
    assert imported.status_code == 201, imported.json()
    assert {c["card"]: c["tag"] for c in imported.json()["cards"] if c["tag"]} == deck_tags(deck)
    assert len(imported.json()["considering"]) == 2
    # A deck's API form reads back as well: it has the export's cards and considering list.
    again = api.post("/api/decks/import/", {"deck": api.get(f"/api/decks/{deck.pk}/").json()}, format="json")
    assert again.status_code == 201, again.json()
    assert {c["card"]: c["tag"] for c in again.json()["cards"] if c["tag"]} == deck_tags(deck)


def test_the_text_carries_the_considering_list_and_says_it_leaves_the_tags_out(owner):
    """As other sites write a sideboard: under a section of its own, which the import reads back (DC-9)."""
    deck, pool, pilfer, unique = tagged_deck(owner)
    text = deck_export_text(deck)
    assert text.splitlines()[0] == TEXT_EXPORT_LEAVES_OUT
    assert "ramp" not in text and text.rstrip().endswith("Considering (5)\n3 Zz Export Legend\n2 Zz Export Pilfer")
    from_text = deck_import(owner=owner, text=text)  # the comment is read past
    assert sorted((e.card.id, e.count) for e in deck_entries(from_text)) == sorted(
        (e.card.id, e.count) for e in deck_entries(deck))
    assert from_text.name == "Tagged API deck" and deck_tags(from_text) == {}
    assert considering_of(from_text) == considering_of(deck)


def test_the_text_carries_the_description_and_the_import_reads_it_back(owner):
    """It was left out without a word: a deck exported as text and imported back had lost its description."""
    deck, _ = legal_deck(owner)
    Deck.objects.filter(pk=deck.pk).update(description="Rush the gate.\n\nSide in Wards against Sorcery.")
    deck.refresh_from_db()
    back = deck_import(owner=owner, text=deck_export_text(deck))
    assert back.description == deck.description and back.name == deck.name


def test_the_code_leaves_the_tags_and_the_considering_list_out(owner):
    deck, *_ = tagged_deck(owner)
    from_code = deck_import(owner=owner, code=deck_export_code(deck))
    assert deck_tags(from_code) == {} and considering_of(from_code) == []
    assert deck_export_code(from_code) == deck_export_code(deck)
    plain, _ = legal_deck(owner)
    assert TEXT_EXPORT_LEAVES_OUT not in deck_export_text(plain)  # nothing left out, nothing said


def test_a_json_deck_with_bad_tags_or_considering_items_saves_nothing(owner):
    deck, pool, pilfer, unique = tagged_deck(owner)
    decks_before = Deck.objects.filter(owner=owner).count()
    as_json = deck_export_json(deck)
    bad = dict(as_json, considering=[{"card": "Zz Export Pilfr", "count": 1}, {"card": pilfer.collector_number,
                                                                                "count": 0}])
    with pytest.raises(InvalidDeckList) as exc:
        deck_import(owner=owner, data=bad)
    problems = exc.value.details["problems"]
    assert [p["code"] for p in problems] == ["unknown_card", "bad_count"]
    assert problems[0]["message"].startswith('Item 1 of "considering"') and "Zz Export Pilfer" in problems[0][
        "suggestions"]
    assert "2 items of the considering list" in exc.value.message
    with pytest.raises(InvalidDeck) as exc:
        deck_import(owner=owner, data=dict(as_json, considering={"card": "x"}))
    assert '"considering" is a list' in exc.value.message
    cards = [dict(c) for c in as_json["cards"]]
    cards[0]["tag"] = "y" * 40
    with pytest.raises(InvalidDeck) as exc:
        deck_import(owner=owner, data=dict(as_json, cards=cards))
    assert cards[0]["name"] in exc.value.message and "at most 30 characters" in exc.value.message
    cards[0]["tag"] = 7
    with pytest.raises(InvalidDeck) as exc:
        deck_import(owner=owner, data=dict(as_json, cards=cards))
    assert 'Item 1 of "cards"' in exc.value.message
    assert Deck.objects.filter(owner=owner).count() == decks_before
    # A JSON deck of before tags, with neither, imports as before.
    old = {k: v for k, v in as_json.items() if k != "considering"}
    old["cards"] = [{k: v for k, v in c.items() if k != "tag"} for c in as_json["cards"]]
    plain = deck_import(owner=owner, data=old)
    assert deck_tags(plain) == {} and considering_of(plain) == [] and plain.card_count == 36
