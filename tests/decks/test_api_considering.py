"""The decks API carries each card's tag and the considering list: in a deck, its writes, revisions, diffs and
schema."""

import pytest
from rest_framework.test import APIClient

from decks.considering import deck_consider, deck_tag_card
from decks.models import Deck, Visibility
from decks.selectors import card_info, deck_entries, deck_tags

from .factories import considering_of, legal_deck, legal_pool, make_card, make_user

pytestmark = pytest.mark.django_db


def test_a_deck_shows_each_cards_tag_and_its_considering_list(api, owner):
    deck, pool = legal_deck(owner)
    pilfer = make_card("talent", name="Zz Api Pilfer")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=card_info(pool[0]), tag="ramp")
    deck, _ = deck_consider(deck=deck, actor=owner, card=card_info(pilfer), delta=2)
    data = api.get(f"/api/decks/{deck.pk}/").json()
    tags = {c["card"]: c["tag"] for c in data["cards"]}
    assert tags[pool[0].collector_number] == "ramp" and tags[pool[1].collector_number] == ""
    assert data["considering"] == [{"card": pilfer.collector_number, "name": "Zz Api Pilfer", "count": 2}]
    assert data["card_count"] == 36 and data["legality"]["legal"] and data["legality"]["count"] == 36


def test_a_write_sets_the_tags_and_the_considering_list_as_one_version(api, owner):
    deck, pool = legal_deck(owner)
    unique = make_card("legend", name="Zz Api Legend", unique=True)
    cards = [{"card": c.collector_number, "count": 4} for c in pool]
    cards[0]["tag"] = "ramp"
    cards[1]["tag"] = "  card   draw "
    body = {"cards": cards, "considering": [{"card": "Zz Api Legend", "count": 3},
                                            {"card": pool[2].collector_number, "count": 2}]}
    response = api.patch(f"/api/decks/{deck.pk}/", body, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 200, response.json()
    data = response.json()
    assert response["ETag"] == '"2"'
    assert {c["card"]: c["tag"] for c in data["cards"] if c["tag"]} == {
        pool[0].collector_number: "ramp", pool[1].collector_number: "card draw"}
    assert sorted((c["card"], c["count"]) for c in data["considering"]) == sorted(
        [(unique.collector_number, 3), (pool[2].collector_number, 2)])
    assert data["legality"]["legal"] and data["card_count"] == 36  # 3 copies of a unique card, only considered
    # A card sent without its tag keeps it; "" untags; a PATCH without cards or considering keeps both.
    cards = [{"card": c.collector_number, "count": 4} for c in pool]
    cards[1]["tag"] = ""
    data = api.patch(f"/api/decks/{deck.pk}/", {"cards": cards}, format="json", HTTP_IF_MATCH='"2"').json()
    assert {c["card"]: c["tag"] for c in data["cards"] if c["tag"]} == {pool[0].collector_number: "ramp"}
    data = api.patch(f"/api/decks/{deck.pk}/", {"name": "Renamed"}, format="json", HTTP_IF_MATCH='"3"').json()
    assert {c["card"]: c["tag"] for c in data["cards"] if c["tag"]} == {pool[0].collector_number: "ramp"}
    assert len(data["considering"]) == 2
    data = api.patch(f"/api/decks/{deck.pk}/", {"considering": []}, format="json", HTTP_IF_MATCH='"4"').json()
    assert data["considering"] == [] and data["version"] == 5
    revisions = {r["number"]: r for r in api.get(f"/api/decks/{deck.pk}/revisions/").json()["results"]}
    assert revisions[2]["tags"] == {pool[0].collector_number: "ramp", pool[1].collector_number: "card draw"}
    assert revisions[2]["considering"] == sorted([[unique.collector_number, 3], [pool[2].collector_number, 2]])
    assert revisions[5]["considering"] == [] and revisions[1]["tags"] == {}
    diff = api.get(f"/api/decks/{deck.pk}/diff/?from=1&to=2").json()
    assert {c["card"] for c in diff["considering"]} == {unique.collector_number, pool[2].collector_number}
    assert {(t["card"], t["before"], t["after"]) for t in diff["tags"]} == {
        (pool[0].collector_number, "", "ramp"), (pool[1].collector_number, "", "card draw")}
    reverted = api.post(f"/api/decks/{deck.pk}/revert/", {"version": 2}, format="json", HTTP_IF_MATCH='"5"').json()
    assert len(reverted["considering"]) == 2
    assert {c["card"]: c["tag"] for c in reverted["cards"] if c["tag"]} == revisions[2]["tags"]


def test_a_new_deck_may_come_with_tags_and_a_considering_list(api):
    pool = legal_pool(9)
    body = {"name": "Fresh", "cards": [{"card": c.collector_number, "count": 4, "tag": "core"} for c in pool],
            "considering": [{"card": pool[0].collector_number, "count": 1}]}
    created = api.post("/api/decks/", body, format="json")
    assert created.status_code == 201, created.json()
    deck = Deck.objects.get(pk=created.json()["id"])
    assert set(deck_tags(deck).values()) == {"core"} and len(deck_tags(deck)) == 9
    assert considering_of(deck) == [(pool[0].collector_number, 1)]
    assert deck.revisions.get().tags == deck_tags(deck)


@pytest.mark.parametrize("change, status, code, words", [
    ({"tag": "x" * 31}, 400, "invalid", "30"),
    ({"tag": "two\nlines"}, 422, "invalid_deck", "control characters"),
    ({"tag": "\u2066isolated"}, 422, "invalid_deck", "control characters"),
])
def test_a_bad_tag_is_refused_and_nothing_is_saved(api, owner, change, status, code, words):
    deck, pool = legal_deck(owner)
    cards = [{"card": c.collector_number, "count": 4} for c in pool]
    cards[3].update(change)
    response = api.patch(f"/api/decks/{deck.pk}/", {"cards": cards}, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == code and words in str(error)
    if code == "invalid_deck":
        assert pool[3].name in error["message"] and error["details"]["card"] == pool[3].collector_number
    assert Deck.objects.get(pk=deck.pk).version == 1


def test_the_considering_list_refuses_the_gateway_an_unknown_card_and_a_bad_count(api, owner):
    deck, _ = legal_deck(owner)
    gate = make_card("gateway", name="Zz Api Gate", vitality=None)
    for item, status, code in (({"card": gate.collector_number, "count": 1}, 422, "invalid_deck"),
                               ({"card": "Zz No Such Card", "count": 1}, 422, "unknown_card"),
                               ({"card": deck_entries(deck)[0].card.collector_number, "count": 61}, 400, "invalid")):
        response = api.patch(f"/api/decks/{deck.pk}/", {"considering": [item]}, format="json", HTTP_IF_MATCH='"1"')
        assert response.status_code == status and response.json()["error"]["code"] == code, response.json()
    assert Deck.objects.get(pk=deck.pk).version == 1 and considering_of(deck) == []


def test_another_player_cannot_write_tags_or_the_considering_list(owner):
    deck, pool = legal_deck(owner, visibility=Visibility.PUBLIC)
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=card_info(pool[0]), tag="ramp")
    other = APIClient()
    other.force_authenticate(make_user())
    body = {"cards": [{"card": pool[0].collector_number, "count": 4, "tag": "mine"}],
            "considering": [{"card": pool[1].collector_number, "count": 2}]}
    whole = {"description": "", "format": "standard", "visibility": "public", "gateway": None}  # PUT gives every field
    for method, sent in (("patch", body), ("put", dict(body, **whole))):
        response = getattr(other, method)(f"/api/decks/{deck.pk}/", dict(sent, name="Taken"), format="json",
                                          HTTP_IF_MATCH="*")
        assert response.status_code == 403 and response.json()["error"]["code"] == "not_deck_owner"
    private, _ = legal_deck(owner)
    assert other.patch(f"/api/decks/{private.pk}/", body, format="json", HTTP_IF_MATCH="*").status_code == 404
    assert APIClient().patch(f"/api/decks/{deck.pk}/", body, format="json", HTTP_IF_MATCH="*").status_code == 401
    assert deck_tags(deck) == {pool[0].collector_number: "ramp"} and considering_of(deck) == []
    assert Deck.objects.get(pk=deck.pk).version == 2


def test_the_schema_documents_tags_and_the_considering_list(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    out = components["DeckOut"]["properties"]
    assert out["considering"]["items"]["$ref"].endswith("/ConsideringOut")
    assert set(components["ConsideringOut"]["properties"]) == {"card", "name", "count"}
    assert out["cards"]["items"]["$ref"].endswith("/DeckEntryOut")
    assert components["DeckEntryOut"]["properties"]["tag"]["type"] == "string"
    assert "tag" in components["DeckEntryOut"]["required"]
    for body in ("DeckWriteRequest", "PatchedDeckWriteRequest"):  # POST and PUT, PATCH
        write = components[body]["properties"]
        assert write["cards"]["items"]["$ref"].endswith("/DeckCardWriteRequest")
        assert write["considering"]["items"]["$ref"].endswith("/CardCountRequest")
    assert components["DeckCardWriteRequest"]["properties"]["tag"]["maxLength"] == 30
    assert "tag" not in components["DeckCardWriteRequest"]["required"]
    assert components["CardCountRequest"]["properties"]["count"]["maximum"] == 60
    revision = components["Revision"]["properties"]
    assert revision["tags"]["type"] == "object" and revision["considering"]["type"] == "array"
