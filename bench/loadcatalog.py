"""Benchmark: `manage.py loadcatalog` on PostgreSQL, first run (empty tables) and second run (no changes).

Creates its own scratch database, migrates it, times both runs, and drops it again. Run from the repo
root: `.venv/bin/python bench/loadcatalog.py`. BENCH_DATABASE_URL overrides the scratch database
(default postgres://postgres@127.0.0.1:5432/bench_loadcatalog).
"""

from __future__ import annotations

import io
import json
import os
import platform
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_loadcatalog")
TARGETS = {"first_run": 20.0, "second_run": 5.0}


def admin_connection():
    import psycopg

    parts = urlparse(URL)
    return psycopg.connect(
        host=parts.hostname, port=parts.port or 5432, user=parts.username or "postgres",
        password=parts.password, dbname="postgres", autocommit=True,
    )  # fmt: skip


def recreate_database(name: str, *, create: bool) -> None:
    with admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if create:
            conn.execute(f'CREATE DATABASE "{name}"')


def main() -> None:
    name = urlparse(URL).path.lstrip("/")
    recreate_database(name, create=True)
    os.environ["DATABASE_URL"] = URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from cards.catalog.build import default_catalog
        from cards.models import Card

        call_command("migrate", verbosity=0)
        timings = {}
        for run in ("first_run", "second_run"):
            default_catalog.cache_clear()  # each run builds the catalog from the data file, as the command does
            start = time.perf_counter()
            call_command("loadcatalog", stdout=io.StringIO())
            timings[run] = time.perf_counter() - start
        env = {
            "python": platform.python_version(),
            "django": django.get_version(),
            "database": f"postgresql {connection.pg_version // 10000}",
            "cards": Card.objects.count(),
            "cpus": os.cpu_count(),
        }
        connection.close()
    finally:
        recreate_database(name, create=False)
    for run, seconds in timings.items():
        print(json.dumps({
            "bench": "loadcatalog", "figure": f"{run.replace('_', ' ')} time", "value": round(seconds, 3),
            "unit": "s", "target": TARGETS[run], "better": "lower", "env": env,
        }))  # fmt: skip


if __name__ == "__main__":
    main()
