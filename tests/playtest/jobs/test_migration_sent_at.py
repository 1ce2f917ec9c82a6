"""Chunks of runs dispatched before windows (playtest 0008) count as sent when their run was: all were sent then."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from playtest.models import RunChunk
from tests.support import migrate_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]


def test_chunks_of_a_run_dispatched_before_windows_were_sent_with_it():
    owner = get_user_model().objects.create_user("before-windows", password="x" * 12)
    old = migrate_to([("playtest", "0007_chunk_taken_by")])
    run_model, chunk_model = old.get_model("playtest", "Run"), old.get_model("playtest", "RunChunk")
    dispatched_at = timezone.now() - timezone.timedelta(minutes=3)
    fields = {"owner_id": owner.pk, "kind": "test_sum", "games": 20, "chunk_size": 10, "seed": 1,
              "engine_version": "test-1", "catalog_version": "x"}
    dispatched = run_model.objects.create(dispatched_at=dispatched_at, **fields)
    in_the_outbox = run_model.objects.create(**fields)
    for run in (dispatched, in_the_outbox):
        chunk_model.objects.bulk_create(chunk_model(run=run, index=i, first_game=10 * i, games=10) for i in (0, 1))
    migrate_to(None)
    assert set(RunChunk.objects.filter(run_id=dispatched.pk).values_list("sent_at", flat=True)) == {dispatched_at}
    assert set(RunChunk.objects.filter(run_id=in_the_outbox.pk).values_list("sent_at", flat=True)) == {None}
