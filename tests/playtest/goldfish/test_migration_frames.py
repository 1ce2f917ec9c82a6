"""Stored games get their frames (playtest 0011, docs/rules.md RV-2): goldfish tables and the sample games of runs
stored before frames existed are framed by the rules they were played under, 1.0.0 games by the 1.0.0 rules (whose
opening turn had 3 action points, DG-5.2 of that version), current ones by the current engine, exactly as it
frames a game now; a table gets its person's seat too."""

import random

import pytest

from core.frames import from_text, unpack
from playtest.dreadgate import fairness, game_frames
from playtest.goldfish import services as tables
from playtest.jobs import services
from playtest.models import GoldfishTable, Run
from playtest.simulation.games import deck_cards
from tests.playtest.dreadgate_decks import starter_deck
from tests.support import migrate_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("playtest", "0009_goldfish_table_commitment")]


def _first_rules():
    import playtest.older_rules.dreadgate_1_0_0 as first

    return first


def _played(engine, decks, seed, fmt, steps):
    state = engine.new_game(decks, seed, fmt)
    pick = random.Random(seed)
    while not state.is_over() and len(state.history) < steps:
        state.apply(pick.choice(state.legal_actions()))
    return state


def test_tables_and_sample_games_stored_before_frames_get_those_of_their_own_rules(alice):
    first = _first_rules()
    deck = starter_deck(alice)
    current = tables.table_create(owner=alice, deck_id=deck.pk, seed=5)
    older = tables.table_create(owner=alice, deck_id=deck.pk, seed=6)
    decks = [deck_cards(d) for d in older.params["decks"]]
    old_game = _played(first, decks, fairness.game_seed(older.seed, older.nonce), older.params["format"], 40)
    actions = [list(a) for a in old_game.history]
    GoldfishTable.objects.filter(pk=older.pk).update(engine_version="1.0.0", actions=actions)
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk}, games=2, seed=3)
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    samples = run.result["samples"]
    run_decks = [deck_cards(d) for d in run.params["decks"]]
    old_sample = _played(first, run_decks, 77, run.params["format"], 60)
    samples[1]["record"] = first.to_record(old_sample)
    for sample in samples:
        del sample["frames"]
    Run.objects.filter(pk=run.pk).update(result=run.result)

    migrate_to(BEFORE)
    migrate_to(None)

    current = GoldfishTable.objects.get(pk=current.pk)
    assert unpack(current.frames) == game_frames(tables.table_state(current))
    assert current.seat == tables.human_seat(tables.table_state(current))
    older = GoldfishTable.objects.get(pk=older.pk)
    framed = unpack(older.frames)
    assert len(framed) == 41 and set(framed[0]) == {"0", "1", "all"}
    assert older.seat == old_game.deck_of_seat.index(0)
    assert framed[-1]["all"]["seen"]["units"] == old_game.observation(-1)["units"]
    turn_starts = [f["all"]["seen"] for f in framed if f["all"]["seen"]["phase"] == "main"]
    assert turn_starts and turn_starts[0]["action_points"] == 3  # the 1.0.0 rules' opening turn
    assert framed[1]["all"]["said"] == first.describe_action(first.new_game(
        decks, fairness.game_seed(older.seed, older.nonce), older.params["format"]), old_game.history[0], -1)
    stored = Run.objects.get(pk=run.pk).result["samples"]
    old_frames = unpack(from_text(stored[1]["frames"]))
    assert len(old_frames) == 61 and set(old_frames[0]) == {"all"}
    new_frames = unpack(from_text(stored[0]["frames"]))
    assert len(new_frames) == len(stored[0]["record"]["actions"]) + 1
