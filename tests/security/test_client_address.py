"""One setting, TRUSTED_PROXY_COUNT, decides the client address of every throttle and of the log-in limits."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-7"


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def anon_rate(monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon_burst", "3/minute")
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "imports", "3/minute")


def test_without_trusted_proxies_a_forged_forwarded_for_does_not_escape_the_anonymous_throttle(client, anon_rate):
    for n in range(3):
        assert client.get("/api/crafts/", HTTP_X_FORWARDED_FOR=f"10.7.0.{n}").status_code == 200
    response = client.get("/api/crafts/", HTTP_X_FORWARDED_FOR="10.7.0.99")
    assert response.status_code == 429 and response.json()["error"]["code"] == "throttled"


def test_the_anonymous_deck_validation_cannot_be_escaped_with_a_new_header_each_time(client, anon_rate):
    body = {"format": "standard", "list": ""}
    for n in range(3):
        response = client.post("/api/decks/validate/", body, content_type="application/json",
                               HTTP_X_FORWARDED_FOR=f"10.8.0.{n}")
        assert response.status_code == 200
    assert client.post("/api/decks/validate/", body, content_type="application/json",
                       HTTP_X_FORWARDED_FOR="10.8.0.99").status_code == 429


def test_behind_one_trusted_proxy_the_address_it_appended_is_the_client(client, anon_rate, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    # The client forges the left part; the proxy appends what it saw on the right.
    for n in range(3):
        assert client.get("/api/crafts/", HTTP_X_FORWARDED_FOR=f"1.2.3.{n}, 203.0.113.5").status_code == 200
    assert client.get("/api/crafts/", HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.5").status_code == 429
    # Another client behind the same proxy (same REMOTE_ADDR) has its own count.
    assert client.get("/api/crafts/", HTTP_X_FORWARDED_FOR="203.0.113.6").status_code == 200


def test_the_log_in_limits_read_the_same_address(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.LOGIN_FAILURE_LIMIT = 2
    get_user_model().objects.create_user("alice", password=PASSWORD)

    def log_in(forwarded, password):
        return Client().post("/accounts/login/", {"username": "alice", "password": password},
                             REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)

    for n in range(2):
        assert log_in(f"6.6.6.{n}, 198.51.100.7", "wrong-password").status_code == 400
    assert log_in("7.7.7.7, 198.51.100.7", PASSWORD).status_code == 429  # forging the left part helps nothing
    assert log_in("198.51.100.8", PASSWORD).status_code == 302  # a client behind the same proxy is not locked
