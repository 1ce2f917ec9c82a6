"""Smaller findings on rate limits and shared caches, each test naming its rule."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from cards.models import Card
from config.accounts.services import token_create
from decks.services import deck_create
from tests.support import ROOT

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(monkeypatch):
    """Set some throttle rates for one test, from a clean throttle history."""
    cache.clear()

    def set_rates(**scopes):
        for scope, rate in scopes.items():
            monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, rate)

    yield set_rates
    cache.clear()


@pytest.fixture
def user():
    return get_user_model().objects.create_user("limited", password="a-long-passphrase-7")


def test_requests_with_an_unknown_token_count_against_the_anonymous_limit(client, rates, user):
    rates(anon_burst="3/minute")
    for _ in range(3):
        assert client.get("/api/crafts/", HTTP_AUTHORIZATION="Bearer dgt_guessed").status_code == 401
    refused = client.get("/api/crafts/", HTTP_AUTHORIZATION="Bearer dgt_guessed-again")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["error"]["code"] == "throttled" and '"anon_burst"' in refused["RateLimit-Policy"]
    assert client.get("/api/crafts/").status_code == 429  # one allowance for the address, token or none
    token = token_create(user=user, name="mine")[1]
    assert client.get("/api/crafts/", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200  # not anonymous


def test_an_anonymous_write_refused_for_want_of_a_token_counts_too_and_once(client, rates):
    rates(anon_burst="4/minute")
    run = {"kind": "test_sum", "games": 1}
    for _ in range(2):  # refused by the permissions, before the throttles
        assert client.post("/api/runs/", run, content_type="application/json").status_code == 401
    for _ in range(2):  # refused by the view, after the throttles counted it: not counted again
        assert client.post("/api/decks/", {"name": "Mine"}, content_type="application/json").status_code == 401
    assert client.post("/api/runs/", run, content_type="application/json").status_code == 429


def test_the_catalog_search_page_shares_the_api_search_limit(client, rates):
    rates(search="3/minute")
    for _ in range(3):
        assert client.get("/cards/", {"q": "craft:divine"}).status_code == 200
    refused = client.get("/cards/", {"q": "craft:divine"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused["Content-Type"].startswith("text/html") and "try again in" in refused.content.decode()
    assert client.get("/api/cards/", {"q": "craft:divine"}).status_code == 429  # one allowance for both
    assert client.get("/cards/help/").status_code == 200  # the other catalog pages are not searches


def test_the_deck_editor_search_is_a_search_too(client, rates, user):
    rates(search="2/minute")
    deck = deck_create(owner=user, name="Searched")
    client.force_login(user)
    for _ in range(2):
        assert client.get(f"/decks/{deck.pk}/edit/search/", {"q": "craft:divine"}).status_code == 200
    assert client.get(f"/decks/{deck.pk}/edit/search/", {"q": "craft:divine"}).status_code == 429


def test_answers_made_with_a_session_or_a_token_are_private(client, user):
    client.force_login(user)
    for path in ("/decks/", "/accounts/", "/api/decks/"):
        response = client.get(path)
        assert response.status_code == 200 and "private" in response["Cache-Control"], path
    token = token_create(user=user, name="mine")[1]
    api = Client()
    response = api.get("/api/decks/", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert "private" in response["Cache-Control"] and "Authorization" in response["Vary"]
    response = api.get("/api/cards/", {"q": "craft:divine"}, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert "private" in response["Cache-Control"]  # even an answer that is the same for everyone, once sent with one


def test_a_card_face_stays_public(client):
    card = Card.objects.order_by("collector_number").first()
    response = client.get(f"/cards/{card.collector_number}.svg")
    assert response["Cache-Control"] == "public, max-age=3600"


def test_the_readme_scale_out_example_serves_on_loopback_behind_the_proxy():
    readme = (ROOT / "README.md").read_text()
    assert "-b 0.0.0.0" not in readme and "--bind 0.0.0.0" not in readme
    assert ".venv/bin/gunicorn -c gunicorn.conf.py config.wsgi -w 4 -b 127.0.0.1:8000" in readme
