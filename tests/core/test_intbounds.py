"""How a refusal quotes what was sent (core.intbounds.shortened)."""

from core.intbounds import shortened


def test_a_long_value_is_quoted_by_its_start_marked_as_cut():
    assert shortened("7" * 40) == "7" * 40
    assert shortened("7" * 41) == "7" * 40 + "…"


def test_a_quote_drops_characters_drawn_as_nothing_so_that_none_reorders_the_refusal():
    assert shortened("\u202eabc\u200b") == "abc"
    assert shortened("\u202e" + "x" * 40) == "x" * 40  # counted as shown
