"""The deck validator: every DC rule in every format, several violations reported at once."""

import time

import pytest

from decks.cardinfo import Entry
from decks.validation import FORMATS, validate_deck

from .factories import info


def deck(*pairs):
    return [Entry(card, n) for card, n in pairs]


def filler(total: int, **kwargs):
    """`total` cards as non-unique units, 4 copies each (the remainder as one last entry)."""
    out = []
    while total > 0:
        n = min(4, total)
        out.append(Entry(info("unit", **kwargs), n))
        total -= n
    return out


def codes(report):
    return sorted(i.code for i in report.errors)


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("size, legal", [(35, False), (36, True), (48, True), (60, True), (61, False)])
def test_dc3_size_bounds_in_every_format(fmt, size, legal):
    report = validate_deck(filler(size), fmt)
    assert report.count == size
    assert report.legal is legal
    if not legal:
        assert codes(report) == ["too_few_cards" if size < 36 else "too_many_cards"]
        assert str(size) in report.errors[0].message
        assert report.errors[0].rule == "DC-3"


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_dc4_unique_card_allows_one_copy(fmt):
    glyph_type = "unit" if fmt == "tactical" else "glyph"
    unique = info(glyph_type, name="Glyph of Ashes", unique=True)
    ok = validate_deck(filler(35) + deck((unique, 1)), fmt)
    assert ok.legal, ok.errors
    bad = validate_deck(filler(34) + deck((unique, 2)), fmt)
    assert codes(bad) == ["unique_over_limit"]
    assert "Glyph of Ashes" in bad.errors[0].message
    assert bad.errors[0].card == unique.collector_number


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_dc5_four_copies_of_other_cards(fmt):
    card = info("unit", name="Iron Pikeman")
    assert validate_deck(filler(32) + deck((card, 4)), fmt).legal
    bad = validate_deck(filler(32) + deck((card, 5)), fmt)
    assert codes(bad) == ["copies_over_limit"]
    assert "Iron Pikeman" in bad.errors[0].message and "5" in bad.errors[0].message


def test_copies_are_counted_across_repeated_lines():
    card = info("unit", name="Split Soldier")
    bad = validate_deck(filler(30) + [Entry(card, 3, line=1), Entry(card, 3, line=9)], "standard")
    assert codes(bad) == ["copies_over_limit"]
    assert bad.errors[0].line == 9  # the line that went over


@pytest.mark.parametrize("card_type", ["legend", "glyph", "talent"])
def test_dc6_tactical_refuses_legends_glyphs_talents(card_type):
    card = info(card_type, name=f"Forbidden {card_type}", unique=card_type == "glyph")
    entries = filler(35) + deck((card, 1))
    assert validate_deck(entries, "standard").legal
    assert validate_deck(entries, "quick").legal
    tactical = validate_deck(entries, "tactical")
    assert codes(tactical) == ["type_not_allowed"]
    assert f"Forbidden {card_type}" in tactical.errors[0].message
    assert tactical.errors[0].rule == "DC-6"


def test_dc6_tactical_allows_units_and_items():
    entries = filler(32) + deck((info("item", name="Long Spear"), 4))
    assert validate_deck(entries, "tactical").legal


def test_dc2_gateway_card_is_outside_the_count_and_not_a_main_deck_card():
    gate = info("gateway", name="The Gate")
    report = validate_deck(filler(36) + deck((gate, 2)), "standard")
    assert report.count == 36
    assert codes(report) == ["not_main_deck_card"]
    assert "The Gate" in report.errors[0].message


def test_every_violation_is_reported_at_once():
    legend = info("legend", name="Queen Maeve", unique=True, craft="champion")
    talent = info("talent", name="Sudden Gust", craft="divine")
    pike = info("unit", name="Pike Wall")
    report = validate_deck(deck((legend, 2), (talent, 6), (pike, 7)), "tactical")
    assert codes(report) == sorted([
        "too_few_cards", "unique_over_limit", "copies_over_limit", "copies_over_limit",
        "type_not_allowed", "type_not_allowed",
    ])
    messages = " ".join(i.message for i in report.errors)
    for name in ("Queen Maeve", "Sudden Gust", "Pike Wall"):
        assert name in messages


def test_warnings_for_a_legal_but_weak_deck():
    talents = [Entry(info("talent", craft="sorcery"), 4) for _ in range(7)]
    big = [Entry(info("unit", craft="universal", vitality=9), 4) for _ in range(2)]
    report = validate_deck(talents + big, "standard")
    assert report.legal
    assert sorted(w.code for w in report.warnings) == ["craft_without_legend", "few_units", "high_curve"]
    assert "Sorcery" in next(w.message for w in report.warnings if w.code == "craft_without_legend")
    assert "push through the gateway" in next(w.message for w in report.warnings if w.code == "few_units")


def test_few_units_in_tactical_say_nothing_of_a_gateway_it_does_not_have():
    units = [Entry(info("unit", craft="universal", vitality=3), 4) for _ in range(2)]
    items = [Entry(info("item", craft="universal"), 4) for _ in range(8)]
    warning = next(w for w in validate_deck(units + items, "tactical").warnings if w.code == "few_units")
    assert warning.message == "Only 8 Units: fewer than 12 leaves little to fight or defend with."


def test_the_legend_warning_says_units_are_paid_with_action_points_and_recycling_without_influence():
    """DG-7.3, DG-7.4: without a legend of their craft, a craft's units are paid with AP and recycling points."""
    report = validate_deck(filler(36, craft="divine"), "standard")
    message = next(w.message for w in report.warnings if w.code == "craft_without_legend")
    assert "action points" in message and "recycl" in message and "only by recycling" not in message


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_dc7_a_gateway_pair_in_a_format_without_a_gateway_is_warned_not_refused(fmt):
    """DC-7: Tactical is played without a gateway; a pair kept beside a Tactical deck is legal but unused."""
    gate = info("gateway", name="The Gate")
    report = validate_deck(filler(36), fmt, gateway=gate)
    assert report.legal and report.count == 36
    unused = [w for w in report.warnings if w.code == "gateway_unused"]
    if fmt == "tactical":
        assert [(w.rule, w.card) for w in unused] == [("DC-7", gate.collector_number)]
        assert "The Gate" in unused[0].message and "without a gateway" in unused[0].message
    else:
        assert unused == []
    assert "gateway_unused" not in [w.code for w in validate_deck(filler(36), fmt).warnings]


def test_a_legend_of_the_craft_silences_the_legend_warning():
    legend = info("legend", craft="champion", unique=True)
    report = validate_deck(filler(35, craft="champion") + deck((legend, 1)), "standard")
    assert "craft_without_legend" not in [w.code for w in report.warnings]
    tactical = validate_deck(filler(36, craft="hinter"), "tactical")
    assert "craft_without_legend" not in [w.code for w in tactical.warnings]


def test_report_as_dict_has_the_api_shape():
    card = info("unit", name="Over Counted")
    data = validate_deck([Entry(card, 5, line=3)], "quick").as_dict()
    assert data["legal"] is False and data["count"] == 5
    over = next(e for e in data["errors"] if e["code"] == "copies_over_limit")
    assert over["card"] == card.collector_number and over["line"] == 3 and "Over Counted" in over["message"]
    size = next(e for e in data["errors"] if e["code"] == "too_few_cards")
    assert "card" not in size and "line" not in size


def test_validation_is_pure_and_fast_enough_to_run_on_every_keystroke():
    entries = filler(60)
    start = time.perf_counter()
    for _ in range(50):
        validate_deck(entries, "standard")
    # A sanity bound only (the benchmark is bench/decks.py): 50 validations well inside a second.
    assert time.perf_counter() - start < 1.0
