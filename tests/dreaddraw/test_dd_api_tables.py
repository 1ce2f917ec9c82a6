"""The Dread Draw tables API: create, observe, decide (refusals with rule numbers), join; in the schema."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from dreaddraw.models import DreadDrawTable
from dreaddraw.services import table_game

pytestmark = pytest.mark.django_db


def create(client, seats, seed=9):
    response = client.post("/api/dreaddraw/tables/", {"seats": seats, "seed": seed}, content_type="application/json")
    assert response.status_code == 201, response.json()
    return response.json()


def _cards_in(value):
    """Every card (a dict with a number) anywhere in an observation."""
    if isinstance(value, dict):
        if "number" in value:
            yield value
        for item in value.values():
            yield from _cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _cards_in(item)


def test_create_a_table_and_see_only_your_seats_cards(client, alice):
    body = create(client, [{"kind": "local", "name": "Ana"}, {"kind": "bot", "bot": "heuristic"}])
    assert body["your_seats"] == [0]
    assert body["seats"][1]["name"] == "Heuristic bot"
    obs = body["observation"]
    assert obs["seat"] == 0 and obs["to_move"] == 0 and "D" in obs["legal"]
    # The bot's Life cards stay face down: their count shows, never which cards they are.
    game = table_game(DreadDrawTable.objects.get(pk=body["id"]))
    hidden = [c for c in game.life[1] if c not in game.known_life[0]]
    assert hidden and obs["players"][1]["life_size"] == len(game.life[1])
    shown = {card["number"] for card in _cards_in(obs)}
    assert not shown & set(hidden)


def test_a_decision_is_played_and_an_illegal_one_refused_with_its_rule(client, alice):
    body = create(client, [{"kind": "local"}, {"kind": "bot", "bot": "random"}])
    url = f"/api/dreaddraw/tables/{body['id']}/decisions/"
    refused = client.post(url, {"seat": 0, "decision": "R5"}, content_type="application/json")
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "illegal_decision" and error["details"]["rule"] == "DD-6.3"
    same = client.get(f"/api/dreaddraw/tables/{body['id']}/").json()
    assert same["decisions"] == body["decisions"]
    played = client.post(url, {"seat": 0, "decision": "D", "turn": body["turn"]}, content_type="application/json")
    assert played.status_code == 200
    assert played.json()["turn"] > body["turn"]
    wrong_seat = client.post(url, {"seat": 1, "decision": "D"}, content_type="application/json")
    assert wrong_seat.status_code == 403 and wrong_seat.json()["error"]["code"] == "not_your_seat"
    # the request's seat 1 is the page's seat 2: said so, where "You do not play seat 2" sent a script to the wrong one
    assert wrong_seat.json()["error"]["message"] == ("You do not play seat 2 at this table (seat 1, counted from 0 "
                                                     "as the API counts).")
    assert wrong_seat.json()["error"]["details"]["seat"] == 1


def test_bad_seats_are_refused_naming_the_field(client, alice):
    response = client.post("/api/dreaddraw/tables/", {"seats": [{"kind": "local"}, {"kind": "bot", "bot": "genius"}]},
                           content_type="application/json")
    assert response.status_code == 400
    assert "seats" in response.json()["error"]["message"]


def test_a_seat_name_with_a_direction_override_is_refused_naming_it(client, alice):
    """Seat names are shown to every seat: a right-to-left override in one reversed the words after it."""
    client.force_login(alice)
    seats = [{"kind": "local", "name": "Ann\u202eeve"}, {"kind": "bot", "bot": "heuristic"}]
    response = client.post("/api/dreaddraw/tables/", {"seats": seats}, content_type="application/json")
    assert response.status_code in (400, 422)
    error = response.json()["error"]
    assert error["details"]["field"] == "seats[0].name" and "U+202E RIGHT-TO-LEFT OVERRIDE at character 4" in \
        error["message"]
    assert not DreadDrawTable.objects.exists()


def test_a_guest_joins_through_the_api_and_sees_their_own_seat(client, alice):
    body = create(client, [{"kind": "local"}, {"kind": "invite"}])
    assert body["status"] == "waiting"
    bob = get_user_model().objects.create_user("bob", password="pw-bob-12345")
    client.force_login(bob)
    joined = client.post(f"/api/dreaddraw/tables/{body['id']}/join/").json()
    assert joined["status"] == "playing" and joined["your_seats"] == [1]
    assert joined["observation"]["seat"] == 1


def test_tables_need_a_login(client):
    assert client.get("/api/dreaddraw/tables/").status_code in (401, 403)


def test_the_schema_lists_the_dread_draw_endpoints(client):
    schema = client.get("/api/schema/").content.decode()
    for path in ("/api/dreaddraw/cards/", "/api/dreaddraw/tables/", "/api/dreaddraw/tables/{table_id}/decisions/",
                 "/api/runs/"):
        assert path in schema


def test_play_again_through_the_api_once_the_game_is_over(client, alice):
    from dreaddraw.engine import to_notation
    from dreaddraw.services import table_act

    body = create(client, [{"kind": "local", "name": "Ana"}, {"kind": "bot", "bot": "random"}])
    url = f"/api/dreaddraw/tables/{body['id']}/again/"
    refused = client.post(url)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "table_not_over"
    table = DreadDrawTable.objects.get(pk=body["id"])
    for _ in range(2000):
        table.refresh_from_db()
        game = table_game(table)
        if game.over:
            break
        table_act(table_id=table.pk, user=alice, seat=0, decision=to_notation(game.legal()[0]))
    again = client.post(url)
    assert again.status_code == 201
    new = again.json()
    assert new["id"] != body["id"] and [s["name"] for s in new["seats"]] == ["Ana", "Random bot"]
    client.force_login(get_user_model().objects.create_user("bystander"))
    assert client.post(url).json()["error"]["code"] == "not_table_owner"
    assert client.post(f"/api/dreaddraw/tables/{'0' * 8}-0000-0000-0000-{'0' * 12}/again/").status_code == 404
