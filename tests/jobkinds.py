"""Job kinds used by the job-machinery tests (loaded by the test workers only).

`test_sum` is deterministic per (seed, game) so results can be compared across chunkings;
`test_slow` gives a test time to kill a worker mid-run; `test_poison` always crashes;
`test_backend` reports which database connection (PostgreSQL backend) played each chunk.
"""

import os
import random
import time

from playtest.jobs.registry import JobKind, register


def _sum_chunk(params, seed, first_game, games):
    values = [random.Random(f"{seed}:{g}").randrange(1000) for g in range(first_game, first_game + games)]
    time.sleep(params.get("sleep_per_game", 0) * games)
    samples = [{"game": g} for g in range(first_game, first_game + games) if g < 2]
    return {"games": games, "total": sum(values), "first": first_game, "values": values, "samples": samples}


def _sum_merge(partials, params):
    return {
        "games": sum(p["games"] for p in partials),
        "total": sum(p["total"] for p in partials),
        "values": [v for p in partials for v in p["values"]],
        "samples": [s for p in partials for s in p.get("samples", [])],
    }


def _poison_chunk(params, seed, first_game, games):
    if params.get("hard"):
        os._exit(1)  # the worker process dies, as on a segfault
    raise RuntimeError("poison chunk")


register(JobKind("test_sum", _sum_chunk, _sum_merge, engine_version="test-1", chunk_size=10))
register(JobKind("test_poison", _poison_chunk, _sum_merge, engine_version="test-1", chunk_size=10))


def _backend_chunk(params, seed, first_game, games):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return {"games": games, "backends": [cursor.fetchone()[0]]}


def _backend_merge(partials, params):
    return {"games": sum(p["games"] for p in partials), "backends": [b for p in partials for b in p["backends"]]}


register(JobKind("test_backend", _backend_chunk, _backend_merge, engine_version="test-1", chunk_size=10))
