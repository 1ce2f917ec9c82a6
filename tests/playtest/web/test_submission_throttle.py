"""The `runs` throttle counts submissions only, the API's and the forms': runs and metagame tables can be read
however often."""

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


@pytest.mark.parametrize("path, body", [
    ("/playtest/new/", lambda deck: {"deck": deck, "what": "run", "mode": "goldfish", "games": 1}),
    ("/playtest/metagame/", lambda deck: {"decks": starter_ids(2), "games_per_pair": 2}),
    ("/playtest/tune/", lambda deck: {"deck": deck, "goal": "goldfish", "budget": 400}),
    ("/dread-draw/tournaments/new/", lambda deck: {"players": 2, "games": 2, "bot0": "random", "bot1": "random"}),
])
def test_a_run_sent_by_a_form_is_counted_with_the_apis_submissions(client, alice, settings, path, body):
    """The pages that queue runs share the API's `runs` allowance: the forms were a way around it."""
    settings.PLAYTEST_MAX_ACTIVE_RUNS = 10
    client.force_login(alice)
    assert post(client, {"decks": starter_ids(2), "games_per_pair": 2}).status_code == 202  # the hour's one
    response = client.post(path, body(starter_ids(1)[0]))
    assert response.status_code == 429, response.content[:300]
    assert "Retry-After" in response


def test_a_goldfish_table_opened_by_the_form_is_not_a_run_and_is_not_counted(client, alice, settings):
    settings.PLAYTEST_MAX_ACTIVE_RUNS = 10
    client.force_login(alice)
    assert post(client, {"decks": starter_ids(2), "games_per_pair": 2}).status_code == 202
    response = client.post("/playtest/new/", {"deck": starter_ids(1)[0], "what": "table", "table_opponent": ""})
    assert response.status_code == 302 and "/playtest/tables/" in response["Location"]


def test_the_tournament_form_shown_again_with_more_seats_is_not_counted(client, alice):
    client.force_login(alice)
    assert post(client, {"decks": starter_ids(2), "games_per_pair": 2}).status_code == 202
    response = client.post("/dread-draw/tournaments/new/", {"players": 3, "seats_only": "1"})
    assert response.status_code == 200


def test_a_deck_imported_by_the_page_is_counted_with_the_apis_imports(client, alice, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "imports", "1/hour")
    client.force_login(alice)
    assert client.post("/api/decks/import/", {"code": "AQAB"}, content_type="application/json").status_code != 429
    response = client.post("/decks/import/", {"list": "1 U-44723", "format": "standard", "visibility": "private"})
    assert response.status_code == 429 and "Retry-After" in response


def test_a_submission_refused_for_too_many_active_runs_uses_up_none_of_the_hour(client, alice, settings, monkeypatch):
    """A client that retried every 30 s, as the too_many_runs refusal's Retry-After says, spent its 30 submissions
    an hour on refusals, and was then locked out for the hour though its runs had ended."""
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "runs", "2/hour")
    settings.PLAYTEST_MAX_ACTIVE_RUNS = 1
    client.force_login(alice)
    body = {"decks": starter_ids(2), "games_per_pair": 2}
    first = post(client, body)
    assert first.status_code == 202
    for _ in range(3):  # refused, as the limit of active runs says
        refused = post(client, body)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_runs"
        form = client.post("/playtest/metagame/", body)
        assert form.status_code == 429 and "already have 1 run" in form.content.decode()
    assert client.post(f"/api/runs/{first.json()['id']}/cancel/").status_code == 200
    assert post(client, body).status_code == 202  # the hour's second submission: the refusals counted none
