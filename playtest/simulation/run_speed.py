"""How long a run would take, for the estimates its form and the API show before a submission.

Runs do not time single games: a finished run has its games over the time from its first chunk's start to its
end, which counts however many workers played it. The speed is that over the last finished runs like the one
planned; before any has finished, a calibration: games of the starter decks with the same policies and format,
timed by the clock on a worker when first asked for (one process's speed, a fraction of a second of games, or one
game of a policy that searches for seconds) and timed again once a day old. Until the first is done, the estimate
says so.
The time counts the queue ahead: runs share the workers a window of chunks each (playtest.jobs.services), so each
run still queued or running plays as many games as this one's, or what it has left, while this one plays.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import timedelta
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from playtest.jobs.broker import ensure_broker_folders
from playtest.models import PolicySpeed, Run, RunStatus
from playtest.simulation import games as simulated
from playtest.simulation.catalog import starter_decks

MEASURED_RUNS = 5
CALIBRATION_SECONDS = 0.3  # of games played to time them: at least one game
CALIBRATION_KEPT_SECONDS = 24 * 3600  # then timed again (the old speed serves meanwhile)
CALIBRATION_ASKED_SECONDS = 60  # a calibration asked for is not asked again meanwhile (its worker may be busy)
CALIBRATE_TASK = "playtest.tasks.calibrate_speed"


def measured_speed(*, kind: str, policies: Sequence[str], fmt: str, **params: str) -> dict[str, Any]:
    """{"games_per_second", "source", "runs"} over the last MEASURED_RUNS finished runs of `kind` whose parameters
    have the values given (params__<name>=value), "measured"; else a calibration of `policies`, "calibrated"; or,
    while a worker times them for the first time, no speed and "timing"."""
    finished = (Run.objects.filter(kind=kind, status=RunStatus.DONE, started_at__isnull=False,
                                   finished_at__gt=F("started_at"), **{f"params__{k}": v for k, v in params.items()})
                .order_by("-finished_at").values_list("games_done", "started_at", "finished_at")[:MEASURED_RUNS])
    games = sum(row[0] for row in finished)
    seconds = sum((row[2] - row[1]).total_seconds() for row in finished)
    if finished and seconds > 0:
        return {"games_per_second": games / seconds, "source": "measured", "runs": len(finished)}
    speed = calibrated_speed(policies, fmt)
    return {"games_per_second": speed, "source": "timing" if speed is None else "calibrated", "runs": 0}


def calibrated_speed(policies: Sequence[str], fmt: str) -> float | None:
    """Games per second of one worker process playing the starter decks against each other with these policies,
    or None before a worker has timed them. A missing or day-old timing is asked of a worker (the old one serves
    meanwhile): a policy that searches would take seconds of a web request."""
    key = ":".join(policies)
    row = PolicySpeed.objects.filter(format=fmt, policies=key).values_list("games_per_second", "timed_at").first()
    now = timezone.now()
    if row is None or row[1] is None or row[1] < now - timedelta(seconds=CALIBRATION_KEPT_SECONDS):
        _ask_calibration(list(policies), key, fmt, now)
    return None if row is None else row[0]


def _ask_calibration(policies: list[str], key: str, fmt: str, now) -> None:
    """Ask a worker to time `policies` (joined, `key`), unless one was asked within CALIBRATION_ASKED_SECONDS
    (however many processes want the speed meanwhile, one request asks)."""
    asked = PolicySpeed.objects.filter(format=fmt, policies=key,
                                       asked_at__lt=now - timedelta(seconds=CALIBRATION_ASKED_SECONDS))
    if not asked.update(asked_at=now):
        try:
            with transaction.atomic():
                PolicySpeed.objects.create(format=fmt, policies=key, asked_at=now)
        except IntegrityError:
            return  # asked recently, by this request's predecessor or a concurrent one
    transaction.on_commit(partial(_send_calibration, policies, fmt))


def _send_calibration(policies: list[str], fmt: str) -> None:
    ensure_broker_folders()  # the embedded (filesystem) broker needs its folders
    current_app.send_task(CALIBRATE_TASK, args=[policies, fmt], queue=settings.PLAYTEST_QUEUE)


def speed_calibrate(*, policies: Sequence[str], fmt: str) -> float:
    """The worker's part (playtest.tasks.calibrate_speed): time games of the starter decks against each other with
    these policies, at least one game and CALIBRATION_SECONDS, and keep the speed. Timed by the clock, as a finished
    run is, not by this process's CPU: on a machine busy with other runs a game takes longer than its CPU, and an
    estimate read from the CPU alone promised a quarter to an eighth of the time the run took."""
    decks = list(starter_decks(fmt).values())
    played, start = 0, time.perf_counter()
    while not played or time.perf_counter() - start < CALIBRATION_SECONDS:
        pair = [decks[played % len(decks)], decks[(played + 1) % len(decks)]]
        simulated.play_game(pair, fmt, simulated.game_seed(1, played), list(policies))
        played += 1
    speed = played / max(time.perf_counter() - start, 1e-6)
    now = timezone.now()
    PolicySpeed.objects.update_or_create(format=fmt, policies=":".join(policies),
                                         defaults={"games_per_second": speed, "timed_at": now},
                                         create_defaults={"games_per_second": speed, "timed_at": now, "asked_at": now})
    return speed


def games_ahead(games: int) -> int:
    """The games of other runs that sharing the workers plays while a run of `games` games plays: each run still
    queued or running as many as this one, or what it has left if less."""
    left = Run.objects.filter(status__in=(RunStatus.QUEUED, RunStatus.RUNNING)).values_list("games", "games_done")
    return sum(min(max(total - done, 0), games) for total, done in left)


def time_estimate(games: int, speed: dict[str, Any]) -> dict[str, Any]:
    """{"seconds", "seconds_text", "games_ahead"}: the run's games and those played beside it, at `speed` (no
    time while the speed is being timed)."""
    ahead = games_ahead(games)
    if speed["games_per_second"] is None:
        return {"seconds": None, "seconds_text": "not known yet", "games_ahead": ahead}
    seconds = (games + ahead) / speed["games_per_second"]
    return {"seconds": seconds, "seconds_text": duration_text(seconds), "games_ahead": ahead}


def duration_text(seconds: float) -> str:
    """A duration for people: "under a second", "40 s", "3 min 20 s", "1 h 5 min"."""
    if seconds < 1:
        return "under a second"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        minutes, rest = divmod(whole, 60)
        return f"{minutes} min {rest} s" if rest else f"{minutes} min"
    hours, rest = divmod(round(whole / 60), 60)
    return f"{hours} h {rest} min" if rest else f"{hours} h"
