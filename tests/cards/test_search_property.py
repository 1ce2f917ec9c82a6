"""Any text at all gives either results or the parser's own SearchError, never another exception."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.search import SearchError, search_cards

pytestmark = pytest.mark.django_db

PIECES = [
    "(", ")", "-", '"', " ", "or", "and", "OR", "name:", "c:", "t:", "sub:", "vit", "atk", "def", "rng", "man",
    ":", "=", "!=", "<", "<=", ">", ">=", "adir:", "mdir:", "kw:", "is:", "o:", "cn:", "order:", "direction:",
    "unit", "blue", "n", "se", "unique", "flying", "3", "-1", "99999", "*", "asc", "desc", "atk", "é", "%", "_",
    "\\", "'", "\x00", "relic weapon", "foo:",
    "!", "not", "NOT", "colour:", "cost", "influence", "3-5", "5-3", "u-10011", "\u0663", "1_0",
]
query_like = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
settings_ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def run(query: str) -> None:
    try:
        result = search_cards(query)
    except SearchError as error:
        assert error.message
        assert error.position is None or 0 <= error.position <= len(query)
        return
    list(result.queryset[:5])  # the SQL runs
    for warning in result.warnings:
        assert 0 <= warning.position <= len(query)


@settings_
@given(st.text(max_size=60))
def test_any_text_gives_results_or_a_search_error(query):
    run(query)


@settings_
@given(query_like)
def test_any_arrangement_of_the_language_pieces_gives_results_or_a_search_error(query):
    run(query)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.text(max_size=40), query_like))
def test_the_api_answers_any_query_with_results_or_a_refusal_in_the_envelope(client, query):
    """A NUL breaks the schema (400); any other text is results or a query that does not read (422)."""
    response = client.get("/api/cards/", {"q": query, "page_size": 5})
    assert response.status_code in ((400,) if "\x00" in query else (200, 422)), response.content
    body = response.json()
    if response.status_code != 200:
        assert set(body["error"]) == {"code", "message", "details"} and body["error"]["message"]
    else:
        assert isinstance(body["count"], int) and isinstance(body["warnings"], list)
