"""A goldfish table's hidden cards cannot be computed from anything it serves its owner while its game runs (DG-4.6).

The owner plays against the AI from a seed of their choosing and collects everything they are served: the API's
table, the answers to their actions, the table page (whole, as a fragment, at a past step) and the replay (at its
end and at earlier steps). Then they try every seed-like value found there, alone and with every nonce-like value,
as the game's seed and as the AI's: reproducing the AI's hand, the order of either deck or the AI's next random
choice must fail. A control shows the same attack succeeds with the real values (the seed and nonce stored in the
database); and a finished game serves its seed and nonce, which check against its commitment and replay to its end.
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.test import Client

from playtest.dreadgate import IllegalAction, fairness, parse_action
from playtest.dreadgate.actions import END, KEEP
from playtest.dreadgate.record import new_game
from playtest.goldfish import services as tables
from playtest.models import GoldfishTable
from playtest.simulation.games import deck_cards
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db

OWNER_SEED = 424242
TURNS_TO_PLAY = 4


@pytest.fixture(autouse=True)
def fixed_nonce():
    """Real nonces here (this overrides the package's fixed one): the attack faces what the server draws."""


class Owner:
    """Everything the table's owner is served."""

    def __init__(self, client: Client, table_id: str):
        self.client, self.table_id, self.texts = client, table_id, []

    def get(self, url: str, **headers) -> str:
        response = self.client.get(url, **headers)
        assert response.status_code == 200, (url, response.status_code)
        self.texts.append(response.content.decode())
        return self.texts[-1]

    def look(self):
        table = f"/playtest/tables/{self.table_id}/"
        steps = len(GoldfishTable.objects.get(pk=self.table_id).actions)
        self.get(f"/api/goldfish-tables/{self.table_id}/")
        self.get(table)
        self.get(table, HTTP_HX_REQUEST="true")
        self.get(f"{table}?at={steps // 2}")
        self.get(f"{table}replay/")
        self.get(f"{table}replay/?step=0")
        self.get(f"{table}replay/?step={steps // 2}", HTTP_HX_REQUEST="true")
        self.get("/playtest/")

    def act(self, action, by_api: bool):
        if by_api:
            response = self.client.post(f"/api/goldfish-tables/{self.table_id}/act/", {"action": list(action)},
                                        content_type="application/json")
        else:
            response = self.client.post(f"/playtest/tables/{self.table_id}/act/",
                                        {"action": ",".join(map(str, action))})
        assert response.status_code == 200, response.content[:300]
        self.texts.append(response.content.decode())


def seed_like(texts, extra=()):
    """Every integer and every long hex or token-like string the owner has seen."""
    everything = "\n".join(texts)
    numbers = {int(n) for n in re.findall(r"-?\d+", everything)} | set(extra)
    tokens = set(re.findall(r"[0-9a-fA-F]{16,}", everything)) | set(re.findall(r"[A-Za-z0-9_-]{32,}", everything))
    numbers |= {int(t, 16) for t in tokens if re.fullmatch(r"[0-9a-fA-F]+", t)}
    return numbers, tokens


def hidden(state):
    """What the owner may not see, by deck (0 the owner's, 1 the AI's): the AI's hand and both decks' orders."""
    seat_of = {deck: seat for seat, deck in enumerate(state.deck_of_seat)}
    codes = lambda iids: [state.inst[i].code for i in iids]  # noqa: E731
    return {"ai_hand": codes(state.hand[seat_of[1]]), "ai_deck": codes(state.deck[seat_of[1]]),
            "my_deck": codes(state.deck[seat_of[0]])}


def reproduces(truth_start, truth_now, decks, fmt, actions, engine_seed) -> bool:
    """Does this engine seed give the AI's opening hand or a deck's order, and replayed, the AI's hand now?"""
    start = hidden(new_game(decks, engine_seed, fmt))
    if not (start["ai_hand"] + start["ai_deck"] == truth_start["ai_hand"] + truth_start["ai_deck"]
            or start["my_deck"] == truth_start["my_deck"]):
        return False
    state = new_game(decks, engine_seed, fmt)
    try:
        for action in actions:
            state.apply(tuple(action))
    except IllegalAction:
        return False
    now = hidden(state)
    return now["ai_hand"] == truth_now["ai_hand"] and now["my_deck"] == truth_now["my_deck"]


def attack(table, texts, extra_numbers=()):
    """(what was found, how many guesses were tried)."""
    numbers, tokens = seed_like(texts, extra_numbers)
    decks, fmt = [deck_cards(d) for d in table.params["decks"]], table.params["format"]
    truth_start, truth_now = hidden(tables.table_state(table, steps=0)), hidden(tables.table_state(table))
    ai_next = fairness.opponent_seed(table.seed, table.nonce, len(table.actions))
    tried = 0
    found = set()
    for number in numbers:
        for nonce in itertools.chain([""], tokens):
            tried += 1
            if fairness.opponent_seed(number, nonce, len(table.actions)) == ai_next:
                found.add("the AI's random stream")
            for engine_seed in {number, fairness.game_seed(number, nonce)}:
                if reproduces(truth_start, truth_now, decks, fmt, table.actions, engine_seed):
                    found.add("the hidden cards")
    return found, tried


@pytest.fixture
def game_in_progress(alice):
    client = Client()
    client.force_login(alice)
    mine, theirs = starter_deck(alice), starter_deck(alice, craft="sorcery", name="The AI's deck")
    created = client.post("/playtest/new/", {"what": "table", "deck": mine.pk, "seed": OWNER_SEED,
                                             "table_opponent": theirs.pk})
    assert created.status_code == 302, created.content[:300]
    table_id = created["Location"].rstrip("/").rsplit("/", 1)[-1]
    owner = Owner(client, table_id)
    for turn in range(TURNS_TO_PLAY):
        owner.look()
        state = tables.table_state(GoldfishTable.objects.get(pk=table_id))
        if (KEEP, 0, 0) in state.legal_actions():
            owner.act((KEEP, 0, 0), by_api=turn % 2 == 0)
        owner.act((END, 0, 0), by_api=turn % 2 == 1)  # the AI plays its turn after this
    table = GoldfishTable.objects.get(pk=table_id)
    assert not tables.table_state(table).is_over(), "the game must still be running for the attack"
    owner.look()
    return table, owner


def test_the_owner_cannot_compute_the_ai_hand_or_the_draws_of_a_running_game(game_in_progress):
    table, owner = game_in_progress
    # the owner knows the seed it chose
    found, tried = attack(table, owner.texts, extra_numbers=[OWNER_SEED])
    assert tried > 50, tried  # the owner had material to try
    assert not found, f"the owner computed {', '.join(sorted(found))}"
    served = "\n".join(owner.texts)
    assert len(table.nonce) == 64 and table.nonce not in served
    assert f'"seed":{table.seed}' not in served.replace(" ", "")
    body = owner.client.get(f"/api/goldfish-tables/{table.pk}/").json()
    assert body["seed"] is None and body["nonce"] is None and body["over"] is False
    assert body["commitment"] == fairness.commitment(table.seed, table.nonce)


def test_the_attack_works_when_the_seed_and_nonce_are_known(game_in_progress):
    """The control: the same attack with the real values among what was served reproduces the cards."""
    table, owner = game_in_progress
    found, _ = attack(table, [*owner.texts, table.nonce], extra_numbers=[table.seed])
    assert found == {"the hidden cards", "the AI's random stream"}


def test_the_replay_of_a_running_game_shows_only_the_owners_view(game_in_progress):
    table, owner = game_in_progress
    state = tables.table_state(table)
    ai = 1 - tables.human_seat(state)
    html = owner.client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    assert "The game is still running, so the replay shows what you saw" in html
    zones = html[html.index('class="zones"'):]
    assert f"<strong>Hand ({len(state.hand[ai])}):</strong>" not in zones
    assert f"Hand {len(state.hand[ai])}</span>" in zones  # its size only (DG-2.6)


def test_a_finished_games_seed_and_nonce_are_served_and_check_against_its_commitment(alice):
    client = Client()
    client.force_login(alice)
    deck = starter_deck(alice, format="quick")
    body = client.post("/api/goldfish-tables/", {"deck": deck.pk, "seed": OWNER_SEED},
                       content_type="application/json").json()
    commitment_at_start = body["commitment"]
    assert body["seed"] is None and body["nonce"] is None
    url = f"/api/goldfish-tables/{body['id']}/"
    for _ in range(200):  # the goldfish AI plays the owner's turns until the game ends
        if body["over"]:
            break
        if any(a["notation"] == "keep" for a in body["legal_actions"]):
            body = client.post(f"{url}act/", {"action": "keep"}, content_type="application/json").json()
        body = client.post(f"{url}ai-turn/").json()
    assert body["over"], "the game did not end"
    body = client.get(url).json()
    table = GoldfishTable.objects.get(pk=body["id"])
    assert body["commitment"] == commitment_at_start
    assert body["seed"] == OWNER_SEED and body["nonce"] == table.nonce and len(body["nonce"]) == 64
    decks = [deck_cards(d) for d in table.params["decks"]]
    fresh = new_game(decks, fairness.game_seed(body["seed"], body["nonce"]), body["format"])
    actions = []
    for text in body["log"]:  # the served log, read back into actions
        actions.append(parse_action(fresh, text))
        fresh.apply(actions[-1])
    replayed = fairness.verify(decks, body["format"], body["seed"], body["nonce"], body["commitment"], actions)
    assert replayed.is_over() and replayed.winner == body["observation"]["winner"]
    assert [list(a) for a in actions] == table.actions
    with pytest.raises(fairness.CommitmentMismatch):
        fairness.verify(decks, body["format"], body["seed"] + 1, body["nonce"], body["commitment"], actions)
    page = client.get(f"/playtest/tables/{table.pk}/").content.decode()
    assert body["nonce"] in page and str(body["seed"]) in page and body["commitment"] in page
    assert "Undo</button>" not in page
    undo = client.post(f"{url}undo/")
    assert undo.status_code == 422 and undo.json()["error"]["details"]["rule"] == "DG-4.6"
    replay = client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    assert "The game is still running" not in replay


def test_the_schema_says_the_seed_and_nonce_come_when_the_game_is_over(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    table = schema["components"]["schemas"]["GoldfishTable"]["properties"]
    assert table["seed"]["nullable"] and "Revealed when the game is over" in table["seed"]["description"]
    assert table["nonce"]["nullable"] and "revealed when the game is over" in table["nonce"]["description"]
    assert "dreadgate-commit:<seed>:<nonce>" in table["commitment"]["description"]
    detail = schema["paths"]["/api/goldfish-tables/{id}/"]["get"]["responses"]["200"]["content"]["application/json"]
    assert detail["schema"]["$ref"].endswith("/GoldfishTable")


def test_a_table_opened_before_the_nonce_hides_its_seed_while_running(client, alice):
    """Such a table (an empty nonce) keeps its randomness (test_migration_nonce.py), but not the showing of its seed."""
    client.force_login(alice)
    opponent = starter_deck(alice, craft="sorcery", name="The AI's deck")
    table = tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=987654321,
                                opponent_deck_id=opponent.pk)
    # The AI's actions, if it moved first, were taken under the nonce: they go with it.
    GoldfishTable.objects.filter(pk=table.pk).update(nonce="", commitment=fairness.commitment(987654321, ""),
                                                     actions=[], human_moves=[])
    served = client.get(f"/api/goldfish-tables/{table.pk}/").content.decode()
    served += client.get(f"/playtest/tables/{table.pk}/").content.decode()
    served += client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    assert "987654321" not in served
    body = client.get(f"/api/goldfish-tables/{table.pk}/").json()
    assert body["seed"] is None and body["nonce"] is None
    assert body["commitment"] == fairness.commitment(987654321, "")
