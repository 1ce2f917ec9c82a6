"""Job kinds used by the job-machinery tests (loaded by the test workers only).

`test_sum` is deterministic per (seed, game) so results can be compared across chunkings; `test_bulk` is the same
in chunks of 100 games, as the engines' kinds (a 100,000-game run is 1,000 chunks);
`test_slow` gives a test time to kill a worker mid-run; `test_poison` always crashes; `test_cancelled_midway`
cancels its own run after its first game, as a person's cancel arriving while a chunk plays, and
`test_cancelled_at_its_end` after its last; `test_watched` records
the progress its run shows while its chunk plays;
`test_backend` reports which database connection (PostgreSQL backend) played each chunk; `test_race` and
`test_prepared_race` are staged.
"""

import os
import random
import time

from rest_framework import serializers

from core.errors import DomainError, ErrorCode
from core.interrupt import checkpoint
from playtest.jobs.registry import JobKind, register


def _sum_chunk(params, seed, first_game, games):
    values = []
    for g in range(first_game, first_game + games):
        checkpoint()  # before each game, as the engines' chunks: where a stop asked for takes effect
        values.append(random.Random(f"{seed}:{g}").randrange(1000))
        time.sleep(params.get("sleep_per_game", 0))
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


class _SumParams(serializers.Serializer):
    """What the simple kinds read: a pause per game (so that a test can kill a worker mid-chunk), and a crash that
    takes the worker process with it."""

    sleep_per_game = serializers.FloatField(required=False, min_value=0, max_value=5)
    hard = serializers.BooleanField(required=False)


register(JobKind("test_sum", _sum_chunk, _sum_merge, engine_version="test-1", chunk_size=10,
                 params_serializer=_SumParams))
register(JobKind("test_bulk", _sum_chunk, _sum_merge, engine_version="test-1", chunk_size=100,
                 params_serializer=_SumParams))
register(JobKind("test_poison", _poison_chunk, _sum_merge, engine_version="test-1", chunk_size=10,
                 params_serializer=_SumParams))


def _cancelled_midway_chunk(params, seed, first_game, games):
    from playtest.jobs.services import run_cancel
    from playtest.models import Run

    for game in range(first_game, first_game + games):
        checkpoint()
        if game == first_game:
            for run in Run.objects.filter(kind="test_cancelled_midway", status="running"):
                run_cancel(run=run)
    return {"games": games, "total": 0, "first": first_game, "values": [0] * games, "samples": []}


register(JobKind("test_cancelled_midway", _cancelled_midway_chunk, _sum_merge, engine_version="test-1",
                 chunk_size=10))


def _cancelled_at_its_end_chunk(params, seed, first_game, games):
    """Every game played, then the run cancelled: a cancel arriving after the chunk's last check for one."""
    from playtest.jobs.services import run_cancel
    from playtest.models import Run

    for _ in range(games):
        checkpoint()
    for run in Run.objects.filter(kind="test_cancelled_at_its_end", status="running"):
        run_cancel(run=run)
    return {"games": games, "total": 0, "first": first_game, "values": [0] * games, "samples": []}


register(JobKind("test_cancelled_at_its_end", _cancelled_at_its_end_chunk, _sum_merge, engine_version="test-1",
                 chunk_size=10))

SHOWN_WHILE_PLAYING: list[int] = []  # test_watched's record: the games its run showed played, before each game


def _watched_chunk(params, seed, first_game, games):
    from playtest.models import Run

    for _ in range(first_game, first_game + games):
        checkpoint()
        SHOWN_WHILE_PLAYING.append(Run.objects.filter(kind="test_watched").latest("created_at").games_played)
    return {"games": games, "total": 0, "first": first_game, "values": [0] * games, "samples": []}


register(JobKind("test_watched", _watched_chunk, _sum_merge, engine_version="test-1", chunk_size=10))


def _backend_chunk(params, seed, first_game, games):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return {"games": games, "backends": [cursor.fetchone()[0]]}


def _backend_merge(partials, params):
    return {"games": sum(p["games"] for p in partials), "backends": [b for p in partials for b in p["backends"]]}


register(JobKind("test_backend", _backend_chunk, _backend_merge, engine_version="test-1", chunk_size=10))


# `test_race`, a staged kind: arms race in stages, the better half going on, until one is left. Arm a's game at
# seed index i scores Random(seed:a:i) plus a / 100, so the higher arms tend to win; every arm alive in a stage
# plays the same seed indices (common random numbers), as a tuning race does.
def _race_chunk(params, seed, first_game, games):
    plan = params["stage"]
    per_arm, sums = plan["per_arm"], {}
    time.sleep(params.get("sleep_per_game", 0) * games)
    for g in range(first_game, first_game + games):
        arm = plan["arms"][g // per_arm]
        index = plan["start"] + g % per_arm
        sums[str(arm)] = sums.get(str(arm), 0.0) + random.Random(f"{seed}:{arm}:{index}").random() + arm / 100
    return {"games": games, "sums": sums}


def _race_merge(partials, params):
    sums = {}
    for part in partials:
        for arm, value in part["sums"].items():
            sums[arm] = sums.get(arm, 0.0) + value
    return {"games": sum(p["games"] for p in partials), "sums": sums}


def _race_next(params, stages):
    if not stages:
        return {"games": params["arms"] * params["per_arm"], "arms": list(range(params["arms"])),
                "per_arm": params["per_arm"], "start": 0}
    totals = {}
    for stage in stages:
        for arm, value in stage["result"]["sums"].items():
            totals[int(arm)] = totals.get(int(arm), 0.0) + value
    alive = stages[-1]["plan"]["arms"]
    if len(alive) == 1:
        return None
    keep = sorted(sorted(alive, key=lambda a: -totals[a])[: len(alive) // 2])
    last = stages[-1]["plan"]
    per_arm = params.get("over_budget", 0) + last["per_arm"]
    return {"games": len(keep) * per_arm, "arms": keep, "per_arm": per_arm, "start": last["start"] + last["per_arm"]}


def _race_conclude(params, stages):
    return {"winner": stages[-1]["plan"]["arms"][0], "stages": len(stages),
            "games": sum(stage["result"]["games"] for stage in stages)}


class _RaceParams(serializers.Serializer):
    arms = serializers.IntegerField(min_value=1, max_value=64, default=8)
    per_arm = serializers.IntegerField(min_value=1, max_value=100, default=2)
    sleep_per_game = serializers.FloatField(min_value=0, max_value=1, default=0)
    over_budget = serializers.IntegerField(min_value=0, max_value=1000, default=0)


register(JobKind("test_race", _race_chunk, _race_merge, engine_version="test-1", chunk_size=10,
                 next_stage=_race_next, conclude=_race_conclude, params_serializer=_RaceParams))


# `test_prepared_race`: `test_race` whose arms a worker decides first (JobKind.prepare), as a tuning run's shortlist;
# no arms to race is a refusal.
class _PreparedRaceParams(_RaceParams):
    prepared_arms = serializers.IntegerField(min_value=0, max_value=64)


def _race_prepare(params):
    if not params["prepared_arms"]:
        raise DomainError("prepared_arms: nothing to race", code=ErrorCode.INVALID_PARAMS)
    return {**params, "arms": params["prepared_arms"]}


register(JobKind("test_prepared_race", _race_chunk, _race_merge, engine_version="test-1", chunk_size=10,
                 next_stage=_race_next, conclude=_race_conclude, params_serializer=_PreparedRaceParams,
                 prepare=_race_prepare))
