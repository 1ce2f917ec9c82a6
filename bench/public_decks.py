"""What the pages that look for public decks holding a card cost when many players publish: BENCH_PUBLIC_DECKS
public decks (default 5,000, some 40 entries each) in their own database.

In one process, through Django's test client (anonymous, warm): wall and CPU ms per request of a card's page (its
list of public decks holding the card) and of the public deck list's card search (`GET /api/decks/?card=`), by
collector number and by a word of card names, beside the trivial endpoint. Wall time counts the database's own
work, which is what grows with the decks; CPU is this process's alone. The decks are copies of bench/load.py's
players' decks, made once by SQL (BENCH_PUBLIC_DATABASE_URL, default dreadgate_bench_public on 127.0.0.1:5432) and
kept for the next run.

Run from the repository root: `.venv/bin/python bench/public_decks.py` (or `make bench BENCH=public_decks`). Prints
one JSON line per figure.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BENCH_DATABASE_URL", os.environ.get(
    "BENCH_PUBLIC_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dreadgate_bench_public"))

import _common  # noqa: E402
import load  # noqa: E402  (its database, catalog and users, on the URL above)

DECKS = int(os.environ.get("BENCH_PUBLIC_DECKS", "5000"))
REQUESTS = 40

COPIES = """
CREATE TEMP TABLE sources AS SELECT * FROM decks_deck WHERE owner_id IS NOT NULL AND visibility = 'public';
DO $$
DECLARE made int := (SELECT count(*) FROM decks_deck WHERE visibility = 'public'); source record; copy bigint;
BEGIN
  WHILE made < %(decks)s LOOP
    FOR source IN SELECT * FROM sources LOOP
      EXIT WHEN made >= %(decks)s;
      INSERT INTO decks_deck (name, description, format, visibility, share_token, is_starter, starter_key, version,
                              catalog_version, card_count, is_legal, crafts, created_at, updated_at, owner_id,
                              gateway_id)
      VALUES (source.name || ' #' || made, '', source.format, 'public', md5(random()::text || made), false, '', 1,
              source.catalog_version, source.card_count, source.is_legal, source.crafts, now(), now(),
              source.owner_id, source.gateway_id)
      RETURNING id INTO copy;
      INSERT INTO decks_deckentry (deck_id, card_id, count, tag)
      SELECT copy, card_id, count, tag FROM decks_deckentry WHERE deck_id = source.id;
      made := made + 1;
    END LOOP;
  END LOOP;
END $$;
"""


def published() -> None:
    """Public decks up to DECKS, by copies of the players' decks."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(COPIES, {"decks": DECKS})
        cursor.execute("ANALYZE decks_deck, decks_deckentry")


def measure(client, path: str) -> tuple[float, float]:
    """Wall and CPU ms per request of `path`, warm."""
    for _ in range(3):
        answer = client.get(path)
    if answer.status_code != 200:
        raise SystemExit(f"{path}: {answer.status_code}")
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(REQUESTS):
        client.get(path)
    return ((time.perf_counter() - wall) / REQUESTS * 1000, (time.process_time() - cpu) / REQUESTS * 1000)


def main() -> None:
    load.prepare()
    from django.test import Client

    from decks.models import Deck, DeckEntry, Visibility

    published()
    number = DeckEntry.objects.filter(deck__owner__isnull=False).values_list("card__collector_number",
                                                                                flat=True).first()
    env = {"database": "postgresql", "cache": "redis", "server": "test client, one process",
           "public decks": Deck.objects.filter(visibility=Visibility.PUBLIC).count(), "requests": REQUESTS}
    pages = {"card page": f"/cards/{number}/", "deck list, a card's number": f"/api/decks/?card={number}",
             "deck list, a word of card names": "/api/decks/?card=golem", "trivial endpoint": "/api/keywords/"}
    client = Client(HTTP_HOST="127.0.0.1")
    for name, path in pages.items():
        wall, cpu = measure(client, path)
        mine = {**env, "path": path}
        _common.emit("public_decks", f"{name} wall per request", wall, "ms", None, "lower", mine)
        _common.emit("public_decks", f"{name} CPU per request", cpu, "ms", None, "lower", mine)


if __name__ == "__main__":
    main()
