"""A query at its length limit (MAX_QUERY_LENGTH characters) reaches the application through gunicorn, launched as
deployed (gunicorn.conf.py), however long it is percent-encoded; one character more is the application's own 400,
naming the limit, on the API and on the catalog page alike (docs/search.md)."""

from __future__ import annotations

import urllib.parse

import pytest

from cards.search.parser import MAX_QUERY_LENGTH
from tests.faults.support import WebServer

pytestmark = [pytest.mark.django_db, pytest.mark.config_independent]

WIDEST = "\U0001f0a1"  # a playing card: 4 bytes of UTF-8, 12 characters percent-encoded


def query_path(page: str, length: int) -> str:
    return page + "?" + urllib.parse.urlencode({"q": WIDEST * length, "order": "name", "direction": "asc"})


@pytest.mark.parametrize("page", ["/api/cards/", "/cards/"])
def test_a_query_over_the_limit_is_a_400_naming_it(client, page):
    response = client.get(page, {"q": "x" * (MAX_QUERY_LENGTH + 1)})
    assert response.status_code == 400
    assert f"{MAX_QUERY_LENGTH}" in response.content.decode()
    assert client.get(page, {"q": "x" * MAX_QUERY_LENGTH}).status_code == 200


@pytest.mark.parametrize("page", ["/api/cards/", "/cards/", "/api/cards/random/"])
def test_a_run_of_negations_within_the_limit_is_refused_at_a_column_not_a_server_error(client, page):
    response = client.get(page, {"q": "-" * 950 + "golem"})  # each "-" a level of the tree: Python's stack overflowed
    assert response.status_code == (200 if page == "/cards/" else 422)  # the page shows a query to correct (200)
    assert "nested more than 32 deep" in response.content.decode() and "column 33" in response.content.decode()


def test_gunicorn_as_deployed_lets_a_query_at_the_limit_through_to_the_application(tmp_path):
    assert len(query_path("/api/cards/", MAX_QUERY_LENGTH)) > 12 * MAX_QUERY_LENGTH  # beyond gunicorn's own maximum
    server = WebServer(tmp_path, {"DREADGATE_VAR_DIR": str(tmp_path / "var")})
    try:  # the request line's length is the same on either page: one of each answer is enough
        status, body, _ = server.request("GET", query_path("/api/cards/", MAX_QUERY_LENGTH))
        assert status == 200, str(body)[:300]
        status, body, _ = server.request("GET", query_path("/cards/", MAX_QUERY_LENGTH + 1))
        assert status == 400 and f"longer than {MAX_QUERY_LENGTH} characters" in body, str(body)[:300]
    finally:
        server.stop()
