"""The authored cards: counts per craft, subtypes, numbers, and every ability in the catalog validating."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
import yaml

from cards.catalog.authored import DREADGATE_FILE, CatalogDataError, parse_authored
from cards.catalog.build import build_catalog, default_catalog
from core.effects import validate_ability, validate_card_abilities

CRAFTS = ("artifice", "champion", "divine", "engineering", "hinter", "sorcery")
TALENT_SUBTYPES = {"talent", "enchant talent", "battlefield talent", "intrigue talent", "spell talent"}


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


@pytest.fixture(scope="module")
def authored(catalog):
    return [c for c in catalog.cards if c["type"] != "unit"]


@pytest.mark.parametrize("craft", CRAFTS)
def test_each_craft_has_its_legends_glyphs_talents_and_items(authored, craft):
    cards = [c for c in authored if c["craft"] == craft]
    types = Counter(c["type"] for c in cards)
    assert types["legend"] >= 3
    assert types["glyph"] == 5
    assert types["talent"] >= 10
    assert types["item"] >= 6
    talents = [c for c in cards if c["type"] == "talent"]
    assert {c["subtype"] for c in talents} == TALENT_SUBTYPES
    assert any(c["is_instant"] for c in talents)
    items = [c for c in cards if c["type"] == "item"]
    assert len({c["subtype"] for c in items}) >= 5
    assert all(c["is_unique"] for c in cards if c["type"] == "glyph")


def test_legends_are_special_units_of_their_craft(authored):
    legends = [c for c in authored if c["type"] == "legend"]
    for legend in legends:
        assert 1 <= legend["influence"] <= 3
        assert 1 <= len(legend["abilities"]) <= 2
        assert all(legend[s] is not None for s in ("vitality", "attack", "defense", "range", "maneuver"))
        assert legend["maneuver_directions"] and legend["attack_directions"]


def _unit_targets(effect):
    if effect["op"] == "sequence":
        for step in effect["steps"]:
            yield from _unit_targets(step)
    elif "target" in effect:
        yield effect["target"]


def test_battlefield_talents_apply_to_several_units_and_enchant_talents_to_one(authored):
    """DG-3.1 and the rules text: a Battlefield Talent "applies to multiple units on the battlefield" (all of a
    side, or two or more chosen), an Enchant Talent "applies to one unit"."""
    for card in authored:
        if card["type"] != "talent" or card["subtype"] not in ("battlefield talent", "enchant talent"):
            continue
        targets = [t for a in card["abilities"] for t in _unit_targets(a["effect"]) if t["select"] != "previous"]
        assert targets, card["collector_number"]
        several = [t["select"] == "all" or t.get("count", 1) >= 2 for t in targets]
        if card["subtype"] == "battlefield talent":
            assert all(several), card["collector_number"]
        else:
            assert not any(several) and all(t["select"] == "chosen" for t in targets), card["collector_number"]


def test_universal_talents_items_and_the_gateway(authored):
    universal = Counter(c["type"] for c in authored if c["craft"] == "universal")
    assert universal["talent"] >= 3 and universal["item"] >= 3
    gateways = [c for c in authored if c["type"] == "gateway"]
    assert [g["collector_number"] for g in gateways] == ["X-GATE"]


def test_item_subtypes_all_used_and_some_consumable(authored):
    items = [c for c in authored if c["type"] == "item"]
    assert {c["subtype"] for c in items} == {
        "armor", "battlefield", "equipment", "exotic", "musical instrument", "weapon",
        "relic", "relic weapon", "relic armor",
    }  # fmt: skip
    assert sum(c["is_consumable"] for c in items) >= 6


def test_every_ability_in_the_catalog_has_text_and_a_valid_effect(catalog):
    abilities = 0
    for card in catalog.cards:
        assert validate_card_abilities(card) == [], card["collector_number"]
        for ability in card["abilities"]:
            assert validate_ability(ability) == []
            assert ability["text"].strip() and ability["effect"]["op"]
            assert ability["text"] in card["text"]  # printed on the card
            abilities += 1
    assert abilities >= 150


def test_names_and_numbers_unique_across_the_whole_catalog(catalog):
    assert len({c["name"] for c in catalog.cards}) == len(catalog.cards)
    assert len({c["collector_number"] for c in catalog.cards}) == len(catalog.cards)


def _data():
    with open(DREADGATE_FILE, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def test_bad_data_is_reported_card_by_card_with_every_problem():
    data = _data()
    legend = data["crafts"]["champion"]["legends"][0]
    legend["stats"]["attack"] = 12
    legend["abilities"][0]["effect"]["amount"] = 0
    data["crafts"]["divine"]["glyphs"][0]["number"] = "G-XYZ-1"
    with pytest.raises(CatalogDataError) as raised:
        parse_authored(data)
    errors = raised.value.errors
    assert (
        "crafts.champion.legends[0] (L-CHA-01 Aldric Vane, Captain of the Purge).stats.attack: must be an integer "
        "from 0 to 9" in errors
    )
    assert any("L-CHA-01" in e and "abilities[0].effect.amount: a modifier of 0 does nothing" in e for e in errors)
    assert any("G-XYZ-1" in e and "number: must match G-DIV-\\d\\d" in e for e in errors)


def test_a_content_change_without_a_version_bump_changes_the_version(tmp_path):
    data = _data()
    data["crafts"]["sorcery"]["talents"][0]["abilities"][0]["text"] = "Draw 2 cards, then discard a card. Quickly."
    changed = tmp_path / "dreadgate.yaml"
    changed.write_text(yaml.safe_dump(data))
    original = default_catalog()
    rebuilt = build_catalog(changed)
    assert rebuilt.version.split("+")[0] == original.version.split("+")[0]
    assert rebuilt.version != original.version
    assert build_catalog().version == original.version  # deterministic


def test_parse_does_not_mutate_its_input():
    data = _data()
    before = copy.deepcopy(data)
    parse_authored(data)
    assert data == before
