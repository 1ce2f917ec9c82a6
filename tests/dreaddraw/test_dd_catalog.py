"""The Dread Draw set: its data file, the design constraints, and the loader into DreadDrawCard."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from dreaddraw.catalog import load_dreaddraw_set
from dreaddraw.engine.cardset import (
    DEFAULT_PATH,
    KEYWORDS,
    MAX_ARRANGE,
    OPS,
    CardSetError,
    load_cardset,
    parse_cardset,
)
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


def _set(index: int, **fields):
    def change(doc):
        card = doc["cards"][index]
        for key, value in fields.items():
            if value is None:
                card.pop(key, None)
            else:
                card[key] = value
    return change


def _swap_numbers(doc):
    doc["cards"][3]["number"], doc["cards"][4]["number"] = 5, 4


def _duplicate_name(doc):
    doc["cards"][7]["name"] = doc["cards"][1]["name"]


def _too_few(doc):
    del doc["cards"][19:]


def _nineteen_plus_one(doc):
    del doc["cards"][20:]


def _no_version(doc):
    doc["version"] = ""


# Each check of the validator, broken once: the message names the card and what is wrong.
MALFORMED = {
    "numbers out of order": (_swap_numbers, r"card #4: 'number' must be 4"),
    "a number missing": (lambda d: d["cards"].pop(10), r"card #11: 'number' must be 11"),
    "a duplicate name": (_duplicate_name, r"card 8: duplicate name"),
    "an empty name": (_set(7, name="  "), r"card 8: 'name' is required"),
    "too few cards": (_too_few, r"at least 20 cards, got 19"),
    "no version": (_no_version, r"needs a 'version'"),
    "a negative damage": (_set(0, damage=-1), r"card 1: 'damage' must be a non-negative integer"),
    "a strength that is not a number": (_set(0, strength="5"), r"card 1: 'strength' must be"),
    "an unknown keyword": (_set(0, keyword="whenever", effect={"op": "gain_life"}), r"card 1: unknown keyword"),
    "an unknown effect": (_set(0, keyword="summon", effect={"op": "teleport"}), r"card 1: unknown effect op"),
    "a keyword without its effect": (_set(0, keyword="summon", effect=None), r"card 1: a keyword needs an effect"),
    "an effect without its keyword": (_set(0, keyword=None, effect={"op": "drain"}), r"card 1: a keyword needs"),
    "a one-shot effect always on": (_set(0, keyword="always", effect={"op": "drain"}), r"card 1: .*one-shot"),
    "an always-on effect on a triggered keyword": (
        _set(0, keyword="reserve", effect={"op": "shield", "amount": 1}), r"card 1: effect 'shield' is continuous"),
    "salvage on a Summon": (_set(0, keyword="summon", effect={"op": "salvage"}), r"card 1: 'salvage' only .*Aftermath"),
    "an amount of 0": (_set(0, keyword="summon", effect={"op": "gain_life", "amount": 0}),
                       r"card 1: effect amount must be a positive integer"),
    "a negative amount": (_set(0, keyword="always", effect={"op": "shield", "amount": -1}),
                          r"card 1: effect amount must be a positive integer"),
    "an amount that is not a number": (_set(0, keyword="summon", effect={"op": "gain_life", "amount": "2"}),
                                       r"card 1: effect amount must be a positive integer"),
    "arrange over the cap": (_set(0, keyword="summon", effect={"op": "arrange_draw", "amount": MAX_ARRANGE + 1}),
                             rf"card 1: arrange_draw amount is at most {MAX_ARRANGE}"),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_the_validator_refuses_each_malformed_set(name):
    break_it, message = MALFORMED[name]
    doc = _doc()
    break_it(doc)
    with pytest.raises(CardSetError, match=message):
        parse_cardset(doc)


@pytest.mark.parametrize("fits", [
    _nineteen_plus_one,
    _set(0, keyword="summon", effect={"op": "arrange_draw", "amount": MAX_ARRANGE}),
    _set(0, keyword="aftermath", effect={"op": "salvage", "amount": 1}),
    _set(0, keyword="summon", effect={"op": "gain_life", "amount": 1}),
], ids=["20 cards", "arrange at the cap", "salvage on Aftermath", "an amount of 1"])
def test_the_validator_accepts_each_limit_itself(fits):
    doc = _doc()
    fits(doc)
    parse_cardset(doc)


@pytest.mark.django_db
def test_the_set_is_loaded_with_the_catalog_and_a_second_load_changes_nothing():
    assert DreadDrawCard.objects.count() == 100
    report = load_dreaddraw_set()
    assert report == {"dreaddraw_created": 0, "dreaddraw_updated": 0, "dreaddraw_deleted": 0,
                      "dreaddraw_unchanged": 100}
    card = DreadDrawCard.objects.get(number=2)
    assert card.keyword == "summon" and card.effect == {"op": "sift_draw", "amount": 2}
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


def test_an_older_set_stays_loadable_by_its_version_and_an_unknown_one_is_refused():
    from dreaddraw.engine.cardset import cardset_versions

    current = load_cardset()
    assert load_cardset(version=current.version) is current
    old = load_cardset(version="dd-1.0")
    assert old.version == "dd-1.0" and len(old) == 100 and old is load_cardset(version="dd-1.0")
    assert Counter(old.strength) == Counter(current.strength)  # the redesign kept the strength curve
    assert cardset_versions() == ["dd-1.0", "dd-1.1", "dd-1.2", current.version]
    for version in ("dd-1.1", "dd-1.2"):
        assert Counter(load_cardset(version=version).strength) == Counter(current.strength)
    for bad in ("dd-0.9", "../cardset", ""):
        if bad:
            with pytest.raises(CardSetError, match="no card set of version"):
                load_cardset(version=bad)
    assert load_cardset(version="") is current


def test_set_dd_1_2_moves_the_strong_always_on_cards_up_and_retunes_red_dots_keeping_the_curve():
    """DD-27: card set dd-1.2 moves Spikes and Lookout up the curve (swapping strengths with plain cards), gaining
    life moves down (from a 7 to a 3, from a 6 to a 5), and red dots follow the per-card balance;
    dd-1.1 keeps its cards for its tables."""
    current, old = load_cardset(version="dd-1.2"), load_cardset(version="dd-1.1")
    assert current.version == "dd-1.2"
    by_name = {current.name(c): c for c in current.numbers}
    moved = {"Thorned Executioner": (5, 8), "Bogmother": (8, 5), "Thorn Crown": (4, 7), "Wailing Wall": (7, 4),
             "Watcher in the Eaves": (6, 9), "Wyrm of the Barrows": (9, 6), "Resurrectionist": (7, 3),
             "Rook Sentinel": (3, 7), "Bone Orchard": (6, 5), "Marsh Lights": (5, 6), "Vampire Court": (6, 5),
             "Moonlit Duelist": (5, 6)}
    for name, (before, after) in moved.items():
        c = by_name[name]
        assert (old.strength[c], current.strength[c]) == (before, after), name
    dots = {"Ward Stone": (0, 1), "Sentinel of Graves": (1, 2), "Soul Siphon": (1, 0), "Mourning Titan": (1, 0),
            "Bone Orchard": (1, 0), "Last Judgement": (2, 3), "Night Eternal": (2, 3), "Bell of Endings": (3, 2),
            "Archive of Bones": (1, 2), "Rook Sentinel": (1, 2), "Watcher in the Eaves": (1, 0),
            "Body Snatcher": (1, 0)}
    for name, (before, after) in dots.items():
        c = by_name[name]
        assert (old.damage[c], current.damage[c]) == (before, after), name
    # DD-28: the sift_life cards sift the Life Deck of a player their user names.
    sifts = {"Whispering Reed", "Tallow Witch", "Spirit Lantern-Bearer"}
    for name in sifts:
        c = by_name[name]
        assert (OPS[old.op[c]], OPS[current.op[c]]) == ("sift_life", "sift_any_life"), name
        assert old.amount[c] == current.amount[c] and "Choose a player" in current.card(c).text, name
    assert not any(OPS[current.op[c]] == "sift_life" for c in current.numbers)
    changed = {current.name(c) for c in current.numbers if current.card(c) != old.card(c)}
    assert changed == set(moved) | set(dots) | sifts
    assert Counter(old.strength) == Counter(current.strength)


def test_set_dd_1_3_turns_the_life_deck_sift_into_a_summon_cull_of_another_players_life_deck():
    """DD-30: card set dd-1.3 turns the three sift_any_life cards of dd-1.2 into Summon culls of another player's
    Life Deck (DD-29) with the same amounts, strengths and red dots, and gives Crypt Librarian a second red dot;
    nothing else changes, and dd-1.2 keeps its cards for its tables."""
    current, old = load_cardset(), load_cardset(version="dd-1.2")
    assert current.version == "dd-1.3"
    culls = {"Whispering Reed": "summon", "Tallow Witch": "reserve", "Spirit Lantern-Bearer": "reserve"}
    by_name = {current.name(c): c for c in current.numbers}
    for name, keyword in culls.items():
        c = by_name[name]
        assert (OPS[old.op[c]], OPS[current.op[c]]) == ("sift_any_life", "cull_life"), name
        assert (KEYWORDS[old.keyword[c]], KEYWORDS[current.keyword[c]]) == (keyword, "summon"), name
        assert (old.amount[c], old.strength[c], old.damage[c]) == (
            current.amount[c], current.strength[c], current.damage[c]), name
        text = current.card(c).text
        assert text.startswith("Summon: Choose another player.") and "Discard one of them" in text, name
    assert not any(OPS[current.op[c]] == "sift_any_life" for c in current.numbers)
    librarian = by_name["Crypt Librarian"]
    assert (old.damage[librarian], current.damage[librarian]) == (1, 2)
    changed = {current.name(c) for c in current.numbers if current.card(c) != old.card(c)}
    assert changed == {*culls, "Crypt Librarian"}
    assert Counter(old.strength) == Counter(current.strength)
