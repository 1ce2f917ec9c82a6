"""The schema tells the truth: the bounds the server enforces are declared, and one rule (config/api_contract.py)
refuses anything outside them with a 400 naming the parameter and the allowed values; nothing is clamped or
coerced; every status a route answers is documented."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from core.intbounds import MAX_BIG_INTEGER
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
    """A parameter's schema (query or path)."""
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
    ("/api/decks/{id}/diff/", "from", {"minimum": 1, "maximum": 2147483647}),
    ("/api/decks/{id}/diff/", "to", {"minimum": 1, "maximum": 2147483647}),
    ("/api/decks/{id}/", "id", {"minimum": 0, "maximum": 9223372036854775807}),
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


def _resolve(schema, node):
    while isinstance(node, dict) and "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def _integers(schema, node, where, seen):
    """(where, schema) of every integer in a request body's schema, references followed."""
    node = _resolve(schema, node)
    if not isinstance(node, dict) or id(node) in seen:
        return
    seen.add(id(node))
    if node.get("type") == "integer":
        yield where, node
    for name, child in node.get("properties", {}).items():
        yield from _integers(schema, child, f"{where}.{name}", seen)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            yield from _integers(schema, node[key], f"{where}[]", seen)
    for key in ("allOf", "anyOf", "oneOf"):
        for child in node.get(key, []):
            yield from _integers(schema, child, where, seen)


def test_every_whole_number_a_request_carries_is_bounded(schema):
    """The class of the diff's overflow: a whole number with no upper bound reaches the database as a Python int
    of any size (SQLite's driver raises OverflowError: a 500). Every integer a request carries (path, query,
    body) is declared with both bounds, within what a database column holds, so the contract refuses the rest."""
    found, unbounded = 0, []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            places = [(f"{p['in']} {p['name']}", p["schema"]) for p in operation.get("parameters", [])]
            places = [(where, node.get("items", node)) for where, node in places]
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                places += list(_integers(schema, body, "body", set()))
            for where, node in places:
                if _resolve(schema, node).get("type") != "integer":
                    continue
                found += 1
                low, high = _resolve(schema, node).get("minimum"), _resolve(schema, node).get("maximum")
                if low is None or high is None or high > MAX_BIG_INTEGER:
                    unbounded.append(f"{method.upper()} {path} {where}: {node}")
    assert found >= 20
    assert not unbounded, "\n".join(unbounded)


HUGE = "23444574263163510784"


@pytest.mark.parametrize("url, name, allowed", [
    ("/api/decks/{deck}/diff/?from=" + HUGE + "&to=1", "from", "a whole number from 1 to 2147483647"),
    ("/api/decks/" + HUGE + "/", "id", f"a whole number from 0 to {MAX_BIG_INTEGER}"),
    ("/api/decks/99999999999999999999/", "id", f"a whole number from 0 to {MAX_BIG_INTEGER}"),
    (f"/api/decks/{MAX_BIG_INTEGER + 1}/export/", "id", f"a whole number from 0 to {MAX_BIG_INTEGER}"),
    ("/api/decks/" + HUGE + "/diff/?from=1&to=1", "id", f"a whole number from 0 to {MAX_BIG_INTEGER}"),
    ("/api/decks/{deck}/odds/?by_turn=" + HUGE, "by_turn", "a whole number from 0 to 15"),
    ("/api/dreaddraw/cards/" + HUGE + "/", "number", f"a whole number from 0 to {MAX_BIG_INTEGER}"),
    ("/api/cards/?page=" + HUGE, "page", "a whole number from 1 to 1000000"),
])
@pytest.mark.parametrize("method", ["get", "head"])
def test_a_number_past_its_column_is_a_400_naming_the_range_never_looked_up(api, url, name, allowed, method):
    deck = Deck.objects.filter(is_starter=True).first()
    response = getattr(api, method)(url.format(deck=deck.pk))
    assert response.status_code == 400, response.content[:300]
    if method == "get":
        message = refused(response, name)
        assert message.startswith(f"{name} must be {allowed}, not ")


def test_an_id_within_its_range_is_looked_up(api):
    assert api.get(f"/api/decks/{MAX_BIG_INTEGER}/").status_code == 404
    assert api.get(f"/api/dreaddraw/cards/{MAX_BIG_INTEGER}/").status_code == 404


@pytest.mark.parametrize("url, body, field", [
    ("/api/decks/{deck}/revert/", {"version": int(HUGE)}, "version"),
    ("/api/goldfish-tables/", {"deck": int(HUGE)}, "deck"),
])
def test_a_body_number_past_its_column_is_a_400_naming_the_field(api, url, body, field):
    deck = Deck.objects.filter(is_starter=True).first()
    response = api.post(url.format(deck=deck.pk), body, format="json")
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert list(error["details"]["fields"]) == [field]
    assert error["message"].startswith(f"{field}: {HUGE} is greater than the maximum of ")


def test_a_body_field_of_the_wrong_type_is_refused_not_coerced(api):
    before = Deck.objects.count()
    response = api.post("/api/decks/validate/", {"format": "standard", "list": 0}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert list(error["details"]["fields"]) == ["list"] and error["message"] == "list: 0 is not text"
    response = api.post("/api/decks/import/", {"list": 0}, format="json")
    assert response.status_code == 400 and list(response.json()["error"]["details"]["fields"]) == ["list"]
    response = api.post("/api/decks/", {"name": ["x"]}, format="json")
    assert response.status_code == 400 and list(response.json()["error"]["details"]["fields"]) == ["name"]
    assert Deck.objects.count() == before


@pytest.mark.parametrize("path, body, words", [
    ("/api/decks/", {"name": ""}, "name: may not be blank"),
    ("/api/decks/", {"cards": []}, "name: This field is required."),  # the field, as a form's refusal names it
    ("/api/decks/import/", {"deck": {"cards": [{"card": "U-1", "count": "x"}]}},
     'deck.cards[0].count: "x" is not a whole number'),  # not the whole deck, printed
])
def test_a_body_refused_by_the_contract_is_told_in_words_at_its_field(api, path, body, words):
    """jsonschema's own words printed the name's pattern, "'name' is a required property" at "body", and for a
    count inside a deck the whole deck."""
    response = api.post(path, body, format="json")
    assert response.status_code == 400 and response.json()["error"]["message"] == words


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


def _patterns(node):
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield node["pattern"]
        for value in node.values():
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


def test_a_not_blank_pattern_reads_blank_as_the_server_trims_it(schema, api):
    """A field that may not be blank is trimmed (str.strip) before it is read; its pattern names the characters
    trimmed rather than \\s, which Python and the ECMA regular expressions of clients read differently (\\x1c is
    blank to Python, not to ECMA): one text only of \\x1c fitted a client's reading of the schema and was a 400."""
    import re

    patterns = set(_patterns(schema["paths"])) | set(_patterns(schema["components"]["schemas"]))
    assert not [p for p in patterns if "\\s" in p or "\\S" in p.replace("^[^\\x00]", "")], "\\s reads two ways"
    not_blank = [p for p in patterns if "\\u3000" in p]
    assert not_blank
    for pattern in not_blank:
        for code in range(0x3001):
            char = chr(code)
            if char != "\x00":
                assert bool(re.search(pattern, char)) == bool(char.strip()), (pattern, hex(code))
    refused = api.post("/api/cards/collection/", {"identifiers": [{"name": "\x1c"}]}, format="json")
    assert refused.status_code == 400 and "identifiers[0]" in refused.json()["error"]["message"]


@pytest.mark.parametrize("path, signed_in", [("/api/decks/validate/", False), ("/api/decks/import/", True),
                                             ("/api/decks/", True), ("/api/runs/", True)])
def test_a_form_body_is_refused_as_not_json_not_answered_500(client, path, signed_in):
    """A multipart form (curl's -F) was read by the pages' middleware before DRF, which then found the body
    consumed: a 500 for anyone, signed in or not."""
    if signed_in:
        client.force_login(get_user_model().objects.create_user("former", password="a-long-passphrase-7"))
    response = client.post(path, {"format": "standard", "list": "1 Iron Pikeman"})  # multipart/form-data
    assert response.status_code == 415, response.content[:300]
    assert 'Unsupported media type "multipart/form-data"' in response.json()["error"]["message"]
