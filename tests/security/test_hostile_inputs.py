"""The inputs that once answered 500, by class: each is a clear 4xx (in the envelope on the API) and
stores nothing.

- JSON nested deeper than the bound, to every JSON body (one parser);
- run and tournament parameters of the wrong type (declared-type serializers);
- a NUL character in any form field (one rule for every form) or in a JSON string;
- a NUL character in the path (never reaches the database).
"""

from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.jsonbounds import MAX_JSON_DEPTH
from decks.models import Deck
from decks.services import deck_create
from dreaddraw.models import DreadDrawTable
from playtest.models import Run

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-7"


@pytest.fixture
def user():
    return get_user_model().objects.create_user("hostile", password=PASSWORD)


@pytest.fixture
def client(user):
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def stored():
    return Deck.objects.count(), Run.objects.count(), DreadDrawTable.objects.count()


def envelope(response, status):
    assert response.status_code == status, response.content[:300]
    return response.json()["error"]


# --- Deep JSON -------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/decks/validate/", "/api/runs/", "/api/decks/", "/api/decks/import/",
                                  "/api/dreaddraw/tables/"])
@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_json_nested_past_the_bound_is_a_400_for_every_json_body(client, path, opening):
    before = stored()
    closing = "]" if opening == "[" else "}"
    body = opening * 100_000 + "1" + closing * 100_000
    error = envelope(client.post(path, body, content_type="application/json"), 400)
    assert error["code"] == "parse_error" and f"deeper than {MAX_JSON_DEPTH}" in error["message"]
    assert stored() == before


def test_json_at_the_bound_still_parses_and_brackets_in_strings_do_not_count(client):
    nested = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    response = client.post("/api/decks/validate/", '{"format": "standard", "list": "' + "[" * 5000 + '", "x": '
                           + nested[2:-2] + "}", content_type="application/json")
    # Read to the end: what refuses it is the schema (no field x), not the parser's depth bound.
    error = envelope(response, 400)
    assert error["code"] == "invalid" and "x is not a field here" in error["message"], error


def test_deep_json_pasted_into_the_import_page_is_refused_on_the_page(client):
    before = stored()
    response = client.post("/decks/import/", {"list": '{"cards": ' + "[" * 100_000 + "]" * 100_000 + "}"})
    assert response.status_code == 400 and f"deeper than {MAX_JSON_DEPTH}" in response.content.decode()
    assert stored() == before


# --- Run parameters of the wrong type --------------------------------------------------------

@pytest.mark.parametrize("params, field", [
    ({"deck": 1, "mode": []}, "mode"),
    ({"deck": 1, "mode": {}}, "mode"),
    ({"deck": [], "mode": "goldfish"}, "deck"),
    ({"deck": 1, "policies": [[], {}]}, "policies[0]"),
    ({"deck": 1, "policies": {"a": 1}}, "policies"),
    ({"deck": 1, "format": ["standard"]}, "format"),
    ({"deck": 1, "key": {"x": 1}}, "key"),
])
def test_a_playtest_parameter_of_the_wrong_type_is_a_400_naming_it(client, user, params, field):
    deck_create(owner=user, name="Mine", entries=[])
    before = stored()
    body = {"kind": "dreadgate_playtest", "games": 1, "params": params}
    error = envelope(client.post("/api/runs/", body, content_type="application/json"), 400)
    assert error["code"] == "invalid" and list(error["details"]["fields"]) == [f"params.{field}"]
    assert error["message"].startswith(f"params.{field}: ")
    assert stored() == before


@pytest.mark.parametrize("lineup, field", [([[], "random"], "lineup[0]"), ([{"a": 1}, "random"], "lineup[0]"),
                                           ({"a": "random"}, "lineup"), (7, "lineup")])
def test_a_tournament_lineup_of_the_wrong_type_is_a_400_naming_it(client, lineup, field):
    before = stored()
    body = {"kind": "dreaddraw_tournament", "games": 1, "params": {"lineup": lineup}}
    error = envelope(client.post("/api/runs/", body, content_type="application/json"), 400)
    assert list(error["details"]["fields"]) == [f"params.{field}"]
    assert stored() == before


@pytest.mark.parametrize("path, body, field", [
    ("/api/runs/", {"kind": {"a": 1}, "games": 1}, "kind"),  # the discriminator names no form
    ("/api/dreaddraw/tables/", {"seats": [{"kind": {}}, {"kind": ["local"]}]}, "seats["),
])
def test_a_kind_that_is_no_text_is_a_400_naming_it_never_a_500(client, path, body, field):
    before = stored()
    error = envelope(client.post(path, body, content_type="application/json"), 400)
    assert error["code"] == "invalid" and field in error["message"]
    assert stored() == before


# --- NUL characters ----------------------------------------------------------------------------

def test_a_nul_in_any_form_field_is_a_400_and_nothing_is_saved(client, user):
    deck = deck_create(owner=user, name="Kept", entries=[])
    before = stored()
    posts = [
        ("/decks/new/", {"name": "a\x00b", "format": "standard"}),
        ("/decks/import/", {"list": "4 Ash\x00wing", "name": "x"}),
        ("/decks/import/", {"list": "", "code": "a\x00b"}),
        (f"/decks/{deck.pk}/edit/change/", {"name": "a\x00b", "version": "1"}),
        (f"/decks/{deck.pk}/edit/change/", {"description": "\x00", "version": "1"}),
        ("/dread-draw/tables/new/", {"players": "2", "seat0": "local", "name0": "a\x00b", "seat1": "bot:random"}),
        ("/accounts/login/", {"username": "hostile\x00", "password": PASSWORD}),
        ("/accounts/tokens/", {"name": "a\x00b"}),
    ]
    for path, data in posts:
        response = client.post(path, data)  # multipart
        assert response.status_code == 400, (path, response.status_code)
        assert "NUL character" in response.content.decode(), path
        response = client.post(path, urlencode(data), content_type="application/x-www-form-urlencoded")
        assert response.status_code == 400, (path, "urlencoded")
    deck.refresh_from_db()
    assert deck.name == "Kept" and deck.version == 1
    assert stored() == before


def test_a_nul_in_a_json_string_is_a_400_in_the_envelope(client):
    before = stored()
    error = envelope(client.post("/api/decks/", {"name": "a\x00b", "format": "standard"},
                                 content_type="application/json"), 400)
    assert "NUL" in error["message"]
    error = envelope(client.post("/api/decks/", {"name": "ok", "tags": {"k\x00": 1}},
                                 content_type="application/json"), 400)
    assert stored() == before


@pytest.mark.parametrize("path", ["/cards/a%00b/", "/cards/a%00b.svg", "/api/cards/a%00b/", "/decks/%00/",
                                  "/dread-draw/cards/%00/"])
def test_a_nul_in_the_path_never_reaches_the_database(path):
    client = Client(raise_request_exception=False)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 400, response.status_code
    assert queries.captured_queries == []
    if path.startswith("/api/"):
        assert response.json()["error"]["code"] == "invalid_character"
