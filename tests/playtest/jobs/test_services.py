"""The job machinery, driven through its services (the worker tests drive it through Celery)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import timezone

from cards.selectors import catalog_version
from core.errors import DomainError
from playtest.jobs import services
from playtest.models import Run, RunChunk, RunStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return get_user_model().objects.create_user("runner", password="x" * 12)


def play_all(run):
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    return run


def test_submit_splits_the_games_into_chunks_and_records_versions(user):
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=25, seed=7)
    chunks = list(run.chunks.values_list("index", "first_game", "games"))
    assert chunks == [(0, 0, 10), (1, 10, 10), (2, 20, 5)]
    assert run.status == RunStatus.QUEUED
    assert run.engine_version == "test-1"
    assert run.catalog_version == catalog_version()


def test_a_run_finishes_with_the_merged_result(user):
    run = play_all(services.run_submit(owner=user, kind="test_sum", params={}, games=25, seed=7))
    assert run.status == RunStatus.DONE
    assert run.games_done == 25
    assert run.result["games"] == 25
    assert run.started_at and run.finished_at


def test_a_redelivered_chunk_never_counts_twice(user):
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=25, seed=7)
    services.chunk_execute(run_id=run.pk, index=0)
    services.chunk_execute(run_id=run.pk, index=0)  # redelivered
    run.refresh_from_db()
    assert run.games_done == 10
    play_all(run)
    assert run.games_done == 25 and run.result["games"] == 25


def test_same_seed_same_results_whatever_the_chunking(user):
    results = []
    for size in (3, 10, 25):
        with override_settings(PLAYTEST_MAX_ACTIVE_RUNS=10):
            run = services.run_submit(owner=user, kind="test_sum", params={}, games=25, seed=99)
        Run.objects.filter(pk=run.pk).update(chunk_size=size)
        RunChunk.objects.filter(run=run).delete()
        RunChunk.objects.bulk_create(
            RunChunk(run=run, index=i, first_game=f, games=min(size, 25 - f)) for i, f in enumerate(range(0, 25, size))
        )
        results.append(play_all(run).result)
    assert results[0] == results[1] == results[2]


def test_more_games_than_the_maximum_is_refused_naming_the_maximum(user, settings):
    settings.PLAYTEST_MAX_GAMES = 100
    with pytest.raises(DomainError) as refused:
        services.run_submit(owner=user, kind="test_sum", params={}, games=101)
    assert refused.value.status_code == 400
    assert "100" in refused.value.message
    assert not Run.objects.exists()


def test_too_many_active_runs_is_a_429(user, settings):
    settings.PLAYTEST_MAX_ACTIVE_RUNS = 2
    for _ in range(2):
        services.run_submit(owner=user, kind="test_sum", params={}, games=5)
    with pytest.raises(DomainError) as refused:
        services.run_submit(owner=user, kind="test_sum", params={}, games=5)
    assert refused.value.status_code == 429
    assert Run.objects.count() == 2


def test_a_cancelled_run_plays_no_more_chunks(user):
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=25, seed=1)
    services.chunk_execute(run_id=run.pk, index=0)
    assert services.run_cancel(run=run)
    play_all(run)
    assert run.status == RunStatus.CANCELLED
    assert run.games_done == 10


def test_a_poison_chunk_fails_the_run_after_bounded_attempts(user, settings):
    settings.PLAYTEST_MAX_CHUNK_ATTEMPTS = 3
    run = services.run_submit(owner=user, kind="test_poison", params={}, games=5)
    for _ in range(3):
        with pytest.raises(RuntimeError):
            services.chunk_execute(run_id=run.pk, index=0)
    services.chunk_execute(run_id=run.pk, index=0)  # the fourth delivery gives up
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED
    assert "Chunk 0 failed 3 times: RuntimeError: poison chunk" in run.error


def test_the_reaper_fails_a_run_without_progress(user, settings):
    settings.PLAYTEST_STALE_SECONDS = 60
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=5)
    long_ago = timezone.now() - timezone.timedelta(minutes=5)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING, dispatched_at=long_ago, heartbeat_at=long_ago)
    assert services.runs_reap()["failed"] == 1
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and "No progress" in run.error


def test_the_reaper_leaves_a_progressing_run_alone(user, settings):
    settings.PLAYTEST_STALE_SECONDS = 60
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=5)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING, dispatched_at=timezone.now(),
                                         heartbeat_at=timezone.now())
    assert services.runs_reap()["failed"] == 0


def test_pruning_drops_chunk_details_and_keeps_the_aggregate(user, settings):
    settings.PLAYTEST_DETAILS_RETENTION_DAYS = 1
    run = play_all(services.run_submit(owner=user, kind="test_sum", params={}, games=25))
    Run.objects.filter(pk=run.pk).update(finished_at=timezone.now() - timezone.timedelta(days=2))
    assert services.runs_prune_details() == 1
    run.refresh_from_db()
    assert run.result["games"] == 25
    assert run.result["samples"] == [] and run.details_pruned_at is not None
    assert not run.chunks.exclude(result=None).exists()


def test_requeue_of_a_failed_run_keeps_its_done_chunks(user, django_capture_on_commit_callbacks):
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=25)
    services.chunk_execute(run_id=run.pk, index=0)
    services.run_fail(run_id=run.pk, reason="test")
    run.refresh_from_db()
    services.run_requeue(run=run)
    play_all(run)
    assert run.status == RunStatus.DONE and run.games_done == 25


def queued(queue: str) -> int:
    from config.celery import app

    with app.connection_for_write() as connection:
        return connection.default_channel._size(queue)


def test_the_reaper_sends_again_the_chunk_of_a_worker_process_that_died_and_only_that_one(user, settings):
    import subprocess
    import sys

    from config.celery import app
    from playtest.jobs import leases
    from playtest.jobs.broker import ensure_broker_folders

    ensure_broker_folders()
    settings.PLAYTEST_QUEUE = "resend-orphans-test"
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=30, seed=7)
    Run.objects.filter(pk=run.pk).update(status=RunStatus.RUNNING, dispatched_at=timezone.now())
    dead = subprocess.run([sys.executable, "-c", "from playtest.jobs import leases; print(leases.current())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert leases.lapsed(dead) and not leases.lapsed(leases.current())
    RunChunk.objects.filter(run=run, index=0).update(taken_by=dead, attempts=1)
    RunChunk.objects.filter(run=run, index=1).update(taken_by=leases.current(), attempts=1)
    before = queued(settings.PLAYTEST_QUEUE)
    assert services.chunks_resend_orphaned() == 1
    assert queued(settings.PLAYTEST_QUEUE) == before + 1
    assert RunChunk.objects.get(run=run, index=0).taken_by == ""
    assert services.chunks_resend_orphaned() == 0  # sent once, whoever reaps next
    with app.connection_for_write() as connection:
        connection.default_channel._purge(settings.PLAYTEST_QUEUE)


def test_a_chunk_whose_run_is_cancelled_while_it_plays_stops_and_records_nothing(user, settings):
    settings.PLAYTEST_STOP_CHECK_SECONDS = 0
    run = services.run_submit(owner=user, kind="test_cancelled_midway", params={}, games=10)
    services.chunk_execute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED and run.games_done == 0
    chunk = run.chunks.get()
    assert chunk.status == "pending" and chunk.result is None


def test_a_chunk_whose_run_is_cancelled_after_its_last_game_records_nothing(user, settings):
    """The cancel lands between the chunk's last check for one and the record of its result: a run's cancel shows
    the games it kept, and those never grow after it (they did, by the chunk's games)."""
    run = services.run_submit(owner=user, kind="test_cancelled_at_its_end", params={}, games=10)
    services.chunk_execute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED and run.games_done == 0 and run.games_playing == 0
    assert run.chunks.get().status == "pending"


def test_a_stopped_run_keeps_what_its_finished_chunks_played(user):
    """A run cancelled (or failed) part-way: its finished chunks merged as its result would have merged them; the
    chunk it never played is not in it. A finished run has its result; a run with nothing finished has nothing."""
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=30, seed=7)
    assert services.run_partial_result(run=run) is None  # under way: its result comes at its end
    services.chunk_execute(run_id=run.pk, index=0)
    services.chunk_execute(run_id=run.pk, index=2)
    run.refresh_from_db()
    assert services.run_cancel(run=run)
    partial = services.run_partial_result(run=run)
    whole = play_all(services.run_submit(owner=user, kind="test_sum", params={}, games=30, seed=7)).result
    assert partial["games"] == 20
    assert partial["values"] == whole["values"][:10] + whole["values"][20:]
    nothing = services.run_submit(owner=user, kind="test_sum", params={}, games=30, seed=7)
    services.run_cancel(run=nothing)
    assert services.run_partial_result(run=nothing) is None
    Run.objects.filter(pk=run.pk).update(status=RunStatus.FAILED)
    run.refresh_from_db()
    assert services.run_partial_result(run=run)["games"] == 20


def test_a_stopped_runs_sample_game_is_read_from_the_chunk_that_played_it(user):
    """A replay asks at each step: one chunk read, not the merge of them all; a game its chunk never finished (or
    never kept) is no sample."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def stopped_after(*indexes):
        run = services.run_submit(owner=user, kind="test_sum", params={}, games=30, seed=7)  # games 0 and 1 kept
        for index in indexes:
            services.chunk_execute(run_id=run.pk, index=index)
        services.run_cancel(run=run)
        return run

    assert services.run_sample(run=stopped_after(2), game=0) is None  # its chunk did not play
    run = stopped_after(0, 2)
    with CaptureQueriesContext(connection) as read:
        assert services.run_sample(run=run, game=1) == {"game": 1}
    assert len(read.captured_queries) == 1 and "LIMIT 1" in read.captured_queries[0]["sql"]  # one chunk's result
    assert services.run_sample(run=run, game=25) is None


def test_a_staged_run_stopped_part_way_reports_nothing_partial(user):
    """Each stage of a staged kind plans on the whole of the ones before: a part of one is no report of the run."""
    run = services.run_submit(owner=user, kind="test_race", params={}, games=40, seed=3)
    services.chunk_execute(run_id=run.pk, index=0)
    run.refresh_from_db()
    services.run_cancel(run=run)
    assert run.chunks.filter(status="done").exists()
    assert services.run_partial_result(run=run) is None


def test_a_chunk_whose_worker_is_asked_to_stop_hands_back_its_attempt_and_is_sent_again(user, settings,
                                                                                       monkeypatch):
    """Stopping `make run` (TERM) three times while one chunk played failed its run as a chunk that kills its
    worker: "Chunk 0 failed 3 times (its worker died)". Asked to stop, the chunk ends at its next game, its attempt
    given back, and is on the queue again for the next worker, which plays it whole."""
    from playtest.jobs import shutdown
    from playtest.jobs.broker import ensure_broker_folders

    ensure_broker_folders()
    settings.PLAYTEST_STOP_CHECK_SECONDS = 0
    settings.PLAYTEST_QUEUE = "handed-back-test"
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=10, seed=7)
    before = queued(settings.PLAYTEST_QUEUE)
    for _ in range(settings.PLAYTEST_MAX_CHUNK_ATTEMPTS + 2):  # more stops than a chunk has attempts
        monkeypatch.setattr(shutdown, "_asked", True)
        services.chunk_execute(run_id=run.pk, index=0)
        chunk = RunChunk.objects.get(run=run, index=0)
        assert chunk.status == "pending" and chunk.attempts == 0
    assert queued(settings.PLAYTEST_QUEUE) == before + settings.PLAYTEST_MAX_CHUNK_ATTEMPTS + 2  # sent again each time
    monkeypatch.setattr(shutdown, "_asked", False)
    run = play_all(run)
    assert run.status == RunStatus.DONE and run.games_done == 10
    from config.celery import app

    with app.connection_for_write() as connection:
        connection.default_channel._purge(settings.PLAYTEST_QUEUE)
