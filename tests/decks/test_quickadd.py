"""The editor's quick-add lines (decks/quickadd.py), as card players type them; no database."""

from decks.cardindex import CardIndex
from decks.quickadd import parse_quick_add

from .factories import info

PIKE, SPEAR, GATE = info(name="Iron Pike"), info(name="Spear of Dawn"), info("gateway", name="The Gate")
INDEX = CardIndex([PIKE, SPEAR, GATE])


def changes(text):
    read = parse_quick_add(text, INDEX)
    return [(c.card.name, c.delta, c.line) for c in read.changes], [(p.line, p.code) for p in read.problems]


def test_every_way_of_writing_a_count_and_a_bare_name_for_one_copy():
    text = "4 Iron Pike\n4x Spear of Dawn\nIron Pike x2\n2 x Spear of Dawn\nIron Pike\n" + PIKE.collector_number
    assert changes(text) == ([("Iron Pike", 4, 1), ("Spear of Dawn", 4, 2), ("Iron Pike", 2, 3),
                              ("Spear of Dawn", 2, 4), ("Iron Pike", 1, 5), ("Iron Pike", 1, 6)], [])


def test_a_count_after_the_name_too_large_is_said_as_a_count_not_as_a_name():
    read = parse_quick_add("Iron Pike x99999999999999999999\nSpear of Dawn ×61", INDEX)
    assert [(p.line, p.code) for p in read.problems] == [(1, "bad_count"), (2, "bad_count")]
    assert "99999999999999999999 copies is more than any deck holds" in read.problems[0].message


def test_a_minus_sign_removes_copies_and_a_plus_sign_adds_them():
    assert changes("-1 Iron Pike\n+2 Spear of Dawn\n- 3 Iron Pike") == (
        [("Iron Pike", -1, 1), ("Spear of Dawn", 2, 2), ("Iron Pike", -3, 3)], [])


def test_too_many_copies_with_a_sign_is_quoted_with_its_sign():
    read = parse_quick_add("-99999 Iron Pike\n+61 Spear of Dawn\n-60 Iron Pike", INDEX)
    assert [(p.line, p.code) for p in read.problems] == [(1, "bad_count"), (2, "bad_count")]
    assert read.problems[0].message.startswith("“-99999”: a line takes away at most 60 copies")
    assert read.problems[1].message.startswith("“+61”: a line adds at most 60 copies")


def test_a_section_the_app_does_not_know_is_refused_by_name_not_read_as_a_card():
    read = parse_quick_add("Tokens:\n1 Iron Pike\n[Commander]", INDEX)
    assert [(p.line, p.code) for p in read.problems] == [(1, "bad_line"), (3, "bad_line")]
    assert read.problems[0].message.startswith('"Tokens" is not a section of a deck list')
    assert read.problems[1].message.startswith('"Commander" is not a section') and not read.problems[1].suggestions


def test_the_decks_own_gateway_card_is_read_past_and_named_so_the_box_can_say_why_nothing_changed():
    read = parse_quick_add("1 The Gate", INDEX, gateway=GATE.collector_number)
    assert read.changes == [] and read.problems == [] and read.gateway == GATE
    assert parse_quick_add("1 Iron Pike", INDEX, gateway=GATE.collector_number).gateway is None


def test_headers_and_comments_are_skipped_and_each_bad_line_is_named_with_a_suggestion():
    read = parse_quick_add("Units (4)\n# mine\n4 Iron Pkie\n2 The Gate\n0 Iron Pike", INDEX)
    assert [(p.line, p.code) for p in read.problems] == [(3, "unknown_card"), (4, "not_main_deck_card"),
                                                         (5, "bad_count")]
    assert read.problems[0].suggestions == ("Iron Pike",)
    assert read.changes == []


def test_dc9_pasted_sideboard_cards_go_to_the_considering_list_never_into_the_deck():
    text = "4 Iron Pike\n\nSideboard\n2 Spear of Dawn\n-1 Iron Pike\nSB: 1 Iron Pike\nUnits:\n1 Spear of Dawn"
    read = parse_quick_add(text, INDEX)
    assert read.problems == []
    assert [(c.card.name, c.delta, c.line) for c in read.changes] == [("Iron Pike", 4, 1), ("Spear of Dawn", 1, 8)]
    assert [(c.card.name, c.delta, c.line) for c in read.considering] == [
        ("Spear of Dawn", 2, 4), ("Iron Pike", -1, 5), ("Iron Pike", 1, 6)]
    assert [(card.name, delta) for card, delta in read.net_considering()] == [("Spear of Dawn", 2)]
    gate = parse_quick_add("Sideboard\n1 The Gate", INDEX)
    assert [(p.line, p.code) for p in gate.problems] == [(2, "bad_line")] and gate.considering == []
    assert "takes no gateway card" in gate.problems[0].message


def test_dc9_the_main_deck_written_out_refuses_sideboard_cards_naming_the_section():
    read = parse_quick_add("4 Iron Pike\n\nSideboard\n2 Spear of Dawn\nSB: 1 Iron Pike", INDEX, reader="the text")
    assert [(p.line, p.code) for p in read.problems] == [(4, "bad_line"), (5, "bad_line")]
    assert 'under "Sideboard"' in read.problems[0].message and 'after "SB:"' in read.problems[1].message
    assert read.considering == []
