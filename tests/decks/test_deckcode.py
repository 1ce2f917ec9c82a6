"""Deck codes: compact, URL-safe, versioned, exact round trip; decoding only ever raises DeckCodeError."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.deckcode import DeckCode, DeckCodeError, decode, encode

numbers = st.one_of(
    st.integers(0, 99999).map(lambda n: f"U-{n:05d}"),
    st.from_regex(r"[A-Z]-[A-Z]{3}-[0-9]{2}", fullmatch=True),
    st.from_regex(r"[LTGI]-(ART|CHA|DIV|ENG|HIN|SOR|UNI)-[0-9]{2}", fullmatch=True),
    st.text(st.characters(min_codepoint=33, max_codepoint=0x2FFF), min_size=1, max_size=16).filter(
        lambda s: not re.match(r"^U-\d{5}$", s)),
)
codes = st.builds(
    lambda fmt, cards, gateway: DeckCode(fmt, tuple(sorted(cards.items())), gateway),
    st.sampled_from(["standard", "quick", "tactical"]),
    st.dictionaries(numbers, st.integers(1, 255), max_size=60),
    st.none() | st.just("X-GATE"),
)


@settings(max_examples=300, deadline=None)
@given(codes)
def test_round_trip_is_exact(code):
    text = encode(code)
    assert re.fullmatch(r"[A-Za-z0-9_-]*", text)
    assert decode(text) == code


def test_a_60_card_unit_deck_is_compact_and_starts_with_the_version():
    code = DeckCode("standard", tuple((f"U-{n:05d}", 4) for n in range(10000, 10015)), "X-GATE")
    text = encode(code)
    assert len(text) < 110
    assert decode(text) == code
    import base64
    assert base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))[0] == 1


@pytest.mark.parametrize("bad, reason", [
    ("", "letters"), ("!!!", "letters"), ("AQ", "cut short"), ("AgA", "version 2"), ("AQkA", "unknown format"),
    ("AQAB", "cut short"),
])
def test_bad_codes_name_the_problem(bad, reason):
    with pytest.raises(DeckCodeError, match=reason):
        decode(bad)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200) | st.binary(max_size=150).map(
    lambda b: __import__("base64").urlsafe_b64encode(b"\x01" + b).decode().rstrip("=")))
def test_decoder_never_raises_anything_but_its_own_error(text):
    try:
        code = decode(text)
    except DeckCodeError:
        return
    assert encode(code) == text.strip()  # anything accepted is canonical
