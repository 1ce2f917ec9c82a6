"""The goldfish table through the API: create, act by notation or by value, refusals with rules."""

import pytest

from playtest.models import GoldfishTable
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db



@pytest.fixture
def table(client, alice):
    client.force_login(alice)
    response = client.post("/api/goldfish-tables/", {"deck": starter_deck(alice).pk, "seed": 3},
                           content_type="application/json")
    assert response.status_code == 201, response.json()
    body = response.json()
    if any(a["notation"] == "keep" for a in body["legal_actions"]):
        body = client.post(f"/api/goldfish-tables/{body['id']}/act/", {"action": "keep"},
                           content_type="application/json").json()
    return body


def test_a_table_shows_the_players_observation_and_legal_actions(table):
    assert table["observation"]["players"][table["seat"]]["hand"]
    assert "hand" not in table["observation"]["players"][1 - table["seat"]]
    assert {"action", "notation"} <= set(table["legal_actions"][0])


def test_acting_by_notation_draws_a_card(client, table):
    hand = len(table["observation"]["players"][table["seat"]]["hand"])
    body = client.post(f"/api/goldfish-tables/{table['id']}/act/", {"action": "draw"},
                       content_type="application/json").json()
    assert len(body["observation"]["players"][table["seat"]]["hand"]) == hand + 1
    assert body["log"][-1] == "draw"


def test_an_illegal_action_is_a_422_with_the_rule_and_nothing_changes(client, table):
    before = GoldfishTable.objects.get(pk=table["id"]).actions
    response = client.post(f"/api/goldfish-tables/{table['id']}/act/", {"action": [2, 0, 12]},
                           content_type="application/json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["details"]["rule"].startswith("DG-") and error["details"]["rule_url"].startswith("/rules/#DG-")
    assert GoldfishTable.objects.get(pk=table["id"]).actions == before


def test_bad_notation_names_the_position(client, table):
    response = client.post(f"/api/goldfish-tables/{table['id']}/act/", {"action": "draw zz9"},
                           content_type="application/json")
    assert response.status_code == 422
    assert "position" in response.json()["error"]["details"]


def test_another_user_gets_a_404(client, table, bob):
    client.force_login(bob)
    assert client.get(f"/api/goldfish-tables/{table['id']}/").status_code == 404
    assert client.post(f"/api/goldfish-tables/{table['id']}/undo/").status_code == 404


def test_undo_and_ai_turn(client, table):
    turn = table["observation"]["turn"]
    body = client.post(f"/api/goldfish-tables/{table['id']}/ai-turn/").json()
    assert body["observation"]["turn"] > turn
    body = client.post(f"/api/goldfish-tables/{table['id']}/undo/").json()
    assert body["observation"]["turn"] == turn


def test_an_opponent_deck_the_player_may_not_see_is_refused_with_the_code_a_deck_refusal_has(client, alice, bob):
    """Runs, tunings and metagames say deck_not_found for such a deck; the table said "invalid"."""
    from decks.models import Deck, Visibility

    hidden = starter_deck(bob, name="Bob's private deck")
    Deck.objects.filter(pk=hidden.pk).update(visibility=Visibility.PRIVATE)
    client.force_login(alice)
    answer = client.post("/api/goldfish-tables/", {"deck": starter_deck(alice).pk, "opponent": hidden.pk},
                         content_type="application/json")
    error = answer.json()["error"]
    assert answer.status_code == 404 and error["code"] == "deck_not_found" and error["details"]["field"] == "opponent"
    assert error["message"].startswith("opponent: ")
