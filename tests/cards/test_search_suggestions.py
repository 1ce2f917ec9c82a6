"""Did you mean: what a player typed from another search's habit, or misspelt, is answered with the term meant."""

import pytest

from cards.search import SearchError, search_cards

pytestmark = [pytest.mark.django_db, pytest.mark.config_independent]


@pytest.mark.parametrize(("query", "suggestion"), [
    ("id:red", "c:red"),  # Scryfall's colour identity
    ("pow>=5", "atk>=5"),
    ("tou<3", "vit<3"),
    ("sort:atk", "order:atk"),
    ("cmc=2", "cost=2"),
    ("colr:blue", "color:blue"),  # a misspelling
])
def test_an_unknown_field_is_ignored_with_a_warning_that_suggests_the_field_meant(query, suggestion):
    result = search_cards(f"t:unit {query}")
    [warning] = result.warnings
    assert warning.position == 7 and warning.suggestions[0] == suggestion
    assert f"Did you mean {suggestion}" in warning.message
    assert warning.as_dict()["suggestions"][0] == suggestion


def test_an_unknown_field_nothing_resembles_suggests_nothing():
    [warning] = search_cards("foo:bar").warnings
    assert warning.suggestions == () and "Did you mean" not in warning.message
    assert "suggestions" not in warning.as_dict()


@pytest.mark.parametrize(("query", "suggestion"), [
    ("kw:flyng", "is:flying"),  # misspelt, and a property rather than a keyword
    ("kw:flying", "is:flying"),
    ("t:creature", "t:unit"),
    ("is:legend", "t:legend"),
    ("order:power", "order:atk"),
    ("sub:sword", "sub:weapon"),
    ("c:rde", "c:red"),
    ("adir:nne", "adir:ne"),
    ("direction:des", "direction:desc"),
    ("sub:spell", 'sub:"spell talent"'),
])
def test_an_unknown_value_is_an_error_that_suggests_the_term_meant(query, suggestion):
    with pytest.raises(SearchError) as caught:
        search_cards(query)
    assert caught.value.suggestions[0] == suggestion
    assert f"Did you mean {suggestion}" in caught.value.message
    assert caught.value.details()["suggestions"][0] == suggestion
    assert caught.value.position == query.index(":") + 1


def test_a_range_with_a_comparison_says_that_the_range_is_what_does_not_take_it():
    with pytest.raises(SearchError) as caught:
        search_cards("vit<3-5")
    error = caught.value
    assert "A range ('3-5') takes ':', '=' or '!=', not '<'" in error.message
    assert "'vit' takes" not in error.message
    assert error.position == 3 and error.expected == [":", "=", "!="]
    assert error.suggestions == ["vit:3-5", "vit<3"]
    assert search_cards("vit<3").warnings == []  # one number: '<' is the stat's own


def test_the_api_carries_the_suggestions_of_a_warning_and_of_an_error(client):
    body = client.get("/api/cards/", {"q": "pow>=5 t:unit", "page_size": 1}).json()
    assert body["warnings"][0]["suggestions"] == ["atk>=5"]
    error = client.get("/api/cards/", {"q": "t:creature"}).json()["error"]
    assert error["details"]["suggestions"][0] == "t:unit"
