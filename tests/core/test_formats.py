"""DC-8: a game takes the decks built under its format's deck rules, read from the formats' data."""

from dataclasses import replace

import pytest

from core import formats
from core.formats import deck_formats_for

pytestmark = pytest.mark.config_independent


def test_standard_and_quick_decks_play_in_each_others_games_and_tactical_only_in_tactical():
    assert deck_formats_for("standard") == deck_formats_for("quick") == ("standard", "quick")
    assert deck_formats_for("tactical") == ("tactical",)


def test_a_format_whose_deck_rules_differ_takes_its_own_decks_only(monkeypatch):
    smaller = replace(formats.QUICK, max_cards=40)
    monkeypatch.setitem(formats.FORMATS, "quick", smaller)
    assert deck_formats_for("quick") == ("quick",) and deck_formats_for("standard") == ("standard",)
