"""Benchmark: Dreadgate playtesting.

1. Goldfish games per second on one core, for each starter deck, with the goldfish AI (target 500).
2. A 10,000-game goldfish run end to end (submit to finished report) with 2 Celery workers on
   PostgreSQL and Redis (target under 20 s), and
3. the speed-up from 1 to 2 workers (target 1.8x).

Parts 2 and 3 create a scratch database (BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/bench_playtest) and use Redis db 14 (BENCH_REDIS_URL); they are
skipped, with a note on stderr, when PostgreSQL or Redis can't be reached. Run from the repo root:
`.venv/bin/python bench/playtest.py` (BENCH_GAMES changes the 10,000).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import _common
import _services

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_playtest")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
RUN_GAMES = int(os.environ.get("BENCH_GAMES", "10000"))
SPEED_GAMES = int(os.environ.get("BENCH_SPEED_GAMES", "200"))


def emit(figure: str, value: float, unit: str, target: float | None, better: str, env: dict) -> None:
    _common.emit("playtest", figure, value, unit, target, better, env)


def goldfish_speed() -> None:
    from cards.catalog.build import default_catalog
    from cards.catalog.starter_decks import load_starter_decks
    from playtest.dreadgate import CardDef
    from playtest.simulation.games import game_seed, play_game

    catalog = default_catalog()
    cards = catalog.by_number()
    for craft, starter in load_starter_decks(catalog, fmt="standard").items():
        deck = [CardDef.from_dict(cards[n]) for n, count in starter.cards for _ in range(count)]
        deck.append(CardDef.from_dict(cards[starter.gateway]))
        started = time.process_time()  # CPU time of this one process: other load on the machine doesn't count
        for g in range(SPEED_GAMES):
            play_game([deck, deck], "standard", game_seed(1, g), ["goldfish", "passive"])
        rate = SPEED_GAMES / (time.process_time() - started)
        emit(f"goldfish games/s, {craft} starter", rate, "games/s", 500, "higher",
             {"cores": 1, "games": SPEED_GAMES, "policy": "goldfish", "clock": "process CPU time"})


def timed_run(owner, deck, games: int) -> float:
    from playtest.jobs import services
    from playtest.models import Run

    started = time.perf_counter()
    run = services.run_submit(owner=owner, kind="dreadgate_playtest", params={"deck": deck.pk}, games=games,
                              seed=42)
    while True:
        run = Run.objects.get(pk=run.pk)
        if run.is_finished:
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    if run.status != "done" or run.games_done != games:
        raise SystemExit(f"run ended {run.status} with {run.games_done}/{games} games: {run.error}")
    Run.objects.filter(pk=run.pk).delete()
    return elapsed


def end_to_end() -> None:
    _services.recreate_database(DB_URL, create=True)
    env = {**os.environ, "DATABASE_URL": DB_URL, "REDIS_URL": REDIS_URL, "DJANGO_SETTINGS_MODULE": "config.settings",
           "PLAYTEST_QUEUE": "bench-playtest", "PLAYTEST_MAX_GAMES": str(max(RUN_GAMES, 100000))}
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from cards.catalog.loader import load_catalog
    from config.celery import app
    from decks.models import Deck
    from decks.starters import load_starter_decks

    call_command("migrate", verbosity=0)
    load_catalog()
    load_starter_decks()
    app.control.purge()
    owner, _ = get_user_model().objects.get_or_create(username="bench")
    deck = Deck.objects.filter(is_starter=True).order_by("starter_key").first()
    timings = {}
    try:
        for workers_count in (1, 2):
            workers = _services.start_workers(workers_count, "bench-playtest", "bench", env)
            try:
                timings[workers_count] = timed_run(owner, deck, RUN_GAMES)
            finally:
                for worker in workers:
                    os.killpg(worker.pid, signal.SIGTERM)
                for worker in workers:
                    worker.wait(30)
    finally:
        from django.db import connections

        connections.close_all()
        _services.recreate_database(DB_URL, create=False)
    run_env = {"db": "postgresql", "broker": "redis", "games": RUN_GAMES, "deck": deck.name}
    emit(f"{RUN_GAMES:,}-game goldfish run, submit to report, 2 workers", timings[2], "s", 20, "lower",
         {**run_env, "workers": 2})
    emit("speed-up from 1 to 2 workers", timings[1] / timings[2], "x", 1.8, "higher",
         {**run_env, "workers_1_s": round(timings[1], 2), "workers_2_s": round(timings[2], 2)})


if __name__ == "__main__":
    goldfish_speed()
    problem = _services.unreachable(DB_URL, REDIS_URL)
    if problem is None:
        end_to_end()
    else:
        print(f"playtest bench: end-to-end part skipped: {problem}", file=sys.stderr)
