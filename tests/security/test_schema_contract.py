"""The schema tells the truth: the bounds the server enforces are declared, and one rule (config/api_contract.py)
refuses anything outside them with a 400 naming the parameter and the allowed values; nothing is clamped or
coerced; every status a route answers is documented."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from decks.models import Deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client):
    return client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


@pytest.fixture
def api():
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("contract", password="a-long-passphrase-7"))
    return client


def parameter(schema, path, name, method="get"):
    return next(p for p in schema["paths"][path][method]["parameters"] if p["name"] == name)["schema"]


def refused(response, name):
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == "invalid_parameter" and error["details"]["parameter"] == name
    return error["message"]


@pytest.mark.parametrize("path, name, bounds", [
    ("/api/cards/", "page", {"minimum": 1}),
    ("/api/cards/", "page_size", {"minimum": 1, "maximum": 200}),
    ("/api/decks/", "page", {"minimum": 1}),
    ("/api/dreaddraw/cards/", "page", {"minimum": 1}),
    ("/api/dreaddraw/cards/", "strength", {"minimum": 0, "maximum": 99}),
    ("/api/dreaddraw/cards/", "damage", {"minimum": 0, "maximum": 99}),
    ("/api/cards/", "q", {"maxLength": 1000}),
    ("/api/dreaddraw/cards/", "q", {"maxLength": 100}),
    ("/api/decks/{id}/diff/", "from", {"minimum": 0}),
    ("/api/decks/{id}/diff/", "to", {"minimum": 0}),
])
def test_the_bounds_are_declared(schema, path, name, bounds):
    declared = parameter(schema, path, name)
    assert {key: declared.get(key) for key in bounds} == bounds


@pytest.mark.parametrize("url, name, allowed", [
    ("/api/cards/?page=0", "page", "a whole number from 1 to 1000000"),
    ("/api/cards/?page_size=500", "page_size", "a whole number from 1 to 200"),
    ("/api/cards/?page_size=0", "page_size", "a whole number from 1 to 200"),
    ("/api/decks/?page=0", "page", "a whole number from 1 to 1000000"),
    ("/api/dreaddraw/cards/?strength=100", "strength", "a whole number from 0 to 99"),
    ("/api/dreaddraw/cards/?damage=-1", "damage", "a whole number from 0 to 99"),
    ("/api/cards/?order=power", "order", "one of"),
])
def test_a_value_outside_its_bounds_is_a_400_naming_the_allowed_range_not_clamped(client, url, name, allowed):
    message = refused(client.get(url), name)
    assert allowed in message


@pytest.mark.parametrize("url, name", [
    ("/api/decks/?mine=null", "mine"),
    ("/api/decks/?mine=1", "mine"),
    ("/api/cards/?page=1&page=2", "page"),
    ("/api/cards/?page=1.5", "page"),
    ("/api/dreaddraw/cards/?strength=", "strength"),
])
def test_lenient_parameters_are_refused(client, url, name):
    refused(client.get(url), name)


def test_a_body_field_of_the_wrong_type_is_refused_not_coerced(api):
    before = Deck.objects.count()
    response = api.post("/api/decks/validate/", {"format": "standard", "list": 0}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert list(error["details"]["fields"]) == ["list"] and error["message"] == "list: 0 is not of type 'string'"
    response = api.post("/api/decks/import/", {"list": 0}, format="json")
    assert response.status_code == 400 and list(response.json()["error"]["details"]["fields"]) == ["list"]
    response = api.post("/api/decks/", {"name": ["x"]}, format="json")
    assert response.status_code == 400 and list(response.json()["error"]["details"]["fields"]) == ["name"]
    assert Deck.objects.count() == before


def test_only_json_bodies_are_read(api):
    response = api.post("/api/decks/", "name=x", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415


@pytest.mark.parametrize("path, method, statuses", [
    ("/api/decks/{id}/", "patch", {"404", "412", "428"}),
    ("/api/decks/{id}/unpublish/", "post", {"404", "409"}),
    ("/api/dreaddraw/tables/{table_id}/join/", "post", {"404", "409"}),
    ("/api/dreaddraw/tables/{table_id}/decisions/", "post", {"400", "403", "404", "409"}),
    ("/api/runs/", "post", {"400", "401", "404", "429"}),
    ("/api/goldfish-tables/", "post", {"404"}),
])
def test_every_status_a_route_answers_is_documented(schema, path, method, statuses):
    assert statuses <= set(schema["paths"][path][method]["responses"])
