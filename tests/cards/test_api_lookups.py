"""Card look-ups beside the search: by collector number in any case, by name (exact or fuzzy),
autocomplete, a random card of a query, and many cards at once."""

import pytest

from cards.models import Card, CardType
from tests.cards.search_factories import make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards():
    make_card("Tst Lookup Iron Drake", collector_number="TST-L1", vitality=31)
    make_card("Tst Lookup Iron Drakeling", collector_number="TST-L2", vitality=32)
    make_card("Tst Lookup Ward", type=CardType.TALENT, subtype="spell talent", cost=1, collector_number="TST-L3")


def test_card_detail_by_collector_number_in_any_case(client, cards):
    for number in ("TST-L1", "tst-l1", "Tst-L1"):
        body = client.get(f"/api/cards/{number}/").json()
        assert body["collector_number"] == "TST-L1" and body["name"] == "Tst Lookup Iron Drake"
    assert client.get("/api/cards/tst-l9/").status_code == 404


def test_named_exact_in_any_case(client, cards):
    body = client.get("/api/cards/named/", {"exact": "tst lookup  IRON drake"}).json()
    assert body["card"]["collector_number"] == "TST-L1" and body["alternatives"] == []
    assert "keywords" in body["card"] and "abilities" in body["card"]


def test_named_exact_unknown_is_404_with_suggestions(client, cards):
    response = client.get("/api/cards/named/", {"exact": "Tst Lookup Iron Drak"})
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "card_not_found" and error["details"]["parameter"] == "exact"
    assert {"name": "Tst Lookup Iron Drake", "collector_number": "TST-L1"} in error["details"]["suggestions"]


@pytest.mark.parametrize(("text", "best", "alternatives"), [
    ("tst lookup iron drake", "TST-L1", []),  # the exact name first, though another name holds it
    ("drakeling lookup", "TST-L2", []),  # every word, in any order
    ("Tst Lookup Wrad", "TST-L3", None),  # misspelt: the closest name (then less close ones)
])
def test_named_fuzzy_gives_the_best_match_and_the_alternatives(client, cards, text, best, alternatives):
    body = client.get("/api/cards/named/", {"fuzzy": text}).json()
    assert body["card"]["collector_number"] == best
    if alternatives is not None:
        assert [a["collector_number"] for a in body["alternatives"] if a["collector_number"].startswith("TST-")] \
            == alternatives


def test_a_fuzzy_name_that_several_names_hold_is_404_ambiguous_listing_them(client, cards):
    response = client.get("/api/cards/named/", {"fuzzy": "Tst Lookup Iron Dra"})
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "ambiguous" and error["details"]["parameter"] == "fuzzy"
    assert error["details"]["matching"] == 2
    assert error["details"]["alternatives"] == [  # a name that starts with the text first, then the shorter
        {"name": "Tst Lookup Iron Drake", "collector_number": "TST-L1"},
        {"name": "Tst Lookup Iron Drakeling", "collector_number": "TST-L2"}]
    golems = client.get("/api/cards/named/", {"fuzzy": "golem"}).json()["error"]  # the catalog's many golems
    assert golems["code"] == "ambiguous" and golems["details"]["matching"] > 20
    assert len(golems["details"]["alternatives"]) == 20


def test_typographic_apostrophes_are_read_as_straight_ones_by_every_name_look_up(client):
    make_card("Tst Hunter's Lookup Mark", collector_number="TST-L4")
    for curly in ("Tst Hunter\u2019s Lookup Mark", "tst hunter\u2018s lookup  mark"):
        assert client.get("/api/cards/named/", {"exact": curly}).json()["card"]["collector_number"] == "TST-L4"
        assert client.get("/api/cards/named/", {"fuzzy": curly}).json()["card"]["collector_number"] == "TST-L4"
        assert client.get("/api/cards/autocomplete/", {"q": curly[:14]}).json()["results"] == [
            "Tst Hunter's Lookup Mark"]
        body = client.post("/api/cards/collection/", {"identifiers": [{"name": curly}]},
                           content_type="application/json").json()
        assert [c["collector_number"] for c in body["data"]] == ["TST-L4"] and body["not_found"] == []


def test_a_name_the_collection_misses_carries_the_closest_names(client, cards):
    identifiers = [{"name": "Tst Lookup Iron Drak"}, {"collector_number": "NOPE-1"}, {"name": "zq"}]
    body = client.post("/api/cards/collection/", {"identifiers": identifiers}, content_type="application/json").json()
    near, number, far = body["not_found"]
    assert near["name"] == "Tst Lookup Iron Drak"
    assert {"name": "Tst Lookup Iron Drake", "collector_number": "TST-L1"} in near["suggestions"]
    assert number == {"collector_number": "NOPE-1"} and far == {"name": "zq", "suggestions": []}


@pytest.mark.parametrize("params", [{}, {"exact": "a", "fuzzy": "b"}, {"exact": "  "}])
def test_named_needs_exactly_one_of_exact_and_fuzzy(client, params):
    response = client.get("/api/cards/named/", params)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "exactly_one_parameter" and error["details"]["allowed"] == ["exact", "fuzzy"]
    assert "exactly one of exact or fuzzy" in error["message"]


def test_autocomplete_gives_at_most_20_names_those_that_start_with_the_text_first(client, cards):
    body = client.get("/api/cards/autocomplete/", {"q": "tst lookup"}).json()
    assert body["results"] == ["Tst Lookup Iron Drake", "Tst Lookup Iron Drakeling", "Tst Lookup Ward"]
    inside = client.get("/api/cards/autocomplete/", {"q": "drakel"}).json()
    assert inside == {"count": 1, "results": ["Tst Lookup Iron Drakeling"]}
    many = client.get("/api/cards/autocomplete/", {"q": "an"}).json()
    assert many["count"] == len(many["results"]) == 20
    starting = list(Card.objects.filter(name__istartswith="an").order_by("name").values_list("name", flat=True))
    assert many["results"][: len(starting)] == starting[:20]
    assert client.get("/api/cards/autocomplete/", {"q": "a"}).json() == {"count": 0, "results": []}


def test_random_gives_a_card_matching_the_query(client, cards):
    seen = {client.get("/api/cards/random/", {"q": "tst lookup t:unit"}).json()["collector_number"]
            for _ in range(20)}
    assert seen <= {"TST-L1", "TST-L2"} and seen
    response = client.get("/api/cards/random/", {"q": "tst lookup t:talent"})
    assert response.json()["collector_number"] == "TST-L3" and response["Cache-Control"] == "no-store"
    assert client.get("/api/cards/random/").status_code == 200  # any card


def test_random_of_a_query_matching_nothing_is_404_and_a_bad_query_400(client):
    response = client.get("/api/cards/random/", {"q": "name:zzzqqq"})
    assert response.status_code == 404 and response.json()["error"]["code"] == "no_match"
    error = client.get("/api/cards/random/", {"q": "atk>="}).json()["error"]
    assert error["code"] == "invalid_query" and error["details"]["position"] == 5


def test_collection_gives_the_cards_in_the_order_asked_and_what_was_not_found(client, cards):
    identifiers = [{"name": "tst lookup ward"}, {"collector_number": "tst-l1"}, {"collector_number": "NOPE-1"},
                   {"name": "Tst Lookup Iron Drakeling"}]
    response = client.post("/api/cards/collection/", {"identifiers": identifiers}, content_type="application/json")
    assert response.status_code == 200
    body = response.json()
    assert [c["collector_number"] for c in body["data"]] == ["TST-L3", "TST-L1", "TST-L2"]
    assert body["not_found"] == [{"collector_number": "NOPE-1"}]


def test_collection_takes_at_most_75_identifiers(client, cards):
    ok = client.post("/api/cards/collection/", {"identifiers": [{"collector_number": "TST-L1"}] * 75},
                     content_type="application/json")
    assert ok.status_code == 200 and len(ok.json()["data"]) == 75
    response = client.post("/api/cards/collection/", {"identifiers": [{"collector_number": "TST-L1"}] * 76},
                           content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert "identifiers" in error["message"] and "75" in error["message"]


@pytest.mark.parametrize("identifier", [{}, {"name": "a", "collector_number": "b"}, {"colour": "red"}, {"name": "  "}])
def test_a_collection_identifier_names_one_card_one_way(client, identifier):
    response = client.post("/api/cards/collection/", {"identifiers": [identifier]}, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"] == 'identifiers[0]: An identifier is {"collector_number": ...} or {"name": ...}.'
    assert list(error["details"]["fields"]) == ["identifiers[0]"]


def test_the_schema_states_that_an_identifier_is_one_key_or_the_other(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    body = schema["paths"]["/api/cards/collection/"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    forms = body["properties"]["identifiers"]["items"]["oneOf"]
    assert [f["required"] for f in forms] == [["collector_number"], ["name"]]
    assert all(f["additionalProperties"] is False for f in forms)


def test_the_lookups_are_routed_before_the_card_route_and_in_the_schema(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/cards/named/", "/api/cards/autocomplete/", "/api/cards/random/", "/api/cards/collection/"):
        assert path in schema["paths"]
    assert {p["name"] for p in schema["paths"]["/api/cards/named/"]["get"]["parameters"]} >= {"exact", "fuzzy"}
    assert "post" in schema["paths"]["/api/cards/collection/"]
    assert client.get("/api/cards/autocomplete/").status_code == 200  # not a card "autocomplete" (404)
