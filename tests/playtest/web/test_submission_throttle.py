"""The `runs` throttle counts submissions only: runs and metagame tables can be read however often."""

import pytest
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from tests.playtest.web.test_metagame import post, starter_ids

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def one_submission_an_hour(monkeypatch):
    cache.clear()
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "runs", "1/hour")
    yield
    cache.clear()


def test_reading_is_not_throttled_and_a_second_submission_is(client, alice, settings):
    settings.PLAYTEST_MAX_ACTIVE_RUNS = 10
    client.force_login(alice)
    body = {"decks": starter_ids(2), "games_per_pair": 2}
    table = post(client, body)
    assert table.status_code == 202, table.content
    for _ in range(3):
        assert client.get("/api/runs/").status_code == 200
        assert client.get(f"/api/runs/{table.json()['id']}/").status_code == 200
        assert client.get(f"/api/metagames/{table.json()['id']}/").status_code == 200
    assert post(client, body).status_code == 429  # the same scope for both submission routes
    assert client.post("/api/runs/", {"kind": "dreadgate_metagame", "params": body},
                       content_type="application/json").status_code == 429
