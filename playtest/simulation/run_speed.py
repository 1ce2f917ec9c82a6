"""How fast runs of a kind play, for the estimates their forms and the API show before a submission.

Runs do not time single games: a finished run has its games over the time from its first chunk's start to its
end, which counts however many workers played it. The estimate is that speed over the last finished runs like
the one planned, or, before any has finished, a documented constant.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F

from playtest.models import Run, RunStatus

MEASURED_RUNS = 5


def measured_speed(*, kind: str, fallback: float, **params: str) -> dict[str, Any]:
    """{"games_per_second", "source": "measured" | "constant", "runs"} over the last MEASURED_RUNS finished runs
    of `kind` whose parameters have the values given (params__<name>=value)."""
    finished = (Run.objects.filter(kind=kind, status=RunStatus.DONE, started_at__isnull=False,
                                   finished_at__gt=F("started_at"), **{f"params__{k}": v for k, v in params.items()})
                .order_by("-finished_at").values_list("games_done", "started_at", "finished_at")[:MEASURED_RUNS])
    games = sum(row[0] for row in finished)
    seconds = sum((row[2] - row[1]).total_seconds() for row in finished)
    if finished and seconds > 0:
        return {"games_per_second": games / seconds, "source": "measured", "runs": len(finished)}
    return {"games_per_second": fallback, "source": "constant", "runs": 0}


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
