"""How long a run would take, for the estimates its form and the API show before a submission.

Runs do not time single games: a finished run has its games over the time from its first chunk's start to its
end, which counts however many workers played it. The speed is that over the last finished runs like the one
planned; before any has finished, a calibration: games of the starter decks with the same policies and format,
timed here on first use (one process's speed, a fraction of a second of games) and kept a day in the shared cache.
The time counts the queue ahead: runs share the workers a window of chunks each (playtest.jobs.services), so each
run still queued or running plays as many games as this one's, or what it has left, while this one plays.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache
from django.db.models import F

from playtest.models import Run, RunStatus
from playtest.simulation import games as simulated
from playtest.simulation.catalog import starter_decks

MEASURED_RUNS = 5
CALIBRATION_SECONDS = 0.3  # of games played to time them: at least one game
CALIBRATION_KEPT_SECONDS = 24 * 3600


def measured_speed(*, kind: str, policies: Sequence[str], fmt: str, **params: str) -> dict[str, Any]:
    """{"games_per_second", "source": "measured" | "calibrated", "runs"} over the last MEASURED_RUNS finished runs
    of `kind` whose parameters have the values given (params__<name>=value), else a calibration of `policies`."""
    finished = (Run.objects.filter(kind=kind, status=RunStatus.DONE, started_at__isnull=False,
                                   finished_at__gt=F("started_at"), **{f"params__{k}": v for k, v in params.items()})
                .order_by("-finished_at").values_list("games_done", "started_at", "finished_at")[:MEASURED_RUNS])
    games = sum(row[0] for row in finished)
    seconds = sum((row[2] - row[1]).total_seconds() for row in finished)
    if finished and seconds > 0:
        return {"games_per_second": games / seconds, "source": "measured", "runs": len(finished)}
    return {"games_per_second": calibrated_speed(policies, fmt), "source": "calibrated", "runs": 0}


def calibrated_speed(policies: Sequence[str], fmt: str) -> float:
    """Games per second of one process playing the starter decks against each other with these policies."""
    key = f"run-speed:calibration:{fmt}:{':'.join(policies)}"
    speed = cache.get(key)
    if speed is None:
        decks = list(starter_decks(fmt).values())
        played, start = 0, time.process_time()
        while not played or time.process_time() - start < CALIBRATION_SECONDS:
            pair = [decks[played % len(decks)], decks[(played + 1) % len(decks)]]
            simulated.play_game(pair, fmt, simulated.game_seed(1, played), list(policies))
            played += 1
        speed = played / max(time.process_time() - start, 1e-6)
        cache.set(key, speed, CALIBRATION_KEPT_SECONDS)
    return speed


def games_ahead(games: int) -> int:
    """The games of other runs that sharing the workers plays while a run of `games` games plays: each run still
    queued or running as many as this one, or what it has left if less."""
    left = Run.objects.filter(status__in=(RunStatus.QUEUED, RunStatus.RUNNING)).values_list("games", "games_done")
    return sum(min(max(total - done, 0), games) for total, done in left)


def time_estimate(games: int, speed: dict[str, Any]) -> dict[str, Any]:
    """{"seconds", "seconds_text", "games_ahead"}: the run's games and those played beside it, at `speed`."""
    ahead = games_ahead(games)
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
