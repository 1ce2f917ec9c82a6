"""The IETF RateLimit fields on every response of a limited scope, so that a client paces itself before it is
refused: what remains of each limit that counted the request, worked out for that request (a cached answer too)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from rest_framework.throttling import SimpleRateThrottle

pytestmark = pytest.mark.django_db


@pytest.fixture
def search_limit_of_three(monkeypatch):
    caches["rates"].clear()
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "search", "3/minute")
    yield
    caches["rates"].clear()


def item(response, field: str, scope: str) -> str:
    """The item of one limit in a RateLimit field, e.g. 'r=2;t=60' for "search"."""
    found = [part.split(";", 1)[1] for part in response[field].split(", ") if part.startswith(f'"{scope}";')]
    assert len(found) == 1, response[field]
    return found[0]


def remaining_and_reset(response, scope: str) -> tuple[int, int]:
    fields = dict(pair.split("=") for pair in item(response, "RateLimit", scope).split(";"))
    return int(fields["r"]), int(fields["t"])


def test_every_search_answer_says_what_remains_even_when_the_answer_is_cached(client, settings, search_limit_of_three):
    settings.SEARCH_CACHE_SECONDS = 60  # the second and third answers come from the answer cache
    left = []
    for _ in range(3):
        answer = client.get("/api/cards/", {"q": "golem"})
        assert answer.status_code == 200
        assert item(answer, "RateLimit-Policy", "search") == "q=3;w=60"
        remaining, reset = remaining_and_reset(answer, "search")
        assert 0 < reset <= 60
        left.append(remaining)
    assert left == [2, 1, 0]
    refused = client.get("/api/cards/", {"q": "golem"})
    assert refused.status_code == 429 and remaining_and_reset(refused, "search") == (0, int(refused["Retry-After"]))
    assert remaining_and_reset(answer, "anon_burst")[0] > 0  # every limit that counted the request


def test_the_search_page_shares_the_fields_of_the_search_limit(client, search_limit_of_three):
    assert remaining_and_reset(client.get("/api/cards/named/", {"exact": "nothing of the kind"}), "search")[0] == 2
    page = client.get("/cards/", {"q": "golem"})
    assert page.status_code == 200 and remaining_and_reset(page, "search")[0] == 1
    assert item(page, "RateLimit-Policy", "search") == "q=3;w=60"


def test_a_response_no_limit_counted_carries_no_fields(client):
    user = get_user_model().objects.create_user("tst-paced", password="pw-long-enough-1")
    client.force_login(user)
    answer = client.get("/api/crafts/")  # signed in: no anonymous limit; a read: no write limit; no scope
    assert answer.status_code == 200 and "RateLimit" not in answer and "RateLimit-Policy" not in answer
