"""The compiler: every field and operator of the search language, against cards the tests make."""

import pytest
from django.db.models import Q

from cards.models import Card, CardType
from cards.search import SearchError, search_cards, search_indexed
from cards.search.compiler import compile_query, implied_tsquery
from cards.search.index import CatalogIndex
from cards.search.parser import parse
from tests.cards.search_factories import dirs, make_card, own

pytestmark = pytest.mark.django_db

_engine = ["sql"]


@pytest.fixture(autouse=True, params=["index", "sql"])
def engine(request):
    """Every test that searches through names() runs on both paths: the database, and an index of the
    test's own cards (the same class that indexes the catalog; built for each search, as the cards
    change within a test)."""
    _engine[0] = request.param
    yield request.param
    _engine[0] = "sql"


def names(query, **kwargs):
    """Names of the test's own cards that the query finds, in order, by the path of the `engine` fixture."""
    if _engine[0] == "sql":
        return own(search_cards(query, **kwargs).queryset)
    index = CatalogIndex("test", "/cards/CN.svg", cards=Card.objects.filter(collector_number__startswith="TST-"))
    result = search_indexed(query, index=index, **kwargs)
    _count, positions = result.page(0, index.size)
    by_id = dict(Card.objects.filter(pk__in=index.ids).values_list("pk", "name"))
    return [by_id[index.ids[p]] for p in positions]


@pytest.fixture
def cards():
    make_card("Tst Iron Golem", craft="engineering", vitality=6, attack=5, defense=7, range=4, maneuver=1,
              attack_directions=dirs("n", "ne"), maneuver_directions=dirs("n"), keywords=("subdue",),
              text="When this deploys, draw a card.")
    make_card("Tst Sky Lancer", craft="divine", vitality=3, attack=4, defense=1, range=5, maneuver=2,
              flying_maneuver=3, attack_directions=dirs("s", "sw"), maneuver_directions=dirs("e", "w"),
              keywords=("aviation",), is_unique=True, text="Heals an ally.")
    make_card("Tst Shadow Thief", craft="artifice", vitality=1, attack=0, defense=2, range=6, maneuver=3,
              attack_directions=dirs("nw"), maneuver_directions=dirs("n", "s", "e", "w"))
    make_card("Tst Old Reliquary", craft="universal", type=CardType.ITEM, subtype="relic weapon", cost=2,
              is_consumable=True, text="Equipped unit gets +1 attack.")
    make_card("Tst Quick Ward", craft="sorcery", type=CardType.TALENT, subtype="spell talent", cost=1,
              is_instant=True, text="Prevent the next damage. Draw two cards.")
    make_card("Tst Warlord", craft="champion", type=CardType.LEGEND, vitality=9, attack=8, defense=6, range=7,
              maneuver=2, is_unique=True, influence=2)


def test_bare_words_match_names_and_every_word_must_match(cards):
    assert names("golem") == ["Tst Iron Golem"]
    assert names("tst iron") == ["Tst Iron Golem"]
    assert names("tst iron sky") == []


def test_name_field_substring_exact_and_not(cards):
    assert names("name:lancer") == ["Tst Sky Lancer"]
    assert names('name:"shadow thief"') == ["Tst Shadow Thief"]
    assert names("name=lancer") == []
    assert names('name="tst sky lancer"') == ["Tst Sky Lancer"]
    assert "Tst Sky Lancer" not in names("name!=\"Tst Sky Lancer\"")


@pytest.mark.parametrize("query", ["c:divine", "craft:divine", "c:blue", "C:BLUE", "c=divine"])
def test_craft_by_name_or_colour(cards, query):
    assert names(query) == ["Tst Sky Lancer"]


def test_universal_is_brown(cards):
    assert names("c:universal") == names("c:brown") == ["Tst Old Reliquary"]


def test_craft_not_equal(cards):
    assert "Tst Sky Lancer" not in names("c!=blue")
    assert len(names("c!=blue")) == 5


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("t:unit", ["Tst Iron Golem", "Tst Shadow Thief", "Tst Sky Lancer"]),
        ("type:legend", ["Tst Warlord"]),
        ("t:talent", ["Tst Quick Ward"]),
        ("t:item", ["Tst Old Reliquary"]),
        ('t:"inventory item"', ["Tst Old Reliquary"]),
        ("t:weapon", []),
        ("t:\"relic weapon\"", ["Tst Old Reliquary"]),
    ],
)
def test_type(cards, query, expected):
    assert names(query) == expected


def test_type_unit_does_not_match_legends(cards):
    assert "Tst Warlord" not in names("t:unit")


def test_subtype_whole_name(cards):
    assert names('sub:"relic weapon"') == ["Tst Old Reliquary"]
    assert names("sub:relic") == []
    assert names('sub:"spell talent"') == ["Tst Quick Ward"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("vit:3", ["Tst Sky Lancer"]),
        ("vit=3", ["Tst Sky Lancer"]),
        ("vit!=3", ["Tst Iron Golem", "Tst Shadow Thief", "Tst Warlord"]),
        ("vit<3", ["Tst Shadow Thief"]),
        ("vit<=3", ["Tst Shadow Thief", "Tst Sky Lancer"]),
        ("vit>6", ["Tst Warlord"]),
        ("vit>=6", ["Tst Iron Golem", "Tst Warlord"]),
        ("atk>=5", ["Tst Iron Golem", "Tst Warlord"]),
        ("atk:0", ["Tst Shadow Thief"]),
        ("def>6", ["Tst Iron Golem"]),
        ("rng:5", ["Tst Sky Lancer"]),
        ("rng>=6", ["Tst Shadow Thief", "Tst Warlord"]),
        ("man:3", ["Tst Shadow Thief"]),
        ("man<2", ["Tst Iron Golem"]),
        ("atk>def", ["Tst Sky Lancer", "Tst Warlord"]),
        ("vitality>=9", ["Tst Warlord"]),
    ],
)
def test_stats_with_every_operator(cards, query, expected):
    assert names(query) == expected


ALL_SIX = ["Tst Iron Golem", "Tst Old Reliquary", "Tst Quick Ward", "Tst Shadow Thief", "Tst Sky Lancer", "Tst Warlord"]


@pytest.mark.parametrize(("query", "expected"), [
    # field!=value: the cards that have the field and whose value is not the value
    ("vit!=3", ["Tst Iron Golem", "Tst Shadow Thief", "Tst Warlord"]),
    ("atk!=def", ["Tst Iron Golem", "Tst Shadow Thief", "Tst Sky Lancer", "Tst Warlord"]),
    ("adir!=n", ["Tst Shadow Thief", "Tst Sky Lancer"]),  # the legend has no directions, like the item
    ("mdir!=n", ["Tst Sky Lancer"]),
    ("sub!=\"relic weapon\"", ["Tst Quick Ward"]),
    ("o!=heals", ["Tst Iron Golem", "Tst Old Reliquary", "Tst Quick Ward"]),
    ("kw!=subdue", ["Tst Sky Lancer"]),
    # every card has a name, a craft, a type, a collector number and every is: property
    ("c!=blue", [n for n in ALL_SIX if n != "Tst Sky Lancer"]),
    ("t!=unit", ["Tst Old Reliquary", "Tst Quick Ward", "Tst Warlord"]),
    ("is!=unique", ["Tst Iron Golem", "Tst Old Reliquary", "Tst Quick Ward", "Tst Shadow Thief"]),
    ("name!=\"Tst Warlord\"", ALL_SIX[:-1]),
])
def test_not_equal_is_one_rule_for_every_field(cards, query, expected):
    assert sorted(names(query)) == expected
    field, value = query.split("!=")
    negated = sorted(names(f"-{field}:{value}"))
    assert sorted(names(f"{field}:{value}")) == sorted(set(ALL_SIX) - set(negated))  # '-' keeps the cards without it
    assert set(expected) <= set(negated)


@pytest.mark.parametrize(("query", "expected"), [
    ("cost:2", ["Tst Old Reliquary"]),
    ("cost<=2", ["Tst Old Reliquary", "Tst Quick Ward"]),
    ("cost!=1", ["Tst Old Reliquary"]),
    ("influence>=1", ["Tst Warlord"]),
    ("influence:2 or cost:1", ["Tst Quick Ward", "Tst Warlord"]),
])
def test_cost_and_influence_are_searchable_stats(cards, query, expected):
    assert names(query) == expected


@pytest.mark.parametrize(("query", "expected"), [
    ("vit:3-6", ["Tst Iron Golem", "Tst Sky Lancer"]),
    ("vit=1-3", ["Tst Shadow Thief", "Tst Sky Lancer"]),
    ("vit:3-3", ["Tst Sky Lancer"]),
    ("vit!=3-6", ["Tst Shadow Thief", "Tst Warlord"]),
    ("cost:0-1", ["Tst Quick Ward"]),
])
def test_a_range_of_a_stat_includes_both_ends(cards, query, expected):
    assert names(query) == expected


@pytest.mark.parametrize(("query", "position", "expected"), [
    ("vit=\u0663", 4, "a whole number"),  # ARABIC-INDIC DIGIT THREE
    ("vit=1_0", 4, "a whole number"),
    ("atk>=\uff15", 5, "a whole number"),  # FULLWIDTH DIGIT FIVE
    ("vit:+3", 4, "a whole number"),
    ("vit:6-3", 4, "3-6"),
    ("vit<3-5", 3, ":"),
    ("cost:1-99999", 5, "a number from 0 to 32767"),
])
def test_stat_values_are_ascii_digits_and_ranges_run_upwards(query, position, expected):
    with pytest.raises(SearchError) as caught:
        search_cards(query)
    assert caught.value.position == position and expected in caught.value.expected


@pytest.mark.parametrize("query", ['!"Tst Sky Lancer"', "!'tst sky lancer'", 't:unit !"Tst Sky Lancer"'])
def test_bang_before_a_quoted_name_is_the_exact_name(cards, query):
    result = search_cards(query)
    assert own(result.queryset) == ["Tst Sky Lancer"] and not result.warnings


def test_bang_before_a_word_is_the_exact_name_with_a_warning_that_it_no_longer_negates(cards):
    make_card("Tstfire")
    make_card("Tstfire Drake")
    assert names("!tstfire") == names("!TSTFIRE") == ["Tstfire"]
    assert "Tstfire Drake" in names("tstfire") and "Tstfire Drake" not in names("-tstfire")
    [warning] = search_cards("t:unit !tstfire").warnings
    assert warning.position == 7 and warning.suggestions == ("-tstfire",)
    assert "exactly 'tstfire'" in warning.message and "not a negation" in warning.message


def test_the_exact_name_does_not_match_part_of_a_name(cards):
    assert names('!"Tst Sky"') == [] and names('-!"Tst Sky Lancer"') == [n for n in ALL_SIX if "Sky" not in n]


@pytest.mark.parametrize(("query", "expected"), [
    ("'shadow thief'", ["Tst Shadow Thief"]),
    ("o:'draw a card'", ["Tst Iron Golem"]),
    ("name:'t sky lan'", ["Tst Sky Lancer"]),
    ("o:\"gets +1\" o:'Equipped unit'", ["Tst Old Reliquary"]),
])
def test_single_quotes_quote_like_double_quotes(cards, query, expected):
    assert names(query) == expected


def test_a_single_quote_inside_a_word_is_a_letter_and_an_unclosed_one_an_error():
    make_card("Tst Hunter's Mark")
    assert names("hunter's") == ["Tst Hunter's Mark"]
    with pytest.raises(SearchError) as caught:
        search_cards("o:'draw a")
    assert caught.value.position == 2 and caught.value.expected == ["a closing '"]


def test_a_bare_collector_number_in_any_case_finds_that_card():
    number, name = Card.objects.filter(type=CardType.UNIT).order_by("collector_number").values_list(
        "collector_number", "name")[0]
    for text in (number, number.lower(), f"t:unit {number.lower()}"):
        assert list(search_cards(text).queryset.values_list("name", flat=True)) == [name]
    assert list(search_cards("l-cha-01").queryset.values_list("collector_number", flat=True)) == ["L-CHA-01"]


def test_stat_not_equal_leaves_out_cards_without_stats_but_negation_keeps_them(cards):
    assert "Tst Quick Ward" not in names("vit!=3")
    assert "Tst Quick Ward" in names("-vit:3")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("adir:n", ["Tst Iron Golem"]),
        ("adir:ne", ["Tst Iron Golem"]),
        ("adir:sw", ["Tst Sky Lancer"]),
        ("adir:nw", ["Tst Shadow Thief"]),
        ("adir:e", []),
        ("mdir:n", ["Tst Iron Golem", "Tst Shadow Thief"]),
        ("mdir:w", ["Tst Shadow Thief", "Tst Sky Lancer"]),
        ("mdir:n mdir:s", ["Tst Shadow Thief"]),
        ("adir:n or adir:s", ["Tst Iron Golem", "Tst Sky Lancer"]),
        ("t:unit adir!=n", ["Tst Shadow Thief", "Tst Sky Lancer"]),
    ],
)
def test_directions(cards, query, expected):
    assert names(query) == expected


def test_keywords_by_slug_or_name(cards):
    assert names("kw:subdue") == ["Tst Iron Golem"]
    assert names("keyword:Subdue") == ["Tst Iron Golem"]
    assert "Tst Iron Golem" not in names("kw!=subdue")


@pytest.mark.parametrize(("query", "suggestions"), [
    ("kw:flying", ["is:flying"]),
    ("t:unit kw:aviaton", ["kw:aviation"]),
    ("keyword:Subdu", ["keyword:subdue"]),
    ("kw:nope", []),
])
def test_an_unknown_keyword_is_an_error_listing_the_keywords_with_did_you_mean(cards, query, suggestions):
    with pytest.raises(SearchError) as caught:
        search_cards(query)
    error = caught.value
    assert error.position == query.rindex(":") + 1
    assert {"aviation", "subdue"} <= set(error.expected)
    assert error.suggestions == suggestions
    assert all(s in error.message for s in suggestions) and ("Did you mean" in error.message) == bool(suggestions)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("is:unique", ["Tst Sky Lancer", "Tst Warlord"]),
        ("is:flying", ["Tst Sky Lancer"]),
        ("is:instant", ["Tst Quick Ward"]),
        ("is:consumable", ["Tst Old Reliquary"]),
        ("t:unit -is:unique", ["Tst Iron Golem", "Tst Shadow Thief"]),
    ],
)
def test_is(cards, query, expected):
    assert names(query) == expected


def test_rules_text_words_and_quoted_phrases(cards):
    assert names("o:heals") == ["Tst Sky Lancer"]
    assert names('o:"draw a card"') == ["Tst Iron Golem"]
    assert names("o:draw") == ["Tst Iron Golem", "Tst Quick Ward"]
    assert names('o:"+1 attack"') == ["Tst Old Reliquary"]


@pytest.mark.parametrize(("value", "tsquery"), [
    ("golem", None),  # one word: the trigram index serves it alone
    ("end of turn", "of & turn:*"),  # the first word may end a longer one (defend); the last be cut short
    ("Until End", "end:*"),
    ("draw a card ", "a & card"),  # whitespace ends the last word too
    (" the", "the:*"),
    ("a a a", "a & a:*"),
    ("deal 2 damage", "2 & damage:*"),
    ("gets +1/+1 until", "until:*"),  # punctuation: left out
    ("a well-known x1 card", "x1 & card:*"),
    ("gain 1e5ab now", "now:*"),  # a digit then letters can read as a number
    ("the café au lait", "au & lait:*"),
    ("x\u00a0y z", "z:*"),  # only ASCII whitespace separates
])
def test_full_text_pre_filter_takes_the_plain_words_after_whitespace(value, tsquery):
    assert implied_tsquery(value) == tsquery


def _lookups(q: Q):
    for child in q.children:
        yield from _lookups(child) if isinstance(child, Q) else [child]


@pytest.mark.parametrize(("query", "fts"), [
    ('o:"end of turn"', [("text__fts", "of & turn:*")]),
    ('"of the" golem', [("name__fts", "the:*")]),
    ('name:"the ash" or c:blue', [("name__fts", "ash:*")]),
    ('--o:"end of turn"', [("text__fts", "of & turn:*")]),
    ('-o:"end of turn"', []),
    ('o!="end of turn"', []),
    ('-(golem or o:"end of turn")', []),
    ('name="of the"', []),
])
def test_full_text_pre_filter_only_where_the_term_is_not_negated(query, fts):
    assert [item for item in _lookups(compile_query(parse(query)).q) if item[0].endswith("__fts")] == fts


def test_a_tilde_in_rules_text_is_each_cards_own_name(cards):
    make_card("Tst Ember 50%", text="Tst Ember 50% deals 2 damage. Tst Frost deals 1.")
    make_card("Tst Frost", text="When Tst Ember 50% dies, draw a card.")
    make_card("Tst Ember_50%", text="Tst Ember 50% deals 2 damage.")  # LIKE wildcards in a name are letters
    assert names("o:~") == names("o:'~ deals'") == ["Tst Ember 50%"]
    assert names("o:'~ DEALS 2'") == ["Tst Ember 50%"]
    assert names("o:'When ~ dies'") == []
    assert "Tst Ember 50%" not in names("-o:~") and "Tst Frost" in names("-o:~")
    assert names("o!=~") == [n for n in names("o:/./") if n != "Tst Ember 50%"]


def test_phrases_cut_anywhere_and_their_negations_find_the_same_cards(cards):
    assert names('o:"ge. draw tw"') == ["Tst Quick Ward"]
    assert names('o:"When this deploys, dr"') == ["Tst Iron Golem"]
    assert names('name:"t sky lan"') == ["Tst Sky Lancer"]
    assert names('-o:"ge. draw tw" -o:"this deploys, draw a"') == [
        "Tst Old Reliquary", "Tst Shadow Thief", "Tst Sky Lancer", "Tst Warlord"]


def test_collector_number_exact_and_prefix():
    card = make_card("Tst Numbered", collector_number="TST-X42")
    make_card("Tst Numbered Too", collector_number="TST-X420")
    assert names(f"cn:{card.collector_number}") == ["Tst Numbered"]
    assert names("cn:tst-x42") == ["Tst Numbered"]
    assert names("cn:TST-X4*") == ["Tst Numbered", "Tst Numbered Too"]
    for query, column in (("cn:*-X42", 4), ("t:unit cn:TST-X*2", 16)):  # found nothing, unsaid
        with pytest.raises(SearchError) as caught:
            names(query)
        assert caught.value.position + 1 == column and "only at the end" in caught.value.message


@pytest.mark.parametrize("query", ["t:unit not is:unique", "t:unit NOT is:unique", "t:unit ! is:unique",
                                   "t:unit !is:unique"])
def test_not_and_bang_negate_the_next_term_with_a_warning_that_minus_is_the_operator(cards, query):
    result = search_cards(query)
    assert own(result.queryset) == names("t:unit -is:unique") == ["Tst Iron Golem", "Tst Shadow Thief"]
    [warning] = result.warnings
    assert warning.position == 7 and "the operator is '-'" in warning.message


def test_quoted_not_is_a_name_word(cards):
    make_card("Tst Forget Me Not")
    result = search_cards('"not"')
    assert own(result.queryset) == ["Tst Forget Me Not"] and not result.warnings


def test_or_negation_and_parentheses(cards):
    assert names("(c:blue or c:black) -is:unique") == ["Tst Shadow Thief"]
    assert names("-(t:unit or t:legend)") == ["Tst Old Reliquary", "Tst Quick Ward"]
    assert names("c:red or c:blue atk>5") == ["Tst Iron Golem"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("t:unit order:atk", ["Tst Shadow Thief", "Tst Sky Lancer", "Tst Iron Golem"]),
        ("t:unit order:atk direction:desc", ["Tst Iron Golem", "Tst Sky Lancer", "Tst Shadow Thief"]),
        ("t:unit order:vit", ["Tst Shadow Thief", "Tst Sky Lancer", "Tst Iron Golem"]),
        ("t:unit order:def direction:desc", ["Tst Iron Golem", "Tst Shadow Thief", "Tst Sky Lancer"]),
        ("t:unit order:rng", ["Tst Iron Golem", "Tst Sky Lancer", "Tst Shadow Thief"]),
        ("t:unit order:man direction:desc", ["Tst Shadow Thief", "Tst Sky Lancer", "Tst Iron Golem"]),
        ("t:unit order:craft", ["Tst Shadow Thief", "Tst Sky Lancer", "Tst Iron Golem"]),
        ("t:unit order:name direction:desc", ["Tst Sky Lancer", "Tst Shadow Thief", "Tst Iron Golem"]),
    ],
)
def test_order_and_direction_in_the_query(cards, query, expected):
    assert names(query) == expected


def test_names_sort_case_insensitively_with_ties_by_collector_number():
    make_card("Tst Blade Storm", attack=3)
    make_card("Tst Blade of the First", attack=3)
    make_card("TST BLADE TWIN", collector_number="TST-Z2", attack=3)
    make_card("Tst Blade Twin", collector_number="TST-Z1", attack=3)
    make_card("Tst blade zeta", attack=3)
    expected = ["Tst Blade of the First", "Tst Blade Storm", "Tst Blade Twin", "TST BLADE TWIN", "Tst blade zeta"]
    assert names("tst blade") == names("tst blade order:atk") == expected
    assert names("tst blade direction:desc") == expected[::-1]


def test_cards_without_the_stat_sort_last_both_ways(cards):
    ascending, descending = names("order:atk"), names("order:atk direction:desc")
    assert set(ascending[-2:]) == set(descending[-2:]) == {"Tst Old Reliquary", "Tst Quick Ward"}


def test_order_by_cost_and_influence(cards):
    assert names("t:talent or t:item order:cost direction:desc") == ["Tst Old Reliquary", "Tst Quick Ward"]
    assert names("order:influence direction:desc")[0] == "Tst Warlord"


def test_order_by_collector_number():
    make_card("Tst B", collector_number="TST-B")
    make_card("Tst A", collector_number="TST-C")
    assert names("tst order:cn") == ["Tst B", "Tst A"]


def test_parameters_override_order_terms_with_a_warning_at_the_term(cards):
    result = search_cards("t:unit order:atk", order="vit", direction="desc")
    assert (result.order, result.direction) == ("vit", "desc")
    assert (result.query_order, result.query_direction) == ("atk", "asc")
    assert own(result.queryset) == ["Tst Iron Golem", "Tst Sky Lancer", "Tst Shadow Thief"]
    [warning] = result.warnings
    assert warning.position == 7 and "takes precedence" in warning.message and "order:atk" in warning.message


def test_a_parameter_that_agrees_with_the_term_gives_no_warning(cards):
    assert search_cards("t:unit order:atk", order="attack").warnings == []


@pytest.mark.parametrize(("alias", "order"), [
    ("vitality", "vit"), ("attack", "atk"), ("defense", "def"), ("range", "rng"), ("maneuver", "man"),
    ("c", "craft"), ("colour", "craft"), ("color", "craft"), ("cost", "cost"), ("influence", "influence"),
    ("ATTACK", "atk"),
])
def test_every_field_name_and_alias_works_in_order(cards, alias, order):
    result = search_cards(f"tst order:{alias}")
    assert result.order == order and not result.warnings
    assert search_cards("tst", order=alias).order == order


def test_default_order_is_name_ascending():
    result = search_cards("")
    assert (result.order, result.direction) == ("name", "asc")


def test_bad_parameters_are_errors_naming_the_parameter():
    with pytest.raises(SearchError) as caught:
        search_cards("", order="shiny")
    assert caught.value.parameter == "order" and "cn" in caught.value.expected
    with pytest.raises(SearchError) as caught:
        search_cards("", direction="up")
    assert caught.value.parameter == "direction" and caught.value.expected == ["asc", "desc"]


@pytest.mark.parametrize(
    ("query", "position", "expected"),
    [
        ("vit:x", 4, "a whole number"),
        ("atk>=99999", 5, "a number from 0 to 32767"),
        ("c:teal", 2, "purple"),
        ("t:dragon", 2, "unit"),
        ('sub:"relic sword"', 5, "relic weapon"),
        ("adir:up", 5, "nw"),
        ("is:shiny", 3, "flying"),
        ("c>red", 1, ":"),
        ("  name<foo", 6, "!="),
        ("order:shiny", 6, "man"),
        ("direction:up", 10, "desc"),
        ("o<5", 1, ":"),
    ],
)
def test_bad_values_and_operators_are_errors_with_positions(query, position, expected):
    with pytest.raises(SearchError) as caught:
        search_cards(query)
    assert caught.value.position == position
    assert expected in caught.value.expected


def test_unknown_field_is_a_warning_and_the_term_is_ignored(cards):
    result = search_cards("tst foo:bar t:legend")
    assert own(result.queryset) == ["Tst Warlord"]
    assert len(result.warnings) == 1
    assert result.warnings[0].position == 4 and "foo" in result.warnings[0].message


@pytest.mark.parametrize(("query", "expected"), [
    ("t:legend or foo:bar", ["Tst Warlord"]),
    ("foo:bar or t:legend", ["Tst Warlord"]),
    ("t:legend -foo:bar", ["Tst Warlord"]),
    ("t:legend (foo:bar or -foo:baz)", ["Tst Warlord"]),
    ("t:legend or -foo:bar", ["Tst Warlord"]),
    ("t:legend or -order:atk", ["Tst Warlord"]),
    ("t:legend --foo:bar", ["Tst Warlord"]),
])
def test_an_ignored_term_drops_out_whatever_operator_stands_before_it(cards, query, expected):
    result = search_cards(query)
    assert own(result.queryset) == expected
    assert result.warnings and "ignored" in result.warnings[0].message


@pytest.mark.parametrize("query", ["-foo:bar", "-order:atk", "foo:bar or -foo:baz"])
def test_a_query_of_ignored_terms_only_matches_every_card(cards, query):
    assert len(names(query)) == 6


@pytest.mark.parametrize("field", ["colour", "color", "COLOUR"])
def test_colour_and_color_are_aliases_of_c(cards, field):
    result = search_cards(f"{field}:blue")
    assert own(result.queryset) == ["Tst Sky Lancer"] and not result.warnings
    assert "Tst Sky Lancer" not in names(f"-{field}:blue") and len(names(f"-{field}:blue")) == 5


def test_order_under_or_or_negation_or_repeated_is_a_warning(cards):
    assert search_cards("(t:unit order:atk)").order == "atk"  # a group joined by AND still applies
    result = search_cards("t:unit or order:atk")
    assert result.order == "name" and "top level" in result.warnings[0].message
    result = search_cards("-order:atk")
    assert result.order == "name" and result.warnings[0].position == 1
    result = search_cards("order:atk order:def")
    assert result.order == "atk" and result.warnings[0].position == 10


@pytest.mark.parametrize("query, position", [('!""', 2), ('name=""', 6), ('""', 1), ('o:"  "', 3), ('c "" t:unit', 3)])
def test_empty_quotes_are_an_error_at_them_not_every_card_or_none(cards, query, position):
    """`""` would find every card (a name contains "") and `!""` none (no card is named ""), without a word."""
    with pytest.raises(SearchError) as caught:
        names(query)
    assert "quotes are empty" in str(caught.value) and caught.value.position == position


@pytest.mark.parametrize("query", ["hunter’s", "Hunter‘s mark", "!\"Hunter’s Mark\"", "o:\"hunter’s\""])
def test_a_typographic_apostrophe_finds_what_the_ascii_one_finds(cards, query):
    """A phone's keyboard types ’: the catalog writes '. Both are one apostrophe, as everywhere names are looked up."""
    make_card("Hunter's Mark", text="Until your turn ends, the hunter's aim is true.")
    assert names(query) == ["Hunter's Mark"]
