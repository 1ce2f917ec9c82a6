"""The decks API: CRUD, ETag / If-Match, validate, import, export, copy, revert, schema."""

import re

import pytest
from rest_framework.test import APIClient

from decks.models import Deck, Visibility
from decks.services import deck_create

from .factories import entries_of, legal_pool, make_card, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return make_user("deckowner")


@pytest.fixture
def api(owner):
    client = APIClient()
    client.force_authenticate(owner)
    return client


def make_deck(owner, visibility=Visibility.PRIVATE, n=9):
    return deck_create(owner=owner, name="API deck", visibility=visibility,
                       entries=entries_of(*[(c, 4) for c in legal_pool(n)]))


def test_create_get_with_etag_and_update_with_if_match(api):
    cards = legal_pool(9)
    body = {"name": "Fresh", "format": "quick", "cards": [{"card": c.collector_number, "count": 4} for c in cards]}
    created = api.post("/api/decks/", body, format="json")
    assert created.status_code == 201, created.json()
    data = created.json()
    assert created["ETag"] == '"1"' and data["legality"]["legal"] and data["card_count"] == 36
    got = api.get(f"/api/decks/{data['id']}/")
    assert got["ETag"] == '"1"' and got.json()["code"] == data["code"]
    changed = api.patch(f"/api/decks/{data['id']}/", {"name": "Renamed"}, format="json", HTTP_IF_MATCH='"1"')
    assert changed.status_code == 200 and changed["ETag"] == '"2"' and changed.json()["name"] == "Renamed"
    assert changed.json()["card_count"] == 36  # a partial update keeps the cards


def test_write_without_if_match_is_428_and_stale_is_412_keeping_the_other_edit(api, owner):
    deck = make_deck(owner)
    missing = api.patch(f"/api/decks/{deck.pk}/", {"name": "x"}, format="json")
    assert missing.status_code == 428 and missing.json()["error"]["code"] == "version_required"
    ok = api.patch(f"/api/decks/{deck.pk}/", {"name": "Tab one"}, format="json", HTTP_IF_MATCH='"1"')
    assert ok.status_code == 200
    stale = api.patch(f"/api/decks/{deck.pk}/", {"name": "Tab two"}, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412
    assert stale.json()["error"] == {"code": "stale_version", "message": stale.json()["error"]["message"],
                                     "details": {"expected": 1, "current": 2}}
    assert api.delete(f"/api/decks/{deck.pk}/", HTTP_IF_MATCH='"1"').status_code == 412
    assert Deck.objects.get(pk=deck.pk).name == "Tab one"
    assert api.delete(f"/api/decks/{deck.pk}/", HTTP_IF_MATCH='"2"').status_code == 204


def test_validate_is_open_to_anonymous_and_reports_everything():
    pike = make_card(name="Zz Api Pike")
    glyph = make_card("glyph", name="Zz Api Glyph", unique=True)
    text = f"5 {pike.name}\n2 {glyph.collector_number}\n3 Zz Api Pyke\n"
    decks_before = Deck.objects.count()
    response = APIClient().post("/api/decks/validate/", {"format": "tactical", "list": text}, format="json")
    assert response.status_code == 200
    data = response.json()
    assert data["legal"] is False and data["count"] == 7
    by_code = {e["code"]: e for e in data["errors"]}
    assert set(by_code) == {"unknown_card", "too_few_cards", "copies_over_limit", "unique_over_limit",
                            "type_not_allowed"}
    assert by_code["unknown_card"]["line"] == 3 and "Zz Api Pike" in by_code["unknown_card"]["suggestions"]
    assert by_code["copies_over_limit"]["card"] == pike.collector_number
    assert by_code["copies_over_limit"]["line"] == 1
    assert "Zz Api Glyph" in by_code["type_not_allowed"]["message"]
    assert isinstance(data["warnings"], list)
    assert Deck.objects.count() == decks_before


def test_validate_legal_list():
    text = "\n".join(f"4 {c.name}" for c in legal_pool(9))
    data = APIClient().post("/api/decks/validate/", {"format": "standard", "list": text}, format="json").json()
    assert data["legal"] is True and data["count"] == 36 and data["errors"] == []


@pytest.mark.parametrize("body", [{"format": "standard"}, {"list": "4 x"}, {"format": "vintage", "list": ""}, []])
def test_validate_malformed_request_is_400_in_the_envelope(body):
    response = APIClient().post("/api/decks/validate/", body, format="json")
    assert response.status_code == 400
    assert set(response.json()["error"]) == {"code", "message", "details"}


def test_import_refuses_bad_lines_then_accepts_the_fixed_list(api, owner):
    pike = make_card(name="Zz Import Api Pike")
    bad = api.post("/api/decks/import/", {"list": f"4 {pike.name}\nzero Pike\n0 {pike.name}"}, format="json")
    assert bad.status_code == 422
    error = bad.json()["error"]
    assert error["code"] == "invalid_deck_list"
    assert [(p["line"], p["code"]) for p in error["details"]["problems"]] == [(2, "bad_line"), (3, "bad_count")]
    assert not Deck.objects.filter(owner=owner).exists()
    good = api.post("/api/decks/import/", {"list": f"4 {pike.name}", "name": "Imported"}, format="json")
    assert good.status_code == 201 and good.json()["name"] == "Imported"


def test_dc9_the_import_endpoint_and_validate_read_a_sideboard_as_the_considering_list(api, owner):
    pike, spear = make_card(name="Zz Sideboard Api Pike"), make_card(name="Zz Sideboard Api Spear")
    text = f"- 4 {pike.name} # opener\n\n[Sideboard]\n2 {spear.name}\n"
    imported = api.post("/api/decks/import/", {"list": text}, format="json")
    assert imported.status_code == 201
    body = imported.json()
    assert [(c["card"], c["count"]) for c in body["cards"]] == [(pike.collector_number, 4)]
    assert [(c["card"], c["count"]) for c in body["considering"]] == [(spear.collector_number, 2)]
    report = api.post("/api/decks/validate/", {"format": "standard", "list": text}, format="json").json()
    assert report["count"] == 4
    refused = api.post("/api/decks/import/", {"list": f"4 {pike.name}\nTokens:\n2 {spear.name}"}, format="json")
    assert refused.status_code == 422
    assert [(p["line"], p["code"]) for p in refused.json()["error"]["details"]["problems"]] == [(2, "bad_line")]
    assert '"Tokens" is not a section' in refused.json()["error"]["details"]["problems"][0]["message"]


def test_export_text_code_json_and_import_back(api, owner):
    deck = make_deck(owner)
    text = api.get(f"/api/decks/{deck.pk}/export/?as=text").content.decode()
    code = api.get(f"/api/decks/{deck.pk}/export/?as=code").content.decode()
    as_json = api.get(f"/api/decks/{deck.pk}/export/?as=json").json()
    assert as_json["code"] == code and sum(c["count"] for c in as_json["cards"]) == 36
    for body in ({"list": text}, {"code": code}, {"deck": as_json}):
        back = api.post("/api/decks/import/", body, format="json").json()
        assert back["code"] == code
    assert api.get(f"/api/decks/{deck.pk}/export/?as=pdf").status_code == 400
    mine = api.get("/api/decks/export/").json()["decks"]
    assert len(mine) == 4  # the deck and its three imports


def test_bad_json_deck_names_the_item(api):
    response = api.post("/api/decks/import/", {"deck": {"cards": [{"card": "U-11111", "count": 1},
                                                                  {"card": "U-11112", "count": "two"}]}},
                        format="json")
    assert response.status_code == 400 and "deck.cards[1].count" in response.json()["error"]["message"]
    stray = api.post("/api/decks/import/", {"deck": {"cards": [], "sideboard": []}}, format="json")
    assert stray.status_code == 400 and "sideboard" in stray.json()["error"]["message"]  # its shape is closed
    unknown = api.post("/api/decks/import/", {"deck": {"cards": [{"card": "Nope Nope", "count": 1}]}}, format="json")
    assert unknown.json()["error"]["details"]["problems"][0]["code"] == "unknown_card"


def test_a_json_deck_whose_gateway_is_not_a_gateway_card_is_refused_naming_it(api):
    ordinary = make_card(name="Tst Not A Gate")
    response = api.post("/api/decks/import/", {"deck": {"name": "gw", "cards": [],
                                                        "gateway": {"card": ordinary.collector_number, "count": 2}}},
                        format="json")
    assert response.status_code == 422
    [problem] = response.json()["error"]["details"]["problems"]
    assert problem["code"] == "bad_line" and "Tst Not A Gate is not a gateway card" in problem["message"]
    assert not Deck.objects.filter(name="gw").exists()


def test_bad_deck_code_is_422():
    user = make_user()
    client = APIClient()
    client.force_authenticate(user)
    response = client.post("/api/decks/import/", {"code": "AgAA"}, format="json")
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_deck_code"


def test_copy_revert_revisions_and_diff(api, owner):
    other = make_user()
    public = make_deck(other, Visibility.PUBLIC)
    copy = api.post(f"/api/decks/{public.pk}/copy/", {}, format="json")
    assert copy.status_code == 201 and copy.json()["copied_from"] == public.pk
    pk = copy.json()["id"]
    api.patch(f"/api/decks/{pk}/", {"cards": [], "name": "Emptied"}, format="json", HTTP_IF_MATCH='"1"')
    diff = api.get(f"/api/decks/{pk}/diff/?from=1&to=2").json()
    assert len(diff["cards"]) == 9 and all(c["after"] == 0 for c in diff["cards"])
    missing = api.get(f"/api/decks/{pk}/diff/?from=1&to=9")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "revision_not_found"
    never = api.post(f"/api/decks/{pk}/revert/", {"version": 9}, format="json", HTTP_IF_MATCH='"2"')
    assert never.status_code == 404 and never.json()["error"]["code"] == "revision_not_found"  # one code, both
    reverted = api.post(f"/api/decks/{pk}/revert/", {"version": 1}, format="json", HTTP_IF_MATCH='"2"')
    assert reverted.status_code == 200 and reverted.json()["card_count"] == 36 and reverted["ETag"] == '"3"'
    assert [r["number"] for r in api.get(f"/api/decks/{pk}/revisions/").json()["results"]] == [3, 2, 1]


@pytest.mark.parametrize("query, name", [
    ("from=23444574263163510784&to=1", "from"),  # was a 500 on SQLite: the driver overflowed
    ("from=1&to=23444574263163510784", "to"),
    ("from=2147483648&to=1", "from"),  # past the version column (PostgreSQL's integer)
    ("from=0&to=1", "from"),
    ("from=1", "to"),
])
def test_a_diff_version_out_of_range_is_a_400_naming_the_range(api, owner, query, name):
    deck = make_deck(owner)
    response = api.get(f"/api/decks/{deck.pk}/diff/?{query}")
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == "invalid_parameter" and error["details"]["parameter"] == name
    assert "a whole number from 1 to 2147483647" in error["message"] and error["message"].startswith(name)
    assert api.get(f"/api/decks/{deck.pk}/diff/?from=1&to=2147483647").status_code == 404  # in range: looked up


def test_unknown_card_in_a_write_is_422_naming_it(api):
    response = api.post("/api/decks/", {"name": "x", "cards": [{"card": "NOPE-1", "count": 1}]}, format="json")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "unknown_card" and "NOPE-1" in response.json()["error"]["message"]


def test_public_list_filters(owner):
    make_deck(owner, Visibility.PUBLIC)
    hinter = deck_create(owner=owner, name="Qx Beasts", visibility=Visibility.PUBLIC, format="tactical",
                         entries=entries_of((make_card(craft="hinter", name="Zz Qx Beast"), 4)))
    make_deck(owner, Visibility.PRIVATE)
    client = APIClient()
    names = lambda q: [d["name"] for d in client.get(f"/api/decks/{q}").json()["results"]]  # noqa: E731
    everything = names("?page_size=100")
    assert "API deck" in everything and "Qx Beasts" in everything
    assert "Qx Beasts" in names("?craft=hinter") and "API deck" not in names("?craft=hinter")
    tactical = names("?deck_format=tactical&page_size=100")
    assert "Qx Beasts" in tactical and "API deck" not in tactical
    assert all("Tactical" in name for name in tactical if name != "Qx Beasts")  # the Tactical starters
    assert names("?card=zz qx beast") == ["Qx Beasts"]
    assert names("?q=qx beasts") == ["Qx Beasts"]
    assert hinter.pk


def test_schema_documents_the_deck_endpoints(client):
    schema = client.get("/api/schema/").content.decode()
    for path in ("/api/decks/validate/", "/api/decks/{id}/", "/api/decks/import/", "/api/decks/{id}/export/"):
        assert path in schema


def test_every_export_carries_a_file_name(api, owner, client):
    deck = make_deck(owner)
    deck.name = "Iron & Ash: Mk II"
    deck.save(update_fields=["name"])
    for kind, name in (("text", ".txt"), ("code", "-code.txt"), ("json", ".json")):
        response = api.get(f"/api/decks/{deck.pk}/export/?as={kind}")
        assert response["Content-Disposition"] == f'attachment; filename="iron-ash-mk-ii-{deck.pk}-v1{name}"'
    client.force_login(owner)
    page = client.get(f"/decks/{deck.pk}/export.txt")
    assert page["Content-Disposition"] == f'attachment; filename="iron-ash-mk-ii-{deck.pk}-v1.txt"'


def test_odds_are_exact_hypergeometric_values_by_turn(api, owner):
    from fractions import Fraction

    from decks.stats import at_least_one

    deck = make_deck(owner)  # 9 cards x 4 = 36
    body = api.get(f"/api/decks/{deck.pk}/odds/", {"hand": 7, "by_turn": 3, "category": "type:unit"}).json()
    assert (body["deck_size"], body["hand"], body["draws"], body["by_turn"]) == (36, 7, 1, 3)
    [units] = body["categories"]
    assert units["category"] == "type:unit" and units["label"] == "Any Unit"
    copies = units["copies"]
    assert [r["turn"] for r in units["rows"]] == [0, 1, 2, 3] and [r["seen"] for r in units["rows"]] == [7, 8, 9, 10]
    for row in units["rows"]:
        assert Fraction(row["exact"]) == at_least_one(36, copies, row["seen"])
        assert row["probability"] == float(Fraction(row["exact"]))
    everything = api.get(f"/api/decks/{deck.pk}/odds/").json()
    assert everything["hand"] == 6 and len(everything["categories"]) > 1
    assert {c["category"] for c in everything["categories"]} >= {"type:unit", "vit:3"}


def test_odds_of_a_near_certainty_say_more_than_99_9_percent(api, owner):
    deck = make_deck(owner)
    body = api.get(f"/api/decks/{deck.pk}/odds/", {"hand": 20, "by_turn": 15, "draws": 10}).json()
    percents = [(r["percent"], r["exact"]) for c in body["categories"] for r in c["rows"]]
    assert all(p != "100.0%" or exact == "1/1" for p, exact in percents)
    assert any(p == "> 99.9%" for p, _ in percents)


@pytest.mark.parametrize(("params", "parameter", "allowed"), [
    ({"by_turn": 16}, "by_turn", "a whole number from 0 to 15"),
    ({"hand": "x"}, "hand", "a whole number from 0 to 20"),
    ({"hand": "-1"}, "hand", "a whole number from 0 to 20"),
    ({"draws": "\u0663"}, "draws", "a whole number from 0 to 10"),
])
def test_odds_parameters_out_of_range_are_400_naming_the_range(api, owner, params, parameter, allowed):
    deck = make_deck(owner)
    response = api.get(f"/api/decks/{deck.pk}/odds/", params)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_parameter" and error["details"]["parameter"] == parameter
    assert allowed in error["message"]


def test_odds_of_an_unknown_category_is_400_and_of_a_hidden_deck_404(api, owner):
    deck = make_deck(owner)
    error = api.get(f"/api/decks/{deck.pk}/odds/", {"category": "type:dragon"}).json()["error"]
    assert error["details"]["parameter"] == "category" and "type:unit" in error["details"]["allowed"]
    assert APIClient().get(f"/api/decks/{deck.pk}/odds/").status_code == 404


def test_if_match_star_matches_the_deck_whatever_its_version(api, owner):
    deck = make_deck(owner)
    api.patch(f"/api/decks/{deck.pk}/", {"name": "Two"}, format="json", HTTP_IF_MATCH='"1"')
    response = api.patch(f"/api/decks/{deck.pk}/", {"name": "Three"}, format="json", HTTP_IF_MATCH="*")
    assert response.status_code == 200 and response["ETag"] == '"3"'
    assert api.patch("/api/decks/999999/", {"name": "x"}, format="json", HTTP_IF_MATCH="*").status_code == 404


def test_a_write_that_changes_nothing_makes_no_version(api, owner):
    deck = make_deck(owner)
    cards = api.get(f"/api/decks/{deck.pk}/").json()["cards"]
    for body in ({}, {"name": deck.name, "format": deck.format},
                 {"cards": [{"card": c["card"], "count": c["count"]} for c in reversed(cards)]}):
        response = api.patch(f"/api/decks/{deck.pk}/", body, format="json", HTTP_IF_MATCH="*")
        assert response.status_code == 200 and response["ETag"] == '"1"', body
    assert deck.revisions.count() == 1
    stale = api.patch(f"/api/decks/{deck.pk}/", {}, format="json", HTTP_IF_MATCH='"7"')
    assert stale.status_code == 412  # a stale write is refused, whether or not it changes anything
    changed = api.patch(f"/api/decks/{deck.pk}/", {"name": "Other"}, format="json", HTTP_IF_MATCH='"1"')
    assert changed["ETag"] == '"2"'


def test_if_match_with_a_list_matches_if_any_tag_does(api, owner):
    deck = make_deck(owner)
    api.patch(f"/api/decks/{deck.pk}/", {"name": "Two"}, format="json", HTTP_IF_MATCH='"1"')
    ok = api.patch(f"/api/decks/{deck.pk}/", {"name": "Three"}, format="json", HTTP_IF_MATCH='"1", "2", "7"')
    assert ok.status_code == 200 and ok["ETag"] == '"3"'
    stale = api.patch(f"/api/decks/{deck.pk}/", {"name": "Four"}, format="json", HTTP_IF_MATCH='"1", "2"')
    assert stale.status_code == 412
    assert stale.json()["error"]["details"] == {"expected": [1, 2], "current": 3}
    assert api.delete(f"/api/decks/{deck.pk}/", HTTP_IF_MATCH='"9", "3"').status_code == 204


def test_a_weak_etag_never_matches_if_match_rfc_9110_strong_comparison(api, owner):
    deck = make_deck(owner)
    for header in ('W/"1"', 'W/"1", W/"7"', '"7", W/"1"'):
        weak = api.patch(f"/api/decks/{deck.pk}/", {"name": "Weak"}, format="json", HTTP_IF_MATCH=header)
        assert weak.status_code == 412, header
        error = weak.json()["error"]
        assert error["code"] == "precondition_failed" and 'send the ETag as GET gives it, "1"' in error["message"]
        assert api.delete(f"/api/decks/{deck.pk}/", HTTP_IF_MATCH=header).status_code == 412
    assert Deck.objects.get(pk=deck.pk).version == 1 and Deck.objects.get(pk=deck.pk).name == deck.name
    strong = api.patch(f"/api/decks/{deck.pk}/", {"name": "Strong"}, format="json", HTTP_IF_MATCH='W/"1", "1"')
    assert strong.status_code == 200 and strong["ETag"] == '"2"'


def test_a_write_whose_if_none_match_names_the_current_version_is_412_after_if_match(api, owner):
    """RFC 9110 §13.2.2: If-Match first (it holds here), then If-None-Match, which fails a write with 412."""
    deck = make_deck(owner)
    for none_match in ('"1"', 'W/"1"', '"5", "1"', "*"):
        refused = api.patch(f"/api/decks/{deck.pk}/", {"name": "No"}, format="json", HTTP_IF_MATCH='"1"',
                            HTTP_IF_NONE_MATCH=none_match)
        assert refused.status_code == 412, none_match
        assert refused.json()["error"]["code"] == "precondition_failed"
        assert refused.json()["error"]["details"] == {"if_none_match": none_match, "current": 1}
    deleted = api.delete(f"/api/decks/{deck.pk}/", HTTP_IF_MATCH="*", HTTP_IF_NONE_MATCH='"1"')
    reverted = api.post(f"/api/decks/{deck.pk}/revert/", {"version": 1}, format="json", HTTP_IF_MATCH='"1"',
                        HTTP_IF_NONE_MATCH='"1"')
    assert deleted.status_code == reverted.status_code == 412
    assert Deck.objects.get(pk=deck.pk).version == 1
    stale = api.patch(f"/api/decks/{deck.pk}/", {"name": "No"}, format="json", HTTP_IF_MATCH='"9"',
                      HTTP_IF_NONE_MATCH='"1"')
    assert stale.json()["error"]["code"] == "stale_version"  # If-Match is evaluated first
    other = api.patch(f"/api/decks/{deck.pk}/", {"name": "Yes"}, format="json", HTTP_IF_MATCH='"1"',
                      HTTP_IF_NONE_MATCH='"7"')
    assert other.status_code == 200 and other.json()["name"] == "Yes"


def test_put_replaces_the_whole_deck_and_refuses_a_body_that_leaves_a_field_out(api, owner):
    deck = make_deck(owner)
    spare = make_card(name="Zz Put Spare")
    full = {"name": "Replaced", "description": "", "format": "quick", "visibility": "private",
            "cards": [{"card": spare.collector_number, "count": 2}], "considering": [], "gateway": None}
    for missing in ("cards", "considering", "gateway", "description", "format", "visibility", "name"):
        body = {k: v for k, v in full.items() if k != missing}
        refused = api.put(f"/api/decks/{deck.pk}/", body, format="json", HTTP_IF_MATCH='"1"')
        assert refused.status_code == 400, missing
        assert missing in refused.json()["error"]["message"], refused.json()
    assert Deck.objects.get(pk=deck.pk).version == 1
    replaced = api.put(f"/api/decks/{deck.pk}/", full, format="json", HTTP_IF_MATCH='"1"')
    assert replaced.status_code == 200
    data = replaced.json()
    assert [(c["card"], c["count"]) for c in data["cards"]] == [(spare.collector_number, 2)]
    assert data["card_count"] == 2 and data["format"] == "quick" and data["gateway"] is None
    patched = api.patch(f"/api/decks/{deck.pk}/", {"name": "Patched"}, format="json", HTTP_IF_MATCH='"2"')
    assert patched.status_code == 200 and patched.json()["card_count"] == 2  # PATCH stays partial


def test_deck_get_answers_304_to_if_none_match_with_the_current_etag(api, owner):
    deck = make_deck(owner)
    first = api.get(f"/api/decks/{deck.pk}/")
    for header in (first["ETag"], f'"7", {first["ETag"]}', "*", f"W/{first['ETag']}"):
        again = api.get(f"/api/decks/{deck.pk}/", HTTP_IF_NONE_MATCH=header)
        assert again.status_code == 304 and again["ETag"] == first["ETag"] and not again.content
    api.patch(f"/api/decks/{deck.pk}/", {"name": "Changed"}, format="json", HTTP_IF_MATCH=first["ETag"])
    changed = api.get(f"/api/decks/{deck.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed.json()["name"] == "Changed" and changed["ETag"] == '"2"'
    assert APIClient().get(f"/api/decks/{deck.pk}/", HTTP_IF_NONE_MATCH="*").status_code == 404  # still private


@pytest.mark.parametrize("page", ["0", "x", "1000001"])
def test_a_deck_list_page_out_of_range_is_400_naming_the_range(api, page):
    error = api.get("/api/decks/", {"page": page}).json()["error"]
    assert error["code"] == "invalid_parameter" and error["details"]["allowed"] == "a whole number from 1 to 1000000"
    assert api.get("/api/decks/", {"page": 999}).status_code == 404  # in range, past the last page


def test_an_unknown_format_parameter_is_a_400_naming_it_and_pointing_a_deck_filter_to_deck_format():
    client = APIClient()
    answer = client.get("/api/decks/?format=standard")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "invalid_parameter" and error["details"]["parameter"] == "format"
    assert "deck_format=standard" in error["message"] and "json" in error["details"]["allowed"]
    assert client.get("/api/decks/?format=json").status_code == 200
    assert client.get("/api/decks/?deck_format=standard").status_code == 200


def test_a_version_written_through_the_api_says_what_it_changed(api, owner):
    """The history shows each version's message: an API write said "Saved" whatever it changed."""
    deck = make_deck(owner, visibility=Visibility.PUBLIC)
    cards = api.get(f"/api/decks/{deck.pk}/").json()["cards"]
    api.patch(f"/api/decks/{deck.pk}/", {"visibility": "unlisted"}, format="json", HTTP_IF_MATCH='"1"')
    first = cards[0]
    more = [{"card": c["card"], "count": c["count"] + (1 if c is first else 0)} for c in cards]
    api.patch(f"/api/decks/{deck.pk}/", {"cards": more, "considering": []}, format="json",  # considering as it was
              HTTP_IF_MATCH='"2"')
    api.patch(f"/api/decks/{deck.pk}/", {"cards": more[:1]}, format="json", HTTP_IF_MATCH='"3"')
    messages = [r["message"] for r in api.get(f"/api/decks/{deck.pk}/revisions/").json()["results"]]
    assert messages[2] == "Visibility: Public → Unlisted (anyone with the link)"
    name = Deck.objects.get(pk=deck.pk).entries.get(card__collector_number=first["card"]).card.name
    assert messages[1] == f"{name}: {first['count']} → {first['count'] + 1}"
    # Every other card taken out: each named whole, as many as the message holds, the rest counted.
    taken_out = messages[0].split("; ")
    counted = int(taken_out.pop()[:-len(" more")]) if re.fullmatch(r"\d+ more", taken_out[-1]) else 0
    assert all(re.fullmatch(r".+: \d+ → 0", part) for part in taken_out), messages[0]
    assert len(taken_out) + counted == len(cards) - 1 and len(messages[0]) <= 200


def test_a_card_entry_with_a_field_it_does_not_have_names_that_field_not_a_missing_one(api):
    """The card resource calls its number collector_number: sent so here, "card: This field is required." hid why."""
    response = api.post("/api/decks/", {"name": "x", "cards": [{"collector_number": "U-1", "count": 3}]},
                        format="json")
    assert response.status_code == 400
    assert response.json()["error"]["message"] == (
        "cards[0]: collector_number is not a field here; the fields are card, count, tag")


@pytest.mark.parametrize("field", ["cards", "considering"])
def test_an_unknown_card_says_which_item_of_which_list_named_it(api, field):
    good = make_card("Zz Known")
    body = {"name": "x", field: [{"card": good.collector_number, "count": 1}, {"card": "NOPE", "count": 1}]}
    error = api.post("/api/decks/", body, format="json").json()["error"]
    assert error["message"] == f"{field}[1].card: No card is named or numbered “NOPE”."
    assert error["details"]["field"] == f"{field}[1].card"


def test_a_read_that_needs_a_log_in_says_what_it_needs_it_for():
    anonymous = APIClient()
    assert anonymous.get("/api/decks/?mine=true").json()["error"]["message"] == (
        "Log in to list your own decks (mine=true); the public ones need no log-in.")
    assert anonymous.get("/api/decks/export/").json()["error"]["message"] == "Log in to export your decks."


@pytest.mark.parametrize("case", ["private, no gateway", "unlisted to its owner", "gateway and considering",
                                  "starter, no owner", "a copy"])
def test_a_deck_is_answered_as_its_declared_fields_write_it(owner, case):
    """DeckOutSerializer and DeckSummarySerializer write a deck without walking their fields; the declared fields,
    which the schema reads, must give the same answer, key for key and in order."""
    import json

    from rest_framework import serializers
    from rest_framework.renderers import JSONRenderer

    from decks import selectors
    from decks.serializers import DeckOutSerializer, DeckSummarySerializer
    from decks.services import deck_copy

    pool = legal_pool(10)
    gateway = make_card("gateway")
    deck = {
        "private, no gateway": lambda: make_deck(owner),
        "unlisted to its owner": lambda: make_deck(owner, visibility=Visibility.UNLISTED),
        "gateway and considering": lambda: deck_create(
            owner=owner, name="Gated", entries=entries_of(*[(c, 4) for c in pool[:9]]), gateway=gateway,
            considering=entries_of((pool[9], 2)), tags={pool[0].collector_number: "Core"}),
        "starter, no owner": lambda: deck_create(owner=None, name="Starter", visibility=Visibility.PUBLIC,
                                                 entries=entries_of(*[(c, 4) for c in pool[:9]]), is_starter=True),
        "a copy": lambda: deck_copy(deck=make_deck(owner, visibility=Visibility.PUBLIC), owner=make_user(),
                                    name="Copied"),
    }[case]()
    viewer = deck.owner or owner
    deck = selectors.deck_for_viewer(deck_id=deck.pk, user=viewer)  # as the API reads it
    context = {"entries": selectors.deck_entries(deck), "tags": selectors.deck_tags(deck),
               "considering": selectors.deck_considering(deck), "user": viewer}
    for serializer in (DeckOutSerializer(deck, context=context), DeckSummarySerializer(deck)):
        by_fields = serializers.Serializer.to_representation(serializer, deck)
        assert json.loads(JSONRenderer().render(serializer.data)) == json.loads(JSONRenderer().render(by_fields))
        assert list(serializer.data) == list(by_fields)


def test_a_decks_versions_are_listed_a_page_at_a_time(api, owner):
    """Each version holds its whole list, and the editor saves one per change: the list is paged as the deck
    list is."""
    from decks.services import deck_update

    deck = make_deck(owner)
    for n in range(62):
        deck = deck_update(deck=deck, actor=owner, expected_version=deck.version, description=f"Take {n}")
    first = api.get(f"/api/decks/{deck.pk}/revisions/").json()
    assert first["count"] == 63 and len(first["results"]) == 60 and first["results"][0]["number"] == 63
    rest = api.get(first["next"]).json()
    assert [r["number"] for r in rest["results"]] == [3, 2, 1] and rest["next"] is None


def test_a_card_listed_many_times_is_added_up_and_said_so_when_past_the_most_a_deck_holds(api):
    card = make_card(name="Zz Repeated")
    body = {"name": "x", "cards": [{"card": card.collector_number, "count": 1}] * 70}
    error = api.post("/api/decks/", body, format="json").json()["error"]
    assert error["message"] == (f"{card.name}: 70 copies in all (a card listed more than once is added up); a deck "
                                "holds at most 60 of a card.")  # it said a count is 1 to 60, and no item was 70


@pytest.mark.parametrize("method, path, body", [
    ("post", "/api/decks/validate/", '{"format": "standard", "list": "4 Beetle\\ud83d"}'),
    ("post", "/api/decks/import/", '{"list": "4 Beetle\\ud83d"}'),
    ("post", "/api/decks/", '{"name": "Surrogate", "description": "A primer\\ud83d"}'),
])
def test_a_long_text_holding_a_lone_surrogate_is_refused_naming_its_field_and_the_character(api, method, path, body):
    response = getattr(api, method)(path, body, content_type="application/json")
    field = "description" if "description" in body else "list"
    assert response.status_code == 422
    assert response.json()["error"]["details"]["fields"] == {field: ["Surrogate characters are not allowed: U+D83D."]}
    assert not Deck.objects.filter(name="Surrogate").exists()
