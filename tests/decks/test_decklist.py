"""Reading and writing plain-text deck lists."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.cardindex import CardIndex
from decks.cardinfo import Entry
from decks.decklist import DeckListError, format_deck_list, parse_deck_list

from .factories import info

PIKE = info("unit", name="Iron Pikeman")
GOBLIN = info("unit", name="Goblin Sapper", craft="engineering")
GLYPH = info("glyph", name="Glyph of Ashes", unique=True, craft="sorcery")
LEGEND = info("legend", name="Queen Maeve", unique=True)
X_NAMED = info("talent", name="X Marks the Spot")
GATE = info("gateway", name="The Dreadgate", craft="universal")
INDEX = CardIndex([PIKE, GOBLIN, GLYPH, LEGEND, X_NAMED, GATE])


def test_reads_counts_names_numbers_and_tolerates_comments_headers_and_blank_lines():
    text = f"""# name: Pike Push
// a comment
# format: quick

Legends (1)
1 Queen Maeve
Units:
4 iron  PIKEMAN
2x {GOBLIN.collector_number.lower()}
[Glyphs]
1 x Glyph of Ashes
== Gateway ==
Gateway
2 The Dreadgate
"""
    text = text.replace("== Gateway ==\n", "")
    parsed = parse_deck_list(text, INDEX)
    assert parsed.problems == []
    assert [(e.card.name, e.count, e.line) for e in parsed.entries] == [
        ("Queen Maeve", 1, 6), ("Iron Pikeman", 4, 8), ("Goblin Sapper", 2, 9), ("Glyph of Ashes", 1, 11),
    ]
    assert parsed.gateway == GATE
    assert parsed.meta == {"name": "Pike Push", "format": "quick"}


HUNTER = info("talent", name="Hunter's Mark", craft="wild")
SPEAR = info("item", name="Iron Spear", craft="universal")
MORE = CardIndex([PIKE, GOBLIN, GLYPH, LEGEND, X_NAMED, GATE, HUNTER, SPEAR])


def test_reads_the_list_formats_of_other_sites():
    text = f"""3x Iron Spear
Iron Spear x3
Iron Pikeman ×2
Goblin Sapper x 4
3 Iron Spear ({SPEAR.collector_number})
2 Wrong Name ({PIKE.collector_number.lower()})
1 Hunter\u2019s Mark
1 HUNTER\u2018S MARK
2 X Marks the Spot
"""
    parsed = parse_deck_list(text, MORE)
    assert parsed.problems == []
    assert [(e.card.name, e.count, e.line) for e in parsed.entries] == [
        ("Iron Spear", 3, 1), ("Iron Spear", 3, 2), ("Iron Pikeman", 2, 3), ("Goblin Sapper", 4, 4),
        ("Iron Spear", 3, 5), ("Iron Pikeman", 2, 6), ("Hunter's Mark", 1, 7), ("Hunter's Mark", 1, 8),
        ("X Marks the Spot", 2, 9),
    ]


def test_an_unknown_card_in_the_other_formats_is_named_without_its_count_or_number():
    parsed = parse_deck_list("Iron Spaer x3\n2 Iron Spaer (Q-NOPE-1)", MORE)
    assert [(p.line, p.code) for p in parsed.problems] == [(1, "unknown_card"), (2, "unknown_card")]
    assert all('"Iron Spaer"' in p.message and "Iron Spear" in p.suggestions for p in parsed.problems)


def test_a_name_starting_with_x_is_not_mistaken_for_the_times_sign():
    parsed = parse_deck_list("2 X Marks the Spot\n3 x X Marks the Spot", INDEX)
    assert [(e.card.name, e.count) for e in parsed.entries] == [("X Marks the Spot", 2), ("X Marks the Spot", 3)]


def test_every_bad_line_is_reported_with_its_number_and_reason():
    text = "4 Iron Pikeman\nfour Goblin Sapper\n0 Goblin Sapper\n2 Goblin Sappr\nGoblin Sapper\n99 Iron Pikeman\n" \
           "2.5 Iron Pikeman\nthis is not a card line"
    parsed = parse_deck_list(text, INDEX)
    by_line = {p.line: p for p in parsed.problems}
    assert sorted(by_line) == [2, 3, 4, 5, 6, 7, 8]
    assert by_line[2].code == "bad_line"
    assert by_line[3].code == "bad_count" and "from 1 to 60" in by_line[3].message
    assert by_line[4].code == "unknown_card" and by_line[4].suggestions[0] == "Goblin Sapper"
    assert "Did you mean Goblin Sapper" in by_line[4].message
    assert by_line[5].code == "bad_count" and '"1 Goblin Sapper"' in by_line[5].message
    assert by_line[6].code == "bad_count"
    assert by_line[7].code == "bad_count"
    assert all("Line" not in by_line[n].message for n in by_line)  # the line is said once, by `line`
    assert [(e.card.name, e.count) for e in parsed.entries] == [("Iron Pikeman", 4)]


def test_gateway_pair_is_at_most_two():
    parsed = parse_deck_list("3 The Dreadgate", INDEX)
    assert [p.code for p in parsed.problems] == ["bad_count"]


def test_dc9_a_card_under_a_gateway_section_must_be_a_gateway_card():
    """Read as the main deck, it would land there from a section that meant the gateway pair."""
    parsed = parse_deck_list("Units (4)\n4 Iron Pikeman\nGateway (2)\n2 Goblin Sapper\n2 The Dreadgate", INDEX)
    assert [(p.line, p.code) for p in parsed.problems] == [(4, "bad_line")]
    assert 'Goblin Sapper is not a gateway card: the "Gateway" section' in parsed.problems[0].message
    assert [e.card.name for e in parsed.entries] == ["Iron Pikeman"] and parsed.gateway == GATE
    after = parse_deck_list("Gateway pair:\n2 The Dreadgate\nUnits\n2 Goblin Sapper", INDEX)
    assert after.problems == [] and [e.card.name for e in after.entries] == ["Goblin Sapper"]  # a section after it


def test_dc9_a_name_and_a_number_of_two_cards_is_refused_not_read_as_the_numbers_card():
    """The number decides when the name beside it is no card's (another site's spelling); when it is another card's,
    the line means two cards, and reading it as one would quietly put the wrong card in the deck."""
    parsed = parse_deck_list(f"4 Iron Pikeman ({GOBLIN.collector_number})", INDEX)
    assert [(p.line, p.code) for p in parsed.problems] == [(1, "bad_line")] and parsed.entries == []
    assert parsed.problems[0].message == (f"Iron Pikeman is {PIKE.collector_number}, and {GOBLIN.collector_number} "
                                          "is Goblin Sapper: write the card's name or its number alone.")
    same = parse_deck_list(f"4 iron pikeman ({PIKE.collector_number.lower()})", INDEX)
    assert same.problems == [] and [(e.card.name, e.count) for e in same.entries] == [("Iron Pikeman", 4)]


def test_format_then_parse_gives_back_the_same_deck():
    entries = [Entry(PIKE, 4), Entry(GLYPH, 1), Entry(LEGEND, 1), Entry(X_NAMED, 3), Entry(GOBLIN, 2)]
    text = format_deck_list(entries, gateway=GATE, name="My  deck", format="tactical")
    assert text.splitlines()[:2] == ["# name: My deck", "# format: tactical"]
    assert "Units (6)" in text and "Gateway (2)" in text
    parsed = parse_deck_list(text, INDEX)
    assert parsed.problems == []
    assert sorted((e.card.id, e.count) for e in parsed.entries) == sorted((e.card.id, e.count) for e in entries)
    assert parsed.gateway == GATE


def test_too_long_a_list_is_refused_as_a_whole():
    try:
        parse_deck_list("1 Iron Pikeman\n" * 1001, INDEX)
    except DeckListError as exc:
        assert "1000" in str(exc)
    else:
        raise AssertionError("expected DeckListError")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400) | st.lists(
    st.sampled_from(["4 Iron Pikeman", "x", "# c", "Units:", "2x", "-1 a", "1 ", "[", "1 The Dreadgate", "\n", "9" * 30,
                     "\u00b2 Goblin Sapper", "\u0663 Iron Pikeman", "3 x", " // ", "(3)", "Sideboard",
                     "SB: 40 Iron Pikeman", "- 4 Iron Pikeman # x", "[Maybeboard]", "\ufeff", "Tokens:", "* ",
                     "SB:"]), max_size=30
).map("\n".join))
def test_the_parser_never_raises_anything_but_its_own_error(text):
    try:
        parsed = parse_deck_list(text, INDEX)
    except DeckListError:
        return
    for p in parsed.problems:
        assert p.line is not None and 1 <= p.line
    for e in parsed.entries + parsed.considering:
        assert 1 <= e.count <= 60
    for card in {e.card for e in parsed.considering}:
        assert sum(e.count for e in parsed.considering if e.card == card) <= 60 and card.type != "gateway"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["standard", "quick", "tactical"]))
def test_validating_a_list_never_fails_on_arbitrary_text(text, fmt):
    from decks.errors import InvalidDeckList
    from decks.services import validate_list

    try:
        report = validate_list(text, fmt, INDEX)
    except InvalidDeckList:
        return
    assert report["legal"] is (not report["errors"])
    assert all({"code", "message"} <= set(item) for item in report["errors"] + report["warnings"])


SIDEBOARD_HEADERS = ["Sideboard", "Sideboard:", "SIDEBOARD (2):", "[Sideboard]", "// Sideboard", "# Sideboard",
                     "Maybeboard", "[Maybeboard]", "Considering:", "## Side board"]


@pytest.mark.parametrize("header", SIDEBOARD_HEADERS)
def test_dc9_the_cards_under_a_sideboard_or_maybeboard_header_are_the_considering_list(header):
    """DC-9: never the main deck; a main-deck section after it gives the deck its cards back."""
    parsed = parse_deck_list(f"4 Iron Pikeman\n\n{header}\n2 Goblin Sapper\n1 X Marks the Spot\nUnits:\n"
                             "3 Goblin Sapper", INDEX)
    assert parsed.problems == []
    assert [(e.card.name, e.count, e.line) for e in parsed.entries] == [("Iron Pikeman", 4, 1),
                                                                       ("Goblin Sapper", 3, 7)]
    assert [(e.card.name, e.count, e.line) for e in parsed.considering] == [("Goblin Sapper", 2, 4),
                                                                           ("X Marks the Spot", 1, 5)]


def test_dc9_arena_and_mtgo_sideboards_are_the_considering_list():
    arena = parse_deck_list("Deck\n4 Iron Pikeman\n2 Goblin Sapper\n\nSideboard\n3 Goblin Sapper\n", INDEX)
    mtgo = parse_deck_list("4 Iron Pikeman\n2 Goblin Sapper\nSB: 3 Goblin Sapper\nsb: 1 X Marks the Spot\n"
                           "1 Queen Maeve", INDEX)
    assert arena.problems == mtgo.problems == []
    assert [(e.card.name, e.count) for e in arena.entries] == [("Iron Pikeman", 4), ("Goblin Sapper", 2)]
    assert [(e.card.name, e.count) for e in arena.considering] == [("Goblin Sapper", 3)]
    assert [(e.card.name, e.count) for e in mtgo.entries] == [("Iron Pikeman", 4), ("Goblin Sapper", 2),
                                                              ("Queen Maeve", 1)]
    assert [(e.card.name, e.count, e.line) for e in mtgo.considering] == [("Goblin Sapper", 3, 3),
                                                                         ("X Marks the Spot", 1, 4)]


def test_dc9_the_considering_list_holds_no_gateway_card_and_at_most_60_copies_each_naming_the_section():
    parsed = parse_deck_list("[Maybeboard]\n2 The Dreadgate\n40 Iron Pikeman\n30 Iron Pikeman\nSB: 61 Goblin Sapper",
                             INDEX)
    assert [(p.line, p.code) for p in parsed.problems] == [(2, "bad_line"), (4, "bad_count"), (5, "bad_count")]
    assert 'not under "Maybeboard"' in parsed.problems[0].message
    assert "at most 60 copies of Iron Pikeman; this line makes 70" in parsed.problems[1].message
    assert parsed.gateway is None and parsed.entries == []
    assert [(e.card.name, e.count) for e in parsed.considering] == [("Iron Pikeman", 40)]


def test_dc9_a_section_the_app_does_not_know_is_refused_by_name():
    parsed = parse_deck_list("Tokens:\n1 Iron Pikeman\n[Commander]\nCreatures (20)", INDEX)
    assert [(p.line, p.code) for p in parsed.problems] == [(1, "bad_line"), (3, "bad_line"), (4, "bad_line")]
    assert all("is not a section of a deck list" in p.message for p in parsed.problems)
    assert '"Tokens"' in parsed.problems[0].message and '"Commander"' in parsed.problems[1].message


def test_dc9_a_byte_order_mark_a_comment_after_a_card_and_markdown_bullets_are_read_past():
    text = "\ufeff# name: Bullets\n- 4 Iron Pikeman # early drop\n* 2x Goblin Sapper // cheap\n\u2022 1 Queen Maeve\n" \
           "- Sideboard\n* 1 X Marks the Spot #maybe"
    parsed = parse_deck_list(text, INDEX)
    assert parsed.problems == []
    assert parsed.meta == {"name": "Bullets"}
    assert [(e.card.name, e.count, e.line) for e in parsed.entries] == [
        ("Iron Pikeman", 4, 2), ("Goblin Sapper", 2, 3), ("Queen Maeve", 1, 4)]
    assert [(e.card.name, e.count) for e in parsed.considering] == [("X Marks the Spot", 1)]


def test_dc9_characters_drawn_as_nothing_are_read_past_and_never_quoted():
    text = "4 \u202eIron Pikeman\n2 Goblin\u200b Sapper\n\u2066\u2060\n1 Iron Pik\u202eeman"
    parsed = parse_deck_list(text, INDEX)
    assert [(e.card.name, e.count, e.line) for e in parsed.entries] == [
        ("Iron Pikeman", 4, 1), ("Goblin Sapper", 2, 2), ("Iron Pikeman", 1, 4)]
    assert [(p.line, p.code) for p in parsed.problems] == []  # line 3 shows nothing: a blank line
    parsed = parse_deck_list("1 Iron P\u202eikemn", INDEX)
    assert [p.code for p in parsed.problems] == ["unknown_card"]
    assert '"Iron Pikemn"' in parsed.problems[0].message and "\u202e" not in parsed.problems[0].message


def test_dc9_a_minus_without_a_space_is_still_no_count():
    parsed = parse_deck_list("-4 Iron Pikeman", INDEX)
    assert [p.code for p in parsed.problems] == ["bad_count"] and parsed.entries == []


def test_dc9_a_card_written_like_a_header_is_a_missing_count_not_an_unknown_section():
    parsed = parse_deck_list("Iron Pikeman:\n[Goblin Sapper]\nQueen Maeve (1)", INDEX)
    assert [(p.line, p.code) for p in parsed.problems] == [(1, "bad_count"), (2, "bad_count"), (3, "bad_count")]
    assert '"1 Iron Pikeman"' in parsed.problems[0].message and '"1 Queen Maeve"' in parsed.problems[2].message


def test_dc9_moxfield_and_archidekt_marks_after_a_card_are_read_past():
    """Moxfield writes a set code and the set's own number after the name, and a finish mark; Archidekt a category
    in brackets and labels between carets. What a migrating player pastes is read, not refused."""
    text = ("4 Iron Pikeman (CORE) 12\n2 Goblin Sapper (core) 7 *F*\n1x Queen Maeve [Legends]\n"
            "1x Glyph of Ashes (DG) 3 [Glyphs,Combo] ^Have,#37d67a^\n2 X Marks the Spot *E* *CMDR*")
    parsed = parse_deck_list(text, INDEX)
    assert parsed.problems == []
    assert [(e.card.name, e.count, e.line) for e in parsed.entries] == [
        ("Iron Pikeman", 4, 1), ("Goblin Sapper", 2, 2), ("Queen Maeve", 1, 3), ("Glyph of Ashes", 1, 4),
        ("X Marks the Spot", 2, 5)]


def test_dc9_an_archidekt_sideboard_category_puts_the_card_on_the_considering_list():
    """Archidekt writes its boards as categories: a card in "[Sideboard]" or "[Maybeboard{noDeck}]" is never the
    main deck's, as under a sideboard header."""
    parsed = parse_deck_list("4 Iron Pikeman [Units]\n2x Goblin Sapper (DG) 7 [Maybeboard{noDeck}{noPrice}]\n"
                             "1x X Marks the Spot [Combo,Sideboard]", INDEX)
    assert parsed.problems == []
    assert [(e.card.name, e.count) for e in parsed.entries] == [("Iron Pikeman", 4)]
    assert [(e.card.name, e.count) for e in parsed.considering] == [("Goblin Sapper", 2), ("X Marks the Spot", 1)]


def test_dc9_arenas_about_section_names_the_deck_and_holds_nothing_else():
    parsed = parse_deck_list("About\nName Pike Rush\n\nDeck\n4 Iron Pikeman\n", INDEX)
    assert parsed.problems == [] and parsed.meta == {"name": "Pike Rush"}
    assert [(e.card.name, e.count) for e in parsed.entries] == [("Iron Pikeman", 4)]
    refused = parse_deck_list("About\n4 Iron Pikeman", INDEX)
    assert [(p.line, p.code) for p in refused.problems] == [(2, "bad_line")] and refused.entries == []
    assert 'not a line of the "About" section' in refused.problems[0].message


def test_dc9_a_description_of_several_lines_goes_out_and_comes_back_with_the_list():
    """The text export wrote no description, so a deck exported and imported back lost it without a word."""
    description = "Push early.\n\n  Keep the Legend for turn 3."
    text = format_deck_list([Entry(PIKE, 4)], name="Pike Push", description=description)
    assert text.splitlines()[:4] == ["# name: Pike Push", "# description: Push early.", "# description:",
                                     "# description:   Keep the Legend for turn 3."]
    parsed = parse_deck_list(text, INDEX)
    assert parsed.problems == [] and parsed.meta == {"name": "Pike Push", "description": description}
    assert parse_deck_list("#  name:   Spaced  \n4 Iron Pikeman", INDEX).meta == {"name": "Spaced"}
