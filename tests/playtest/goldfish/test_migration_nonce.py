"""Goldfish tables opened before the commitment (playtest 0009) play on as they did (DG-4.6): an empty nonce, so
their game is set up from the seed and the AI draws from seed * 1,000,003 + actions (those before its stretch of
decisions), as when they were opened; they
get the commitment of their seed, and their seed is no longer served while they run."""

import random

import pytest
from django.test import Client

from playtest.dreadgate import fairness
from playtest.dreadgate.actions import END, KEEP
from playtest.dreadgate.view import SeatView
from playtest.goldfish import services as tables
from playtest.models import GoldfishTable
from playtest.policies import POLICIES
from tests.playtest.dreadgate_decks import starter_deck
from tests.support import migrate_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("playtest", "0008_chunk_sent_at")]
SEED = 11


def the_ai_drew_from_the_old_stream(table) -> bool:
    """Each action of the AI's seat is the one its policy gives from Random(seed * 1,000,003 + the actions before
    its stretch of decisions), one source through the stretch."""
    state = tables.table_state(table, steps=0)
    ai = 1 - tables.human_seat(state)
    answered, rng = 0, None
    for n, action in enumerate(table.actions):
        if state.current_player != ai:
            rng = None
        else:
            rng = rng or random.Random(table.seed * 1_000_003 + n)
            if POLICIES[table.params["opponent_policy"]](SeatView(state, ai), rng) != tuple(action):
                return False
            answered += 1
        state.apply(tuple(action))
    return answered > 0


def test_a_table_opened_before_the_nonce_plays_on_with_its_old_randomness(monkeypatch):
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create_user("before-nonces", password="x" * 12)
    monkeypatch.setattr("playtest.goldfish.services.new_nonce", lambda: "")  # what tables of that time had
    opponent = starter_deck(owner, craft="sorcery", name="The AI's deck")
    table = tables.table_create(owner=owner, deck_id=starter_deck(owner).pk, seed=SEED, opponent_deck_id=opponent.pk)
    if (KEEP, 0, 0) in tables.table_state(table).legal_actions():
        tables.table_act(table=table, action=(KEEP, 0, 0))
    tables.table_act(table=table, action=(END, 0, 0))
    played = list(GoldfishTable.objects.get(pk=table.pk).actions)

    migrate_to(BEFORE)
    migrate_to(None)
    table = GoldfishTable.objects.get(pk=table.pk)
    assert table.nonce == "" and table.actions == played
    assert table.commitment == fairness.commitment(SEED, "")
    assert tables.table_state(table).seed == SEED  # set up from the seed alone, as it was

    tables.table_act(table=table, action=(END, 0, 0))  # it plays on: the AI answers as it would have before
    table.refresh_from_db()
    assert len(table.actions) > len(played) and the_ai_drew_from_the_old_stream(table)

    client = Client()
    client.force_login(owner)
    body = client.get(f"/api/goldfish-tables/{table.pk}/").json()
    assert body["seed"] is None and body["nonce"] is None and body["commitment"] == table.commitment


def test_the_check_of_the_old_stream_tells_a_new_table_apart(alice):
    """The control: a table opened with a nonce does not draw from the old stream."""
    opponent = starter_deck(alice, craft="sorcery", name="The AI's deck")
    table = tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=SEED, opponent_deck_id=opponent.pk)
    if (KEEP, 0, 0) in tables.table_state(table).legal_actions():
        tables.table_act(table=table, action=(KEEP, 0, 0))
    tables.table_act(table=table, action=(END, 0, 0))
    table.refresh_from_db()
    assert table.nonce and not the_ai_drew_from_the_old_stream(table)
