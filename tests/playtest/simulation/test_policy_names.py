"""Runs stored before the whole-deck policies keep naming the policies they were played with."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from playtest.models import Run, RunStatus
from playtest.policies import CLASSIC_NAMES, POLICIES
from tests.support import migrate_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]


def _run(models, owner, kind: str, policies):
    # With the model of the schema migrated to: runs had no stages then.
    return models.get_model("playtest", "Run").objects.create(
        owner_id=owner.pk, kind=kind, params={"mode": "goldfish", "policies": policies}, games=2, chunk_size=2, seed=1,
        status=RunStatus.RUNNING, engine_version="1.0.0", catalog_version="test")


def test_stored_runs_are_renamed_to_the_classic_policies_they_played():
    owner = get_user_model().objects.create_user("keeper", password="pw-keeper-123")
    old = migrate_to([("playtest", "0004_dreaddraw_tables_moved")])
    goldfish = _run(old, owner, "dreadgate_playtest", ["goldfish", "passive"])
    matchup = _run(old, owner, "dreadgate_playtest", ["matchup", "matchup"])
    other = _run(old, owner, "dreaddraw_tournament", ["goldfish"])  # another kind's parameters are left alone
    migrate_to(None)
    assert Run.objects.get(pk=goldfish.pk).params["policies"] == ["classic-goldfish", "passive"]
    assert Run.objects.get(pk=matchup.pk).params["policies"] == ["classic-matchup", "classic-matchup"]
    assert Run.objects.get(pk=other.pk).params["policies"] == ["goldfish"]
    assert all(name in POLICIES for name in CLASSIC_NAMES.values())
