"""Deck statistics: exact hypergeometric odds, curve, breakdowns, averages, and the SVG charts."""

from fractions import Fraction
from math import comb

from decks.cardinfo import Entry
from decks.charts import bar_chart
from decks.presenters import OddsInputs, panel
from decks.stats import at_least_one, averages, category_odds, craft_breakdown, type_breakdown, vitality_curve

from .factories import info


def test_at_least_one_is_the_exact_hypergeometric_complement():
    # 4 copies in 40 cards, 7 seen: 1 - C(36,7)/C(40,7)
    assert at_least_one(40, 4, 7) == 1 - Fraction(comb(36, 7), comb(40, 7))
    assert round(float(at_least_one(40, 4, 7)), 4) == 0.5522  # 1 - 8,347,680 / 18,643,560
    assert at_least_one(60, 0, 10) == 0
    assert at_least_one(36, 36, 1) == 1
    assert at_least_one(36, 4, 40) == 1  # seeing more than the deck sees it all
    assert at_least_one(0, 0, 6) == 0


def test_category_odds_by_turn_show_their_inputs():
    units = [Entry(info("unit", vitality=v), 4) for v in (1, 2, 3, 4, 5)]
    talents = [Entry(info("talent", craft="sorcery"), 4) for _ in range(4)]
    entries = units + talents
    label, rows = category_odds(entries, "type:talent", hand_size=6, draws_per_turn=1, turns=3)
    assert label == "Any Talent"
    assert [(name, o.deck_size, o.successes, o.seen) for name, o in rows] == [
        ("Opening hand", 36, 16, 6), ("By turn 1", 36, 16, 7), ("By turn 2", 36, 16, 8), ("By turn 3", 36, 16, 9)]
    assert rows[0][1].probability == float(1 - Fraction(comb(20, 6), comb(36, 6)))
    assert [o.probability for _, o in rows] == sorted(o.probability for _, o in rows)
    _, cheap = category_odds(entries, "vit:2", hand_size=6, draws_per_turn=2, turns=1)
    assert cheap[0][1].successes == 8 and cheap[1][1].seen == 8
    _, unknown = category_odds(entries, "nonsense", hand_size=6, draws_per_turn=1, turns=1)
    assert unknown[0][1].successes == 20  # falls back to Units


def test_curve_breakdowns_and_averages():
    a = info("unit", vitality=2, attack=3, defense=1, range=1, maneuver=2)
    b = info("unit", vitality=4, attack=5, defense=3, range=2, maneuver=1, craft="hinter")
    legend = info("legend", vitality=6, unique=True)
    item = info("item", craft="universal")
    gate = info("gateway", craft="universal")
    entries = [Entry(a, 3), Entry(b, 1), Entry(legend, 1), Entry(item, 2), Entry(gate, 2)]
    assert vitality_curve(entries) == [(0, 0), (1, 0), (2, 3), (3, 0), (4, 1), (5, 0), (6, 1)]
    assert type_breakdown(entries) == [("Legend", 1), ("Unit", 4), ("Inventory Item", 2)]
    assert craft_breakdown(entries) == [("champion", 4), ("universal", 2), ("hinter", 1)]
    avg = averages(entries)
    assert avg["vitality"] == 2.5 and avg["attack"] == 3.5 and avg["range"] == 1.25
    assert averages([Entry(item, 1)])["attack"] is None


def test_panel_and_charts_are_svg_with_text_labels():
    entries = [Entry(info("unit", vitality=v), 4) for v in (1, 2, 3)]
    data = panel(entries, "standard", OddsInputs.from_params({"category": "vit:1", "hand": "7", "turns": "9"}))
    assert data["odds"] == OddsInputs("vit:1", 7, 1, 9)
    assert data["count"] == 12 and not data["report"].legal
    svg = str(data["curve_chart"])
    assert svg.startswith("<svg") and 'role="img"' in svg and "<title>Vitality curve" in svg
    assert svg.count("<rect") == 4  # vitality 0..3
    assert 'aria-label="Cards per craft: champion' not in str(data["craft_chart"])  # labels, not keys
    assert "Cha: 12" in str(data["craft_chart"])
    assert str(bar_chart("Empty", [])) == ""
    assert "&lt;b&gt;" in str(bar_chart("<b>", [("x", 1)]))


def test_a_percent_is_never_rounded_to_a_certainty_it_is_not():
    from decks.stats import odds, percent

    assert percent(Fraction(1)) == "100.0%" and percent(Fraction(0)) == "0.0%"
    assert percent(Fraction(9995, 10000)) == "> 99.9%" and percent(Fraction(5, 10**6)) == "< 0.1%"
    assert percent(Fraction(999, 1000)) == "99.9%" and percent(Fraction(1, 1000)) == "0.1%"
    almost = odds(40, 20, 15)  # 1 - C(20,15)/C(40,15): not certain, 99.99996%
    assert almost.exact < 1 and almost.percent == "> 99.9%"
    assert odds(36, 36, 1).percent == "100.0%"
