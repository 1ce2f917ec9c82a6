"""What a player with a long record pays for the pages that list it: a deck saved BENCH_VERSIONS times (default
2000: the editor saves a version per change, so an evening's work makes hundreds) and BENCH_RUNS runs of their own
(default 500, each holding its decks' whole lists for the workers), on PostgreSQL and Redis.

In one process, through Django's test client signed in as that player (as tests/roundtrips.py counts), warm: CPU ms
per request, bytes and SQL queries of the deck's history page and API, the playtest page's list of runs and the runs
API, and of the trivial endpoint (`/api/keywords/`) beside them. The data is made once, in its own database
(BENCH_LISTS_DATABASE_URL, default dreadgate_bench_lists on 127.0.0.1:5432), and kept for the next run.

Run from the repository root: `.venv/bin/python bench/long_lists.py` (or `make bench BENCH=long_lists`). Prints one
JSON line per figure.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BENCH_DATABASE_URL", os.environ.get(
    "BENCH_LISTS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dreadgate_bench_lists"))

import _common  # noqa: E402
import load  # noqa: E402  (its database, catalog and users, on the URL above)

VERSIONS = int(os.environ.get("BENCH_VERSIONS", "2000"))
RUNS = int(os.environ.get("BENCH_RUNS", "500"))
REQUESTS = 40


def long_record(username: str, deck_id: int) -> None:
    """The deck saved until it has VERSIONS versions, and RUNS runs of the player's (cancelled at once: no worker
    plays them here)."""
    from django.contrib.auth import get_user_model

    from decks.models import Deck
    from decks.services import deck_update
    from playtest.jobs import services
    from playtest.models import Run

    user = get_user_model().objects.get(username=username)
    deck = Deck.objects.get(pk=deck_id)
    while deck.version < VERSIONS:
        deck = deck_update(deck=deck, actor=user, expected_version=deck.version, description=f"Take {deck.version}")
    for _ in range(RUNS - Run.objects.filter(owner=user).count()):
        run = services.run_submit(owner=user, kind="dreadgate_playtest", games=10,
                                  params={"deck": deck.pk, "mode": "goldfish"})
        services.run_cancel(run=run)


def measure(client, path: str) -> tuple[float, int, int]:
    """CPU ms per request, bytes and SQL queries of `path`, warm."""
    from tests.roundtrips import counted

    for _ in range(3):
        answer = client.get(path)
    if answer.status_code != 200:
        raise SystemExit(f"{path}: {answer.status_code}")
    with counted() as trips:
        client.get(path)
    started = time.process_time()
    for _ in range(REQUESTS):
        client.get(path)
    return (time.process_time() - started) / REQUESTS * 1000, len(answer.content), trips.queries


def main() -> None:
    username, deck_id = load.prepare()[0]
    from django.contrib.auth import get_user_model
    from django.test import Client

    long_record(username, deck_id)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(get_user_model().objects.get(username=username))
    env = {"database": "postgresql", "cache": "redis", "server": "test client, one process", "versions": VERSIONS,
           "runs": RUNS, "requests": REQUESTS}
    pages = {"trivial endpoint": "/api/keywords/", "deck history page": f"/decks/{deck_id}/history/",
             "deck versions API": f"/api/decks/{deck_id}/revisions/", "runs page": "/playtest/",
             "runs API": "/api/runs/"}
    for name, path in pages.items():
        ms, size, queries = measure(client, path)
        mine = {**env, "path": path}
        _common.emit("long_lists", f"{name} CPU per request", ms, "ms", None, "lower", mine)
        _common.emit("long_lists", f"{name} bytes", size, "bytes", None, "lower", mine, digits=0)
        _common.emit("long_lists", f"{name} SQL queries", queries, "queries", None, "lower", mine, digits=0)


if __name__ == "__main__":
    main()
