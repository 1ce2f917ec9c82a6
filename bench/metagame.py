"""Benchmark: a metagame table of the six starter decks, end to end.

The table of docs/ai.md: 15 pairs of 400 games (6,000 games), Standard, `matchup` on every seat, each seed played
from both seats. It is submitted through the services (decks snapshotted, chunks queued) to two Celery worker
processes on PostgreSQL and Redis and timed from the submission to the finished table. Prints, as JSON lines, the
time, the games per second, the form's estimate for the same table (the calibration's, timed by a worker before
the table is submitted, since the scratch database has no finished table to measure), and each deck's overall win
rate; then the matrix as comment lines (#).

It creates a scratch database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/bench_metagame) and
uses Redis db 13 (BENCH_REDIS_URL). Without them, the same chunks are played by two local processes, with no
broker or database, and the figures say so (those decks are the catalog's lists in the data file's card order, so
the games differ from the ones the site plays from its deck snapshots with the same seed).
BENCH_METAGAME_GAMES changes the 400 games a pair, BENCH_METAGAME_FORMAT the format (standard or quick). Not part
of `make test`; run from the repository root: `.venv/bin/python bench/metagame.py` (or `make bench BENCH=metagame`).
"""

from __future__ import annotations

import os
import platform
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import _common  # noqa: E402
import _services  # noqa: E402

DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_metagame")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
GAMES_PER_PAIR = int(os.environ.get("BENCH_METAGAME_GAMES", "400"))
FORMAT = os.environ.get("BENCH_METAGAME_FORMAT", "standard")
POLICY = "matchup"
WORKERS = 2
QUEUE = "bench-metagame"


def env_figures(**extra) -> dict:
    return {"python": platform.python_version(), "cpus": os.cpu_count(), "load_1m": round(os.getloadavg()[0], 2),
            "format": FORMAT, "policy": POLICY, "games_per_pair": GAMES_PER_PAIR, **extra}


def emit(figure: str, value: float, unit: str, target: float | None, better: str, env: dict) -> None:
    _common.emit("metagame", figure, value, unit, target, better, env)


# --- End to end: PostgreSQL, Redis, two workers --------------------------------------------------------------


def end_to_end() -> tuple[dict, dict, float, dict]:
    """The table through the services and two workers: (result, params, seconds, the form's budget)."""
    _services.recreate_database(DB_URL, create=True)
    env = {**os.environ, "DATABASE_URL": DB_URL, "REDIS_URL": REDIS_URL, "DJANGO_SETTINGS_MODULE": "config.settings",
           "PLAYTEST_QUEUE": QUEUE}
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections

    from cards.catalog.loader import load_catalog
    from config.celery import app
    from decks.starters import load_starter_decks
    from playtest.jobs import services
    from playtest.models import Run
    from playtest.simulation.metagame_kind import METAGAME, budget

    try:
        call_command("migrate", verbosity=0)
        load_catalog()
        load_starter_decks()
        app.control.purge()
        owner, _ = get_user_model().objects.get_or_create(username="bench")
        budget(decks=6, games_per_pair=GAMES_PER_PAIR, fmt=FORMAT, policy=POLICY)  # asks a worker to time it
        workers = _services.start_workers(WORKERS, QUEUE, "metagame", env)
        try:
            estimate = budget(decks=6, games_per_pair=GAMES_PER_PAIR, fmt=FORMAT, policy=POLICY)
            while estimate["games_per_second"] is None:
                time.sleep(0.2)
                estimate = budget(decks=6, games_per_pair=GAMES_PER_PAIR, fmt=FORMAT, policy=POLICY)
            started = time.perf_counter()
            run = services.run_submit(owner=owner, kind=METAGAME, seed=2026, params={
                "starters": True, "format": FORMAT, "policy": POLICY, "games_per_pair": GAMES_PER_PAIR})
            while not run.is_finished:
                time.sleep(0.1)
                run = Run.objects.get(pk=run.pk)
            elapsed = time.perf_counter() - started
        finally:
            for worker in workers:
                os.killpg(worker.pid, signal.SIGTERM)
            for worker in workers:
                worker.wait(30)
        if run.status != "done" or run.games_done != run.games:
            raise SystemExit(f"the table ended {run.status} with {run.games_done}/{run.games} games: {run.error}")
        return run.result, run.params, elapsed, estimate
    finally:
        connections.close_all()
        _services.recreate_database(DB_URL, create=False)


# --- Without a broker: the same chunks on two local processes ------------------------------------------------


def _snapshots() -> list[dict]:
    from dataclasses import asdict

    from cards.catalog.starter_decks import load_starter_decks
    from playtest.simulation.catalog import starter_decks

    names = {deck.craft: deck.name for deck in load_starter_decks(fmt="standard").values()}
    return [{"id": None, "name": names[craft], "legal": True, "cards": {c.collector_number: asdict(c) for c in deck},
             "list": [c.collector_number for c in deck]} for craft, deck in sorted(starter_decks(FORMAT).items())]


def _chunk(params: dict, first: int, count: int) -> dict:
    from playtest.simulation import metagame

    return metagame.play_chunk(params, 2026, first, count)


def local_processes() -> tuple[dict, dict, float]:
    from playtest.simulation import metagame

    params = {"mode": "metagame", "format": FORMAT, "policy": POLICY, "games_per_pair": GAMES_PER_PAIR,
              "decks": _snapshots()}
    games, size = 15 * GAMES_PER_PAIR, 100
    started = time.perf_counter()
    with ProcessPoolExecutor(WORKERS) as pool:
        parts = list(pool.map(_chunk, [params] * len(range(0, games, size)), range(0, games, size),
                              [min(size, games - first) for first in range(0, games, size)]))
    return metagame.merge(parts, params), params, time.perf_counter() - started


# --- The matrix -----------------------------------------------------------------------------------------------


def _short(name: str) -> str:
    return name.split(":")[0].replace(" Starter", "")


def print_matrix(figures: dict) -> None:
    columns = figures["columns"]
    width = 16
    print(f"# {figures['format'].title()}, {figures['policy']} on every seat, {figures['games_per_pair']} games a pair "
          f"({figures['games']:,} games, {figures['draws']} drawn): the row deck's win rate against the column deck, "
          "95% Wilson interval", flush=True)
    print("# " + " " * 14 + "".join(f"{_short(c['name']):>{width}}" for c in columns) + f"{'overall':>{width}}")
    for row in figures["rows"]:
        cells = []
        for cell in [*row["cells"], row["deck"]["overall"]]:
            if cell is None:
                cells.append(f"{'—':>{width}}")
            else:
                text = f"{cell['rate'] * 100:.0f}% ({cell['low'] * 100:.0f}–{cell['high'] * 100:.0f})"
                cells.append(f"{text:>{width}}")
        print(f"# {_short(row['deck']['name']):<14}" + "".join(cells))
    for deck in figures["decks"]:
        best, worst = deck["best"], deck["worst"]
        print(f"# {_short(deck['name'])}: best against {_short(best['opponent_name'])} {best['rate'] * 100:.0f}%, "
              f"worst against {_short(worst['opponent_name'])} {worst['rate'] * 100:.0f}%", flush=True)


def main() -> None:
    games = 15 * GAMES_PER_PAIR
    problem = _services.unreachable(DB_URL, REDIS_URL)
    if problem is None:
        result, params, seconds, estimate = end_to_end()
        env = env_figures(db="postgresql", broker="redis", workers=WORKERS, games=games)
        emit(f"metagame table of the 6 starters ({games:,} games), submit to table, {WORKERS} workers", seconds, "s",
             None, "lower", env)
        emit(f"metagame table of the 6 starters, games/s, {WORKERS} workers", games / seconds, "games/s", None,
             "higher", env)
        emit("the form's estimate for the same table (no finished table yet: the calibration's)",
             estimate["seconds"], "s", None, "lower", {**env, "games_per_second": estimate["games_per_second"]})
    else:
        print(f"# metagame bench: no PostgreSQL or Redis ({problem}); the chunks are played by local processes",
              file=sys.stderr)
        result, params, seconds = local_processes()
        env = env_figures(db=None, broker=None, workers=WORKERS, games=games, note="chunks on local processes")
        emit(f"metagame table of the 6 starters ({games:,} games), chunks on {WORKERS} local processes, no broker",
             seconds, "s", None, "lower", env)
        emit(f"metagame table of the 6 starters, games/s, {WORKERS} local processes", games / seconds, "games/s",
             None, "higher", env)
    from playtest.simulation.metagame_report import table

    figures = table(result, params)
    for deck in figures["decks"]:
        emit(f"overall win rate, {_short(deck['name'])}", deck["overall"]["rate"] * 100, "%", None, "higher",
             {**env, "low": round(deck["overall"]["low"] * 100, 1), "high": round(deck["overall"]["high"] * 100, 1)},)
    print_matrix(figures)


if __name__ == "__main__":
    main()
