"""The job machinery against a real Celery worker process (Redis in CI, the filesystem broker locally)."""

import os
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from playtest.jobs import services
from playtest.models import PolicySpeed, RunChunk, RunStatus
from playtest.simulation.run_speed import calibrated_speed
from tests.support import live_db, wait_for

pytestmark = [live_db, pytest.mark.worker]


@pytest.fixture
def user():
    return get_user_model().objects.create_user("runner", password="x" * 12)


def finished(run):
    run.refresh_from_db()
    return run.is_finished and run


def test_a_submitted_run_is_played_by_the_worker(celery_worker, user):
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=45, seed=3)
    run = wait_for(lambda: finished(run), timeout=60, message="the run to finish")
    assert run.status == RunStatus.DONE, run.error
    assert run.games_done == 45
    assert run.result["games"] == 45
    assert run.dispatched_at is not None


def test_a_staged_run_is_played_stage_after_stage_by_the_worker(celery_worker, user):
    run = services.run_submit(owner=user, kind="test_race", params={"arms": 8, "per_arm": 5}, games=200, seed=3)
    run = wait_for(lambda: finished(run), timeout=60, message="the staged run to finish")
    assert run.status == RunStatus.DONE, run.error
    assert run.stages.count() == 4 and run.games_done == 75 == run.result["games"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite connections are closed after every task")
def test_workers_keep_their_database_connection_and_replace_a_broken_one(celery_worker, user):
    run = services.run_submit(owner=user, kind="test_backend", params={}, games=80)
    run = wait_for(lambda: finished(run), timeout=60, message="the run to finish")
    assert run.status == RunStatus.DONE, run.error
    backends = set(run.result["backends"])
    assert len(backends) <= 2  # 8 chunks on the session worker's 2 processes: one connection each
    # Connections that break between tasks (a database restart, an administrator) are replaced.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [sorted(backends)])
    run = services.run_submit(owner=user, kind="test_backend", params={}, games=40)
    run = wait_for(lambda: finished(run), timeout=60, message="the run after the connections broke")
    assert run.status == RunStatus.DONE, run.error
    assert not backends & set(run.result["backends"])


def test_a_chunk_that_raises_fails_the_run_with_its_reason(celery_worker, user, settings):
    run = services.run_submit(owner=user, kind="test_poison", params={}, games=5)
    run = wait_for(lambda: finished(run), timeout=60, message="the run to fail")
    assert run.status == RunStatus.FAILED
    assert "poison chunk" in run.error


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="redelivery after a worker dies needs the Redis broker")
@pytest.mark.parametrize(("kind", "params", "games", "played"), [
    ("test_sum", {"sleep_per_game": 0.15}, 100, 100),
    # A staged run (8 arms of 5 games, then 4, 2, 1): the killed chunk's stage is finished and planned on once.
    ("test_race", {"sleep_per_game": 0.15, "arms": 8, "per_arm": 5}, 200, 75),
])
def test_a_killed_workers_chunk_is_redone_by_another_worker(start_worker, user, settings, kind, params, games, played):
    settings.PLAYTEST_QUEUE = "kill-test"
    # A short visibility timeout, above the hard time limit, so the killed worker's chunk comes back soon.
    env = {"CELERY_VISIBILITY_TIMEOUT": "6", "CELERY_SOFT_TIME_LIMIT": "3", "CELERY_HARD_TIME_LIMIT": "4",
           "CELERY_UNACKED_RESTORE_INTERVAL": "2", "CELERY_UNACKED_RESTORE_THROTTLE": "1"}
    args = ("--pool=solo", "-Q", "kill-test")
    first = start_worker("first", extra_env=env, args=args)
    run = services.run_submit(owner=user, kind=kind, params=params, games=games, seed=5)
    in_flight = wait_for(
        lambda: RunChunk.objects.filter(run=run, status="pending", attempts=1).first(), timeout=60,
        interval=0.05, message="a chunk to be under way",
    )
    taken_by = time.monotonic()  # the chunk was delivered before this
    first.kill()  # mid-chunk: its result was never stored, its message never acknowledged
    start_worker("second", extra_env=env, args=args)

    def redelivered():
        in_flight.refresh_from_db()
        return in_flight.attempts >= 2

    wait_for(redelivered, timeout=60, interval=0.1, message="the killed worker's chunk to be delivered again")
    # Not before its visibility timeout (6 s from its delivery; the poll above saw it within about a second).
    assert time.monotonic() - taken_by >= 6 - 1.5, "it came back before its visibility timeout"
    run = wait_for(lambda: finished(run), timeout=120, message="the run to finish on the second worker")
    assert run.status == RunStatus.DONE, run.error
    assert run.games_done == played == run.result["games"]
    if kind == "test_sum":
        assert len(run.result["values"]) == 100
    else:
        assert run.stages.count() == 4 and sum(run.stages.values_list("games", flat=True)) == played
    in_flight.refresh_from_db()
    assert in_flight.attempts == 2, "the killed worker's chunk was played again by the second worker"


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="redelivery after a worker dies needs the Redis broker")
def test_a_tuning_run_whose_worker_is_killed_mid_chunk_loses_nothing_and_counts_nothing_twice(start_worker, user,
                                                                                             settings):
    from playtest.jobs.registry import is_preparation
    from playtest.simulation.tuning_kind import TUNING
    from tests.playtest.dreadgate_decks import starter_deck

    settings.PLAYTEST_QUEUE = "kill-test-tuning"
    # Limits above a chunk's time (100 Standard goldfish games, about a second; several on a loaded machine).
    env = {"CELERY_VISIBILITY_TIMEOUT": "14", "CELERY_SOFT_TIME_LIMIT": "10", "CELERY_HARD_TIME_LIMIT": "12",
           "CELERY_UNACKED_RESTORE_INTERVAL": "2", "CELERY_UNACKED_RESTORE_THROTTLE": "1"}
    args = ("--pool=solo", "-Q", "kill-test-tuning")
    deck = starter_deck(user, craft="hinter")
    first = start_worker("first-tuning", extra_env=env, args=args)
    params = {"deck": deck.pk, "goal": "goldfish", "format": "standard", "budget": 300}
    run = services.run_submit(owner=user, kind=TUNING, params=params, seed=8)
    in_flight = wait_for(
        lambda: RunChunk.objects.filter(run=run, status="pending", attempts=1, games__gt=0).first(), timeout=60,
        interval=0.05, message="a chunk of the race (after its shortlist) to be under way",
    )
    first.kill()
    start_worker("second-tuning", extra_env=env, args=args)
    run = wait_for(lambda: finished(run), timeout=400, message="the race to finish on the second worker")
    assert run.status == RunStatus.DONE, run.error
    stages = [stage for stage in run.stages.order_by("index") if not is_preparation(stage.plan)]
    assert run.games_done == run.result["games"] == sum(stage.games for stage in stages) <= 300
    assert sum(len(v) for stage in stages for v in stage.result["values"].values()) == run.games_done
    in_flight.refresh_from_db()
    assert in_flight.attempts == 2, "the killed worker's chunk was played again by the second worker"


@pytest.mark.config_independent  # a process's niceness, whatever its database and broker
def test_a_worker_runs_below_the_web_processes_cpu_priority(start_worker):
    """WORKER_NICE (10 unless set) is added to the worker's niceness before its pool starts: its pool's processes,
    which play the games, take the CPU that the web processes of the same host leave."""
    worker = start_worker("nice", extra_env={"WORKER_NICE": "7"}, args=("--concurrency=1",))
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    children = [int(pid) for pid in open(f"/proc/{worker.proc.pid}/task/{worker.proc.pid}/children").read().split()]
    assert children, "the worker's pool has a process"
    for pid in (worker.proc.pid, *children):
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(mine + 7, 19), pid
    # Started in a session of its own, it is its autogroup's only member: the group yields too, else its niceness
    # would count only against its own pool (a kernel without autogroups has no such file).
    autogroup = Path(f"/proc/{worker.proc.pid}/autogroup")
    if autogroup.exists():
        assert autogroup.read_text().split()[-2:] == ["nice", "7"]
        assert Path(f"/proc/{children[0]}/autogroup").read_text() == autogroup.read_text()


def test_a_speed_asked_for_is_timed_by_the_worker(celery_worker):
    # Policies and a format no other test times, so that no earlier request has asked already.
    assert calibrated_speed(("classic-goldfish", "classic-goldfish"), "quick") is None
    row = wait_for(lambda: PolicySpeed.objects.filter(format="quick", policies="classic-goldfish:classic-goldfish",
                                                      games_per_second__isnull=False).first(),
                   timeout=60, message="the worker's timing")
    assert row.games_per_second > 0
    assert calibrated_speed(("classic-goldfish", "classic-goldfish"), "quick") == row.games_per_second
