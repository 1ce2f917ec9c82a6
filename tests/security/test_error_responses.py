"""Errors outside the views' own handling: unknown API paths, crashes and the database going away."""

import pytest
from django.db import OperationalError
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


def test_an_unrouted_api_path_is_a_404_envelope(client):
    response = client.get("/api/decks/not-a-number/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"



def raising(exc):
    """A stand-in for a selector that fails with `exc`."""

    def fail(*args, **kwargs):
        raise exc

    return fail


def test_an_unrouted_page_is_the_404_page(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()  # the site's page, with its header and a way on: not Django's bare one
    assert "<h1>Page not found (404)</h1>" in page and 'aria-label="Main"' in page and 'href="/cards/"' in page


def test_a_forms_action_opened_as_a_link_is_the_sites_405_page_with_the_way_back_to_its_page(client):
    response = client.get("/decks/7/copy/")
    page = response.content.decode()
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert 'aria-label="Main"' in page and '<a href="/decks/7/">Back to the page</a>' in page


def test_a_form_sent_from_an_out_of_date_page_is_the_sites_page_saying_what_to_do(db):
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "a", "password": "b"})
    page = response.content.decode()
    assert response.status_code == 403 and 'aria-label="Main"' in page
    assert "This form was out of date" in page and "reload the page and send it again" in page


def test_the_database_going_away_is_a_503_envelope_with_retry_after(client, monkeypatch):
    monkeypatch.setattr("cards.selectors.craft_list", raising(OperationalError("connection refused")))
    response = client.get("/api/crafts/")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "database_unavailable"
    assert response["Retry-After"] == "5"


def test_the_database_going_away_on_a_page_is_a_503_page(client, monkeypatch):
    monkeypatch.setattr("config.views.catalog_summary", raising(OperationalError("connection refused")))
    response = client.get("/")
    assert response.status_code == 503
    assert "database is unavailable" in response.content.decode()


def test_an_unexpected_crash_on_the_api_is_a_500_envelope_without_a_traceback(client, monkeypatch):
    monkeypatch.setattr("cards.selectors.craft_list", raising(RuntimeError("secret internals")))
    response = client.get("/api/crafts/")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"
    assert b"secret internals" not in response.content


def assert_security_headers(response):
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_error_pages_carry_the_security_headers_too(client, settings, monkeypatch):
    assert_security_headers(client.get("/no-such-page/"))
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    too_large = client.post("/accounts/login/", {"username": "x" * 500, "password": "y"})
    assert too_large.status_code == 413
    assert_security_headers(too_large)

    monkeypatch.setattr("config.views.catalog_summary", raising(OperationalError("connection refused")))
    unavailable = client.get("/")
    assert unavailable.status_code == 503
    assert_security_headers(unavailable)
