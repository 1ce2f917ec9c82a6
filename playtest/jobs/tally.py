"""A run's games as its page states them: what was asked, what was played, and why the two differ."""

from __future__ import annotations

from typing import Any

from playtest.jobs.registry import get_kind, is_preparation
from playtest.models import Run, RunStatus


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def run_tally(*, run: Run) -> dict[str, Any]:
    """{"played", "asked", "percent" (while the run is under way, else None), "note"}: the note says, for a run
    that finished short of the games asked, by how many and why (a staged kind's budget is a ceiling its last
    stage may not fill: the kind says why)."""
    played, asked = run.games_played, run.games
    tally: dict[str, Any] = {"played": played, "asked": asked, "percent": None, "note": ""}
    if not run.is_finished:
        tally["percent"] = int(100 * played / asked) if asked else 0
        return tally
    short = asked - played
    if short <= 0:
        return tally
    # A part of the run counts whole or not at all: the games of the one a stop cut short were shown as played
    # while it played, and are not kept.
    if run.status == RunStatus.CANCELLED:
        tally["note"] = f"cancelled; {_games(short)} not played or, in a part the cancel cut short, not kept"
    elif run.status == RunStatus.FAILED:
        tally["note"] = f"stopped by the error below; {_games(short)} not played or, in a part it cut short, not kept"
    else:
        kind = get_kind(run.kind)
        stages = [{"plan": plan, "result": result}
                  for plan, result in run.stages.order_by("index").values_list("plan", "result")
                  if not is_preparation(plan)]
        if kind.shortfall is not None and stages:
            tally["note"] = kind.shortfall(run.params, stages, short)
        else:
            tally["note"] = f"finished {_games(short)} short of the games asked"
    return tally
