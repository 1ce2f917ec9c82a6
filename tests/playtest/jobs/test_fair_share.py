"""Runs share a real worker process fairly and cancel at once (Redis in CI, the filesystem broker locally)."""

import random
import time

import pytest
from celery import current_app
from django.contrib.auth import get_user_model

from playtest.jobs import services
from playtest.models import Run, RunStatus
from tests.support import live_db, wait_for

pytestmark = [live_db, pytest.mark.worker]

QUEUE = "fair-share-test"


def queued() -> int:
    with current_app.connection_for_write() as connection:
        return connection.default_channel._size(QUEUE)


def worker_on_own_queue(start_worker, settings, name: str, concurrency: int) -> None:
    """A worker of its own on QUEUE, emptied first, where this test's runs are sent."""
    from playtest.jobs.broker import ensure_broker_folders

    settings.PLAYTEST_QUEUE = QUEUE
    ensure_broker_folders()
    with current_app.connection_for_write() as connection:
        connection.default_channel._purge(QUEUE)
    start_worker(name, args=(f"--concurrency={concurrency}", "-Q", QUEUE))


def finished(run):
    run.refresh_from_db()
    return run.is_finished and run


def test_a_small_run_finishes_while_a_large_one_has_barely_begun_and_a_cancelled_run_leaves_nothing_queued(
        start_worker, settings):
    worker_on_own_queue(start_worker, settings, "fair-share", concurrency=2)
    alice = get_user_model().objects.create_user("alice-fair", password="x" * 12)
    bob = get_user_model().objects.create_user("bob-fair", password="x" * 12)

    large = services.run_submit(owner=alice, kind="test_bulk", params={}, games=100_000, seed=1)  # 1,000 chunks
    small = services.run_submit(owner=bob, kind="test_bulk", params={}, games=1_000, seed=2)
    small = wait_for(lambda: finished(small), timeout=120, message="the small run to finish")
    assert small.status == RunStatus.DONE, small.error
    assert small.result["values"] == [random.Random(f"2:{g}").randrange(1000) for g in range(1000)]
    large.refresh_from_db()
    assert large.games_done < 20_000, f"the large run played {large.games_done} games before the small one was done"
    assert queued() <= settings.PLAYTEST_DISPATCH_WINDOW  # the large run's window, no more

    assert services.run_cancel(run=large)
    assert queued() == 0, "the cancelled run's chunks were left on the queue"
    in_flight = large.chunks.filter(sent_at__isnull=False).count()
    time.sleep(2)  # the worker finishes the chunks it had taken, and sends none after them
    assert large.chunks.filter(sent_at__isnull=False).count() == in_flight and queued() == 0
    large.refresh_from_db()
    assert large.status == RunStatus.CANCELLED


def test_a_cancel_stops_the_chunk_a_worker_is_playing_at_its_next_game(start_worker, settings):
    from decks.models import Deck

    worker_on_own_queue(start_worker, settings, "one-at-a-time", concurrency=1)
    alice = get_user_model().objects.create_user("alice-stop", password="x" * 12)
    deck = Deck.objects.filter(is_starter=True, format="standard").order_by("pk").first()
    # One chunk of 100 games of the whole-deck AI against itself: several seconds of play.
    long = services.run_submit(owner=alice, kind="dreadgate_playtest", games=100, seed=4,
                               params={"deck": deck.pk, "opponent": deck.pk, "mode": "matchup"})
    assert long.chunks.count() == 1
    wait_for(lambda: Run.objects.filter(pk=long.pk, status=RunStatus.RUNNING).exists(), timeout=60,
             message="the worker to begin the chunk")
    assert services.run_cancel(run=long)
    # The worker plays one task at a time: this run is played once the cancelled chunk has given the worker back.
    after = services.run_submit(owner=alice, kind="test_sum", params={}, games=10, seed=5)
    wait_for(lambda: finished(after), timeout=120, message="the run sent after the cancel")
    chunk = long.chunks.get()
    assert chunk.status == "pending" and chunk.result is None, "the cancelled chunk was played to its end"
    long.refresh_from_db()
    assert long.games_done == 0
