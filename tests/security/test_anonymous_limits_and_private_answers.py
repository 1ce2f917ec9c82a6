"""Smaller findings on rate limits and shared caches, each test naming its rule."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from config.accounts.services import token_create

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
