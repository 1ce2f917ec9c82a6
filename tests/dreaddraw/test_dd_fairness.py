"""Dread Draw's hidden cards cannot be computed from anything a table serves while its game runs.

Three attackers play it out: a spectator, an opponent who joined by the link, and the creator who chose
the seed. Each collects everything they are served during a game (the API's table and list, the page,
the polled board fragment, the answers to their own decisions) and tries every seed-like value found
there, alone and with every nonce-like value, as the engine's seed: reproducing the Draw Deck's next card
or another seat's face-down Life cards must fail. A control shows the same attack succeeds with the real
values; and a finished game's revealed values check against its commitment and replay to its result.
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from dreaddraw.engine import Game, IllegalDecision, fairness, load_cardset, replay, to_notation
from dreaddraw.models import DreadDrawTable, TableStatus
from dreaddraw.services import table_create, table_game

pytestmark = pytest.mark.django_db

CREATOR_SEED = 424242
DECISIONS_TO_PLAY = 24


def user(name):
    return get_user_model().objects.create_user(name, password=f"pw-{name}-123")


def client_for(someone):
    client = Client()
    client.force_login(someone)
    return client


class Collector:
    """Everything one actor is served."""

    def __init__(self, client, table_id, seats=()):
        self.client, self.table_id, self.seats, self.texts = client, table_id, list(seats), []

    def look(self):
        base = f"/api/dreaddraw/tables/{self.table_id}/"
        for url in (base, "/api/dreaddraw/tables/", f"/dread-draw/tables/{self.table_id}/",
                    f"/dread-draw/tables/{self.table_id}/board/", "/dread-draw/"):
            response = self.client.get(url)
            assert response.status_code in (200, 204), (url, response.status_code)
            self.texts.append(response.content.decode())
        for seat in self.seats:
            self.texts.append(self.client.get(base, {"seat": seat}).content.decode())

    def act(self, seat, decision, turn):
        response = self.client.post(f"/api/dreaddraw/tables/{self.table_id}/decisions/",
                                    {"seat": seat, "decision": decision, "turn": turn},
                                    content_type="application/json")
        assert response.status_code == 200, response.content[:300]
        self.texts.append(response.content.decode())


def seed_like(texts, extra=()):
    """Every integer and every long hex or token-like string the actor has seen."""
    everything = "\n".join(texts)
    numbers = {int(n) for n in re.findall(r"-?\d+", everything)} | set(extra)
    tokens = set(re.findall(r"[0-9a-fA-F]{16,}", everything)) | set(re.findall(r"[A-Za-z0-9_-]{32,}", everything))
    numbers |= {int(t, 16) for t in tokens if re.fullmatch(r"[0-9a-fA-F]+", t)}
    return numbers, tokens


def predicts(table, true_game, engine_seed, victim):
    """Does this engine seed reveal the next draw or the victim's Life cards?"""
    initial = Game(table.players, engine_seed, load_cardset())
    truth_initial = Game(table.players, fairness.game_seed(table.seed, table.nonce), load_cardset())
    if initial.life[victim] == truth_initial.life[victim] or initial.draw[-6:] == truth_initial.draw[-6:]:
        return True
    try:
        replayed = replay(table.players, engine_seed, table.decisions, load_cardset())
    except IllegalDecision:
        return False
    return (replayed.draw[-1:] == true_game.draw[-1:] and replayed.life[victim] == true_game.life[victim]
            and replayed.life[victim] != [])


def attack(table, texts, victim, extra_numbers=()):
    numbers, tokens = seed_like(texts, extra_numbers)
    true_game = table_game(table)
    tried = 0
    for number in numbers:
        for nonce in itertools.chain([""], tokens):
            tried += 1
            if predicts(table, true_game, fairness.game_seed(number, nonce), victim):
                return True, tried
    return False, tried


@pytest.fixture
def game_in_progress():
    alice, bob, carol = user("alice"), user("bob"), user("carol")
    alice_client = client_for(alice)
    created = alice_client.post("/api/dreaddraw/tables/", {
        "seed": CREATOR_SEED,
        "seats": [{"kind": "local", "name": "Alice"}, {"kind": "invite"}, {"kind": "bot", "bot": "heuristic"}],
    }, content_type="application/json")
    assert created.status_code == 201
    table_id = created.json()["id"]
    creator = Collector(alice_client, table_id, seats=[0])
    creator.texts.append(created.content.decode())
    opponent = Collector(client_for(bob), table_id, seats=[1])
    joined = opponent.client.post(f"/api/dreaddraw/tables/{table_id}/join/")
    assert joined.status_code == 200
    opponent.texts.append(joined.content.decode())
    spectator = Collector(client_for(carol), table_id)
    players = {0: creator, 1: opponent}
    for _ in range(DECISIONS_TO_PLAY):
        table = DreadDrawTable.objects.get(pk=table_id)
        game = table_game(table)
        if game.over:
            break
        for who in (creator, opponent, spectator):
            who.look()
        mover = game.to_move()
        players[mover].act(mover, to_notation(sorted(game.legal(), key=str)[0]), len(table.decisions))
    table = DreadDrawTable.objects.get(pk=table_id)
    assert table.status == TableStatus.PLAYING, "the game must still be running for the attack"
    for who in (creator, opponent, spectator):
        who.look()
    return table, {"creator": creator, "opponent": opponent, "spectator": spectator}


def test_no_one_can_compute_the_hidden_cards_of_a_running_game_but_the_real_values_would(game_in_progress):
    """Each attacker, with all it was served, fails; the control, the same attack with the real values among what
    was served, reproduces the cards. (One game for all four: playing it out is most of the test's time.)"""
    table, actors = game_in_progress
    for attacker, victim in (("spectator", 0), ("opponent", 0), ("creator", 1)):
        extra = [CREATOR_SEED] if attacker == "creator" else []  # the creator knows the seed it chose
        found, tried = attack(table, actors[attacker].texts, victim, extra)
        assert tried > 50, (attacker, tried)  # the attacker had material to try
        assert not found, f"the {attacker} computed the hidden cards"
        served = "\n".join(actors[attacker].texts)
        assert len(table.nonce) == 64 and table.nonce not in served, attacker
        assert f'"seed":{table.seed}' not in served.replace(" ", ""), attacker
    texts = [*actors["spectator"].texts, table.nonce]
    found, _ = attack(table, texts, victim=0, extra_numbers=[table.seed])
    assert found, "the control: the attack with the real values must reproduce the cards"


def test_a_finished_games_revealed_values_check_against_its_commitment_and_replay_to_its_result():
    alice = user("alice")
    client = client_for(alice)
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=CREATOR_SEED)
    commitment_at_start = client.get(f"/api/dreaddraw/tables/{table.pk}/").json()["commitment"]
    for _ in range(3000):
        table.refresh_from_db()
        game = table_game(table)
        if game.over:
            break
        client.post(f"/api/dreaddraw/tables/{table.pk}/decisions/",
                    {"seat": 0, "decision": to_notation(game.legal()[0])}, content_type="application/json")
    body = client.get(f"/api/dreaddraw/tables/{table.pk}/").json()
    assert body["status"] == "over"
    assert body["commitment"] == commitment_at_start
    assert body["seed"] == CREATOR_SEED and len(body["nonce"]) == 64
    replayed = fairness.verify(body["players"], body["seed"], body["nonce"], body["commitment"], body["decisions"])
    assert replayed.over and replayed.winner == body["winner_seat"]
    with pytest.raises(fairness.CommitmentMismatch):
        fairness.verify(body["players"], body["seed"] + 1, body["nonce"], body["commitment"], body["decisions"])
    page = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert body["nonce"] in page and str(body["seed"]) in page


def test_a_table_created_before_the_nonce_hides_its_seed_while_running(client):
    alice = user("alice")
    client.force_login(alice)
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=987654321)
    # Such a table's decisions were played under the seed alone: the bot's, made under the nonce, go with it.
    DreadDrawTable.objects.filter(pk=table.pk).update(nonce="", commitment=fairness.commitment(987654321, ""),
                                                      decisions=[])
    served = client.get(f"/api/dreaddraw/tables/{table.pk}/").content.decode()
    served += client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    served += client.get(f"/dread-draw/tables/{table.pk}/board/").content.decode()
    assert "987654321" not in served
    body = client.get(f"/api/dreaddraw/tables/{table.pk}/").json()
    assert body["seed"] is None and body["nonce"] is None and body["decisions"] is None
