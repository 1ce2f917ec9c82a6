"""The tokenizer and parser: syntax trees with positions, and errors that say where and what was expected."""

import pytest

from cards.search.errors import SearchError
from cards.search.parser import OPERATORS, And, Not, Or, Term, parse


def test_blank_query_is_none():
    assert parse("") is None
    assert parse("   ") is None


def test_bare_word_is_a_name_term_with_its_position():
    assert parse("  dragon") == Term(None, ":", "dragon", False, 2, 8, 2)


def test_quoted_phrase_is_one_term():
    assert parse('"iron golem"') == Term(None, ":", "iron golem", True, 0, 12, 1)


@pytest.mark.parametrize("op", OPERATORS)
def test_every_operator_is_tokenized(op):
    node = parse(f"atk{op}5")
    assert node == Term("atk", op, "5", False, 0, 4 + len(op), 3 + len(op))


@pytest.mark.parametrize(
    "field", ["name", "c", "craft", "t", "type", "sub", "vit", "atk", "def", "rng", "man", "adir", "mdir", "kw",
              "is", "o", "cn", "order", "direction"],
)
def test_every_field_is_a_field_term(field):
    node = parse(f"{field}:x")
    assert isinstance(node, Term) and node.field == field and node.value == "x"


def test_field_names_are_case_insensitive():
    assert parse("ATK>=3").field == "atk"


def test_quoted_field_value():
    node = parse('sub:"relic weapon"')
    assert node == Term("sub", ":", "relic weapon", True, 0, 18, 5)


def test_juxtaposition_is_and_and_binds_tighter_than_or():
    node = parse("a b or c")
    assert isinstance(node, Or)
    assert isinstance(node.children[0], And)
    assert [t.value for t in node.children[0].children] == ["a", "b"]
    assert node.children[1].value == "c"


def test_explicit_and_and_case_insensitive_or():
    node = parse("a AND b")
    assert isinstance(node, And) and [t.value for t in node.children] == ["a", "b"]
    assert isinstance(parse("a OR b"), Or)


def test_negation_of_terms_and_groups():
    node = parse("-t:unit -(a or b)")
    assert isinstance(node, And)
    first, second = node.children
    assert isinstance(first, Not) and first.child.field == "t" and first.start == 0
    assert isinstance(second, Not) and isinstance(second.child, Or) and second.start == 8


@pytest.mark.parametrize(("query", "written"), [("not a", "not"), ("NOT a", "NOT"), ("! a", "!")])
def test_not_and_bang_before_a_term_are_negations_remembering_how_they_were_written(query, written):
    node = parse(query)
    assert node == Not(Term(None, ":", "a", False, len(query) - 1, len(query), len(query) - 1), 0, written)


@pytest.mark.parametrize(("query", "value", "start"), [("!fire", "fire", 0), ("t:unit !Iron", "Iron", 7),
                                                       ("(!u-10011)", "u-10011", 1)])
def test_bang_before_a_word_is_the_exact_name_as_on_scryfall(query, value, start):
    node = parse(query)
    term = node.children[1] if isinstance(node, And) else node
    assert term == Term("name", "=", value, False, start, start + 1 + len(value), start + 1, bang=True)


@pytest.mark.parametrize("query", ["!is:unique", "!(a or b)", "!not a", "!-a", "!!a"])
def test_bang_before_a_field_term_a_group_or_an_operator_is_still_a_negation(query):
    node = parse(query)
    assert isinstance(node, Not) and node.written == "!"


@pytest.mark.parametrize("query", ["!", "fire !"])
def test_a_bang_alone_says_both_things_it_may_have_meant(query):
    with pytest.raises(SearchError) as refused:
        parse(query)
    assert "a name to match exactly (!fire" in refused.value.message and "a term to leave out" in refused.value.message
    with pytest.raises(SearchError) as dash:
        parse("-")
    assert dash.value.message == "'-' must be followed by the term it negates."


def test_quoted_not_and_a_bang_inside_a_word_are_name_words():
    assert parse('"not"') == Term(None, ":", "not", True, 0, 5, 1)
    assert parse("a!") == Term(None, ":", "a!", False, 0, 2, 0)
    assert parse("vit!=3").op == "!="


def test_double_negation_nests():
    node = parse("--a")
    assert isinstance(node, Not) and isinstance(node.child, Not) and node.child.child.value == "a"


def test_parentheses_group():
    node = parse("(a or b) c")
    assert isinstance(node, And) and isinstance(node.children[0], Or)


def test_closing_paren_ends_a_value():
    node = parse("(vit:5)")
    assert node == Term("vit", ":", "5", False, 1, 6, 5)


def test_word_that_only_looks_like_a_field_with_symbols_is_a_name():
    assert parse("o'brien").field is None


@pytest.mark.parametrize(
    ("query", "position", "expected"),
    [
        ('"unclosed', 0, 'a closing "'),
        ('o:"draw a', 2, 'a closing "'),
        ("(a b", 4, "')'"),
        ("((a) b", 6, "')'"),
        ("a)", 1, "a term"),
        ("a or", 4, "a term"),
        ("or a", 0, "a term"),
        ("a or or b", 5, "a term"),
        ("()", 1, "a term"),
        ("a - b", 2, "a term"),
        ("a -", 2, "a term"),
        ("vit>=", 5, "a value"),
        ("and a", 0, "a term"),
        ("a and", 5, "a term"),
        ("vit=3 and and atk=2", 10, "a term"),
        ("a AND and b", 6, "a term"),
        ("a and or b", 6, "a term"),
        ("a or and b", 5, "a term"),
        ("a not", 2, "a term"),
        ("not or a", 0, "a term"),
        ("(a !)", 3, "a term"),
        ("NOT", 0, "a term"),
        ("ab\x00", 2, "printable text"),
        ("x" * 1001, 1000, "a shorter query"),
        ("(" * 40 + "a" + ")" * 40, 32, "fewer parentheses"),
        ("-" * 950 + "golem", 32, "fewer negations"),  # each "-" a level: 950 of them overflowed Python's stack
        ("!" * 999 + "a", 32, "fewer negations"),
        ("-(" * 20 + "a" + ")" * 20, 32, "fewer negations"),  # levels of both: the 17th "-" is the 33rd
        ("(" * 31 + "-(a)" + ")" * 31, 32, "fewer parentheses"),
    ],
)
def test_syntax_errors_name_position_and_expectation(query, position, expected):
    with pytest.raises(SearchError) as caught:
        parse(query)
    assert caught.value.position == position
    assert expected in caught.value.expected
    assert caught.value.details()["column"] == position + 1
    assert f"column {position + 1}" in str(caught.value)
