"""The Dread Draw set: its data file, the design constraints, and the loader into DreadDrawCard."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from dreaddraw.catalog import load_dreaddraw_set
from dreaddraw.engine.cardset import DEFAULT_PATH, CardSetError, load_cardset, parse_cardset
from dreaddraw.models import DreadDrawCard


def _doc():
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def test_the_set_has_100_cards_each_with_at_most_one_ability_and_three_fortune_meanings():
    cs = load_cardset()
    assert len(cs) == 100
    for c in cs.numbers:
        card = cs.cards[c]
        assert 1 <= card.strength <= 10 and 0 <= card.damage <= 3
        assert bool(card.keyword) == bool(card.op) == bool(card.text)
        assert card.fortune_present and card.fortune_near and card.fortune_far
    keywords = Counter(cs.cards[c].keyword for c in cs.numbers)
    assert all(keywords[k] > 0 for k in ("summon", "reserve", "aftermath", "always"))


def test_the_strength_curve_is_bell_shaped_as_designed():
    strengths = Counter(load_cardset().strength[1:])
    assert [strengths[s] for s in range(1, 11)] == [8, 9, 10, 11, 12, 12, 11, 10, 9, 8]


def test_a_malformed_card_is_refused_with_its_number_and_field():
    doc = _doc()
    doc["cards"][4]["strength"] = -2
    with pytest.raises(CardSetError, match="card 5: 'strength'"):
        parse_cardset(doc)
    doc = _doc()
    doc["cards"][9]["keyword"] = "always"
    doc["cards"][9]["effect"] = {"op": "gain_life", "amount": 1}
    with pytest.raises(CardSetError, match="card 10: effect 'gain_life' is one-shot"):
        parse_cardset(doc)
    doc = _doc()
    del doc["cards"][2]["fortune"]["near"]
    with pytest.raises(CardSetError, match=r"card 3: 'fortune.near'"):
        parse_cardset(doc)


@pytest.mark.django_db
def test_the_set_is_loaded_with_the_catalog_and_a_second_load_changes_nothing():
    assert DreadDrawCard.objects.count() == 100
    report = load_dreaddraw_set()
    assert report == {"dreaddraw_created": 0, "dreaddraw_updated": 0, "dreaddraw_deleted": 0,
                      "dreaddraw_unchanged": 100}
    card = DreadDrawCard.objects.get(number=2)
    assert card.keyword == "summon" and card.effect == {"op": "scry", "amount": 1}
    assert card.catalog_version == load_cardset().version


@pytest.mark.django_db
def test_an_edited_set_updates_only_the_changed_cards_and_records_the_version(tmp_path):
    doc = _doc()
    doc["version"] = "dd-test"
    doc["cards"][0]["name"], doc["cards"][1]["name"] = doc["cards"][1]["name"], doc["cards"][0]["name"]
    doc["cards"][5]["damage"] = 3
    path = tmp_path / "set.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    report = load_dreaddraw_set(path)
    assert report["dreaddraw_updated"] == 3 and report["dreaddraw_unchanged"] == 97
    assert DreadDrawCard.objects.get(number=6).damage == 3
    assert DreadDrawCard.objects.get(number=6).catalog_version == "dd-test"
    assert DreadDrawCard.objects.get(number=7).catalog_version != "dd-test"
