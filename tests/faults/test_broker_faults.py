"""Faults of the job broker and of workers, each on a Redis, a gunicorn and workers of its own.

- Redis down at submission: the API still answers 202 and keeps the run queued (the outbox);
  once Redis is back, the reaper (beat) dispatches it and it finishes: nothing lost, nothing
  counted twice.
- A poison chunk that kills its worker process every time: the run fails after a bounded number
  of attempts, and the worker goes on serving other runs.
"""

import random

import pytest

from playtest.models import Run, RunChunk, RunStatus
from tests.support import live_db

from .support import WebServer, wait_until

pytestmark = [live_db, pytest.mark.worker, pytest.mark.faults]


@pytest.fixture
def stack(tmp_path, redis, start_worker):
    """gunicorn and a worker (with beat, for the reaper) on the private Redis."""
    env = {"REDIS_URL": redis.url, "PLAYTEST_OUTBOX_GRACE_SECONDS": "1",
           "PLAYTEST_MAX_CHUNK_ATTEMPTS": "2", "PLAYTEST_RETRY_DELAY_SECONDS": "0"}
    web = WebServer(tmp_path, env)
    worker = start_worker("faults", extra_env=env,
                          args=("--concurrency=2", "-B", f"--schedule={tmp_path / 'beat-schedule'}"))
    yield web, worker
    web.stop()


def submit(web, user, kind: str, games: int, params=None, seed=None):
    return web.request("POST", "/api/runs/", {"kind": kind, "games": games, "params": params or {}, "seed": seed},
                       token=user.api_token)


def finished(run_id):
    run = Run.objects.get(pk=run_id)
    return run if run.is_finished else None


def expected_values(seed: int, games: int) -> list[int]:
    """What tests.jobkinds.test_sum must produce: one value per game, each exactly once."""
    return [random.Random(f"{seed}:{g}").randrange(1000) for g in range(games)]


def test_runs_submitted_while_redis_is_down_wait_in_the_outbox_and_finish_when_it_is_back(stack, redis, user):
    web, _ = stack
    redis.stop()
    submitted = []
    for seed in (11, 12, 13):
        status, body, _ = submit(web, user, "test_sum", 30, seed=seed)
        assert status == 202, body
        submitted.append((body["id"], seed))
    for run_id, _ in submitted:
        run = Run.objects.get(pk=run_id)
        assert run.status == RunStatus.QUEUED and run.dispatched_at is None  # kept in the outbox

    redis.start()
    for run_id, seed in submitted:
        run = wait_until(lambda run_id=run_id: finished(run_id), timeout=120, message="the reaper to dispatch the run")
        assert run.status == RunStatus.DONE, run.error
        assert run.dispatched_at is not None
        assert run.games_done == 30
        assert run.result["values"] == expected_values(seed, 30)  # every game once: nothing lost, nothing twice
        assert list(RunChunk.objects.filter(run=run).values_list("status", flat=True)) == ["done"] * 3


def test_a_chunk_that_kills_its_worker_fails_the_run_after_bounded_attempts(stack, user):
    web, worker = stack
    status, body, _ = submit(web, user, "test_poison", 5, params={"hard": True})
    assert status == 202, body
    run = wait_until(lambda: finished(body["id"]), timeout=120, message="the poisoned run to fail")
    assert run.status == RunStatus.FAILED
    assert "its worker died" in run.error
    chunk = RunChunk.objects.get(run=run)
    assert chunk.attempts == 3  # two tries, then the third delivery sees the limit and fails the run
    assert worker.proc.poll() is None, "the worker itself must survive its pool children dying"

    status, body, _ = submit(web, user, "test_sum", 20, seed=5)
    assert status == 202
    healthy = wait_until(lambda: finished(body["id"]), timeout=60, message="a healthy run after the poison")
    assert healthy.status == RunStatus.DONE and healthy.result["values"] == expected_values(5, 20)
