"""Stored games get their frames (playtest 0011, docs/rules.md RV-2): goldfish tables and the sample games of runs
stored before frames existed are framed by the rules they were played under. Current ones by the current engine,
exactly as it frames a game now, with the table's person's seat. The 1.0.0 games were framed by the 1.0.0 rules
while the app still had them; now that it has not, a database that still holds such a game without frames migrates
all the same, leaving it as it was (RV-6), and a new database migrates from nothing without importing them."""

import pytest

from core.frames import from_text, unpack
from playtest.dreadgate import game_frames
from playtest.goldfish import services as tables
from playtest.jobs import services
from playtest.models import GoldfishTable, Run
from tests.playtest.dreadgate_decks import starter_deck
from tests.support import migrate_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("playtest", "0009_goldfish_table_commitment")]


def test_tables_and_sample_games_stored_before_frames_get_those_of_their_rules(alice, settings):
    # The test plays the run's chunks itself: on a queue of its own, which a worker left running by an earlier test
    # of the session (and this test's rows are committed) would otherwise take them from, leaving no result yet.
    settings.PLAYTEST_QUEUE = "migration-frames-test"
    deck = starter_deck(alice)
    current = tables.table_create(owner=alice, deck_id=deck.pk, seed=5)
    older = tables.table_create(owner=alice, deck_id=deck.pk, seed=6)
    GoldfishTable.objects.filter(pk=older.pk).update(engine_version="1.0.0", actions=[[18, 0, 0]])
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk}, games=2, seed=3)
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    samples = run.result["samples"]
    samples[1]["record"]["engine"] = "1.0.0"
    for sample in samples:
        del sample["frames"]
    Run.objects.filter(pk=run.pk).update(result=run.result)

    migrate_to(BEFORE)
    migrate_to(None)

    current = GoldfishTable.objects.get(pk=current.pk)
    assert unpack(current.frames) == game_frames(tables.table_state(current))
    assert current.seat == tables.human_seat(tables.table_state(current))
    older = GoldfishTable.objects.get(pk=older.pk)
    assert bytes(older.frames) == b"" and older.seat is None and older.engine_version == "1.0.0"
    stored = Run.objects.get(pk=run.pk).result["samples"]
    assert len(unpack(from_text(stored[0]["frames"]))) == len(stored[0]["record"]["actions"]) + 1
    assert "frames" not in stored[1]


def test_the_migration_imports_no_engine_where_no_game_lacks_its_frames(monkeypatch):
    """A new database (as the test database itself, migrated from nothing) or one already framed."""
    import builtins

    migrate_to(BEFORE)
    real = builtins.__import__

    def refuse(name, globals=None, locals=None, fromlist=(), level=0):
        engines = ("playtest.dreadgate", "playtest.older_rules", "core.frames")
        wanted = [name, *(f"{name}.{part}" for part in fromlist or ())]
        assert not any(w.startswith(engines) for w in wanted), name
        return real(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", refuse)
    migrate_to(None)
