"""Cost control: bounded bodies, queries and lists, and the throttles on the expensive endpoints.

Every refusal is in the error envelope with a clear message, and documented in the schema.
"""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from decks.decklist import MAX_LINES
from decks.models import Deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return get_user_model().objects.create_user("bounded", password="a-long-passphrase-7")


@pytest.fixture
def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def rates(monkeypatch):
    """Set some throttle rates for one test, from a clean throttle history."""
    cache.clear()

    def set_rates(**scopes):
        for scope, rate in scopes.items():
            monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, rate)

    yield set_rates
    cache.clear()


def error_of(response, status):
    assert response.status_code == status, response.content[:300]
    return response.json()["error"]


# --- Sizes ---------------------------------------------------------------------------------

def test_a_body_over_the_limit_is_413_in_the_envelope(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    before = Deck.objects.count()
    body = json.dumps({"list": "1 X\n" * 5000})
    error = error_of(api.post("/api/decks/import/", body, content_type="application/json"), 413)
    assert error["code"] == "payload_too_large"
    assert error["details"] == {"limit": 10_000, "size": len(body)}
    assert "limit is 10000 bytes" in error["message"]
    assert Deck.objects.count() == before


def test_a_page_post_over_the_limit_is_a_413_page(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post("/accounts/login/", {"username": "x" * 2000, "password": "y"})
    assert response.status_code == 413
    assert "limit is 1000 bytes" in response.content.decode()


def test_a_bad_content_length_is_400(client):
    response = client.generic("POST", "/api/decks/validate/", b"{}", content_type="application/json",
                              CONTENT_LENGTH="lots")
    assert error_of(response, 400)["code"] == "bad_content_length"


def test_a_search_query_over_the_length_bound_is_400_naming_the_bound(client):
    error = error_of(client.get("/api/cards/", {"q": "a" * 1001}), 400)
    assert error["code"] == "invalid_parameter" and error["details"]["parameter"] == "q"
    assert "text of 0 to 1000 characters" in error["message"]


def test_an_import_list_over_the_line_bound_is_422_and_saves_nothing(api):
    before = Deck.objects.count()
    text = "1 Some Card\n" * (MAX_LINES + 1)
    error = error_of(api.post("/api/decks/import/", {"list": text}, format="json"), 422)
    assert f"at most {MAX_LINES} lines" in error["message"]
    assert Deck.objects.count() == before


def test_a_run_over_the_games_bound_is_422(api, settings):
    settings.PLAYTEST_MAX_GAMES = 50
    error = error_of(api.post("/api/runs/", {"kind": "test_sum", "games": 51}, format="json"), 422)
    assert error["code"] == "games_out_of_range" and error["details"]["maximum"] == 50


# --- Throttles -----------------------------------------------------------------------------

def test_search_is_throttled_per_user_with_429_in_the_envelope(api, rates):
    rates(search="3/minute")
    for _ in range(3):
        assert api.get("/api/cards/", {"q": "craft:divine"}).status_code == 200
    response = api.get("/api/cards/", {"q": "craft:divine"})
    error = error_of(response, 429)
    assert error["code"] == "throttled" and error["details"]["retry_after_seconds"] > 0
    assert int(response["Retry-After"]) > 0
    assert api.get("/api/crafts/").status_code == 200  # the cheap endpoints are not in the scope


def test_imports_and_validation_share_the_imports_scope(api, rates):
    rates(imports="2/minute")
    assert api.post("/api/decks/validate/", {"format": "standard", "list": ""}, format="json").status_code == 200
    assert api.post("/api/decks/import/", {"list": "1 Nope"}, format="json").status_code == 422
    error_of(api.post("/api/decks/import/", {"list": "1 Nope"}, format="json"), 429)


def test_run_submission_is_throttled(api, rates):
    rates(runs="2/minute")
    for _ in range(2):
        assert api.post("/api/runs/", {"kind": "test_sum", "games": 1}, format="json").status_code == 202
    error_of(api.post("/api/runs/", {"kind": "test_sum", "games": 1}, format="json"), 429)


def test_too_many_active_runs_is_429(api, settings):
    settings.PLAYTEST_MAX_ACTIVE_RUNS = 1
    assert api.post("/api/runs/", {"kind": "test_sum", "games": 1}, format="json").status_code == 202
    error = error_of(api.post("/api/runs/", {"kind": "test_sum", "games": 1}, format="json"), 429)
    assert error["code"] == "too_many_runs" and "the limit is 1" in error["message"]
    refused = api.post("/api/runs/", {"kind": "test_sum", "games": 1}, format="json")
    assert refused["Retry-After"] == str(refused.json()["error"]["details"]["retry_after_seconds"]) == "30"


def test_anonymous_api_traffic_has_a_burst_limit_per_address(client, rates):
    rates(anon_burst="3/minute")
    for _ in range(3):
        assert client.get("/api/crafts/").status_code == 200
    error_of(client.get("/api/crafts/"), 429)
    assert client.get("/api/crafts/", REMOTE_ADDR="10.9.9.9").status_code == 200


# --- The schema says so --------------------------------------------------------------------

def test_the_schema_documents_each_refusal_with_the_envelope(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    expected = {
        ("/api/decks/import/", "post"): {"400", "413", "429"},
        ("/api/decks/validate/", "post"): {"400", "413", "429"},
        ("/api/cards/", "get"): {"400", "429"},
        ("/api/runs/", "post"): {"400", "413", "429"},
        ("/api/decks/{id}/", "get"): {"404", "503"},
    }
    for (path, method), statuses in expected.items():
        responses = paths[path][method]["responses"]
        assert statuses <= set(responses), (path, method, sorted(responses))
        for status in statuses:
            ref = responses[status]["content"]["application/json"]["schema"]["$ref"]
            assert ref == "#/components/schemas/ErrorEnvelope"
    assert schema["components"]["schemas"]["ErrorEnvelope"]["required"] == ["error"]
