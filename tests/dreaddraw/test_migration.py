"""Dread Draw's move into its own app: a database filled on the schema before the move keeps everything.

The tables, seats, cards, a tournament run and a user's permissions are created while the database is migrated
back to the schema before the move (cards 0005, playtest 0003); migrating forward must leave every row as it
was, the content types relabelled (so the permission still holds), and both tables playable.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from dreaddraw.engine import fairness, to_notation
from dreaddraw.engine.tournament import merge, play_chunk
from dreaddraw.models import DreadDrawCard, DreadDrawTable, TableStatus
from dreaddraw.services import table_act, table_create, table_game, table_shown
from playtest.models import Run, RunStatus
from tests.support import migrate_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE_THE_MOVE = [("dreaddraw", None)]  # unapplies the move (cards 0006 and playtest 0004 depend on it)
MOVED = ("dreaddrawcard", "dreaddrawtable", "dreaddrawseat")


def _play_to_the_end(table) -> DreadDrawTable:
    while table.status != TableStatus.OVER:
        game = table_game(table)
        decision = sorted(game.legal(), key=str)[0]
        table, _ = table_act(table_id=table.pk, user=table.owner, seat=game.to_move(),
                             decision=to_notation(decision))
    return table


def _rows(model) -> list[dict]:
    return list(model.objects.order_by("pk").values())


def test_a_database_filled_before_the_move_keeps_every_row_and_plays_on(monkeypatch):
    # Tables of that time had no nonce (dreaddraw/engine/fairness.py): their games replay from the seed alone.
    monkeypatch.setattr("dreaddraw.services.new_nonce", lambda: "")
    user_model = get_user_model()
    owner = user_model.objects.create_user("mover", password="pw-mover-123")
    running = table_create(owner=owner, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=11)
    finished = _play_to_the_end(table_create(owner=owner, seats=[{"kind": "local"}, {"kind": "local"}], seed=5))
    assert finished.winner_seat is not None and finished.status == TableStatus.OVER

    old_models = migrate_to(BEFORE_THE_MOVE)
    old_labels = dict(ContentType.objects.filter(model__in=MOVED).values_list("model", "app_label"))
    assert old_labels == {"dreaddrawcard": "cards", "dreaddrawtable": "playtest", "dreaddrawseat": "playtest"}
    # On the old schema: a permission on the old content type, and a finished tournament with its results.
    # (Made here if an earlier migration test's round trip left the content type without its permissions: Django
    # creates them after the `migrate` command only.)
    permission, _ = Permission.objects.get_or_create(
        content_type=ContentType.objects.get(app_label="playtest", model="dreaddrawtable"),
        codename="change_dreaddrawtable", defaults={"name": "Can change dread draw table"})
    owner.user_permissions.add(permission)
    params = {"lineup": ["random", "heuristic"]}
    result = merge([play_chunk(params, 3, 0, 6)], params)
    # Created with the model of that schema: runs had no stages then.
    old_run = old_models.get_model("playtest", "Run")
    tournament = old_run.objects.create(owner_id=owner.pk, kind="dreaddraw_tournament", params=params, games=6, seed=3,
                                        chunk_size=6, games_done=6, engine_version="dreaddraw-1",
                                        catalog_version="test", status=RunStatus.DONE, result=result)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM cards_dreaddrawcard")
        cards_before = cursor.fetchone()[0]
    assert cards_before > 0

    migrate_to(None)
    assert dict(ContentType.objects.filter(model__in=MOVED).values_list("model", "app_label")) == {
        model: "dreaddraw" for model in MOVED}
    assert user_model.objects.get(pk=owner.pk).has_perm("dreaddraw.change_dreaddrawtable")
    assert DreadDrawCard.objects.count() == cards_before
    assert Run.objects.get(pk=tournament.pk).result == result
    moved = {t.pk: t for t in DreadDrawTable.objects.all()}
    assert moved[finished.pk].winner_seat == finished.winner_seat and moved[finished.pk].decisions == finished.decisions
    assert moved[running.pk].decisions == running.decisions and moved[running.pk].seats.count() == 2
    # The tables of that time get the commitment of their seed (with no nonce), so they can be verified too.
    assert moved[running.pk].commitment == fairness.commitment(running.seed, "")

    game = table_shown(moved[running.pk])  # the running table plays on (upgraded to the live words, RV-5)
    decision = to_notation(sorted(game.legal(), key=str)[0])
    table, _ = table_act(table_id=running.pk, user=owner, seat=game.to_move(), decision=decision)
    assert len(table.decisions) > len(running.decisions)


BEFORE_FRAMES = [("dreaddraw", "0002_table_commitment")]


def test_tables_stored_before_rules_versions_get_theirs_and_their_frames():
    """docs/rules.md RV-1, RV-2: every table stored before is of dreaddraw-1, and gets what each step showed."""
    from core.frames import unpack
    from dreaddraw.engine import ENGINE_VERSION, load_cardset, replay_frames

    owner = get_user_model().objects.create_user("framed", password="pw-framed-123")
    running = table_create(owner=owner, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"}], seed=11)
    finished = _play_to_the_end(table_create(owner=owner, seats=[{"kind": "local"}, {"kind": "local"}], seed=5))
    old_models = migrate_to(BEFORE_FRAMES)
    assert "engine_version" not in {f.name for f in old_models.get_model("dreaddraw", "DreadDrawTable")._meta.fields}
    migrate_to(None)
    for stored in (running, finished):
        table = DreadDrawTable.objects.get(pk=stored.pk)
        names = [s.name for s in table.seats.all()]
        expected, _ = replay_frames(table.players, fairness.game_seed(table.seed, table.nonce), table.decisions,
                                    load_cardset(version=table.set_version), names)
        # Framed by the live rules, which are dreaddraw-1's with other words (dreaddraw-2): the version is kept.
        assert table.engine_version == "dreaddraw-1" != ENGINE_VERSION and unpack(table.frames) == expected
    game = table_shown(DreadDrawTable.objects.get(pk=running.pk))  # upgraded as its page would (RV-5)
    table, _ = table_act(table_id=running.pk, user=owner, seat=game.to_move(),
                         decision=to_notation(sorted(game.legal(), key=str)[0]))
    assert len(unpack(table.frames)) == len(table.decisions) + 1
