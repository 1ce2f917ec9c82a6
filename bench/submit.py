"""What submitting and cancelling a large run costs in the web request, on the embedded default (SQLite and the
filesystem broker, no worker): POST /api/runs/ of 100,000 games in chunks of 100, as the engines' kinds (1,000
chunks), then POST /api/runs/<id>/cancel/, BENCH_SUBMISSIONS times after one that warms up. Also the chunk
messages a submission leaves on the queue, and those a cancel leaves.

In-process (Django's test client, no server) on a throw-away database and broker folder, with the test job kinds
(tests/jobkinds.py: `test_bulk`). Run from the repository root: `.venv/bin/python bench/submit.py`. Prints one JSON
line per figure.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SUBMISSIONS = int(os.environ.get("BENCH_SUBMISSIONS", "5"))
GAMES = 100_000


def main() -> None:
    os.environ["DREADGATE_VAR_DIR"] = tempfile.mkdtemp(prefix="bench-submit-")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["PLAYTEST_EXTRA_JOB_KIND_MODULES"] = "tests.jobkinds"
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    import _common
    from _common import percentile
    from celery import current_app
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings

    call_command("migrate", verbosity=0)
    client = Client()
    client.force_login(get_user_model().objects.create_user("bench", password="bench-passphrase-that-is-long"))

    def queued() -> int:
        with current_app.connection_for_write() as connection:
            return connection.default_channel._size(settings.PLAYTEST_QUEUE)

    def timed(path: str, body: dict | None = None) -> tuple[float, dict]:
        start = time.perf_counter()
        response = client.post(path, body or {}, content_type="application/json")
        milliseconds = (time.perf_counter() - start) * 1000
        assert response.status_code in (200, 202), response.content[:300]
        return milliseconds, response.json()

    submits, cancels, left_by_submit, left_by_cancel = [], [], [], []
    rates = {"runs": "1000000/hour", "writes": "1000000/minute"}
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates}}):
        timed(f"/api/runs/{timed('/api/runs/', {'kind': 'test_bulk', 'games': GAMES})[1]['id']}/cancel/")  # warm-up
        for seed in range(SUBMISSIONS):
            milliseconds, run = timed("/api/runs/", {"kind": "test_bulk", "games": GAMES, "seed": seed})
            submits.append(milliseconds)
            left_by_submit.append(queued())
            cancels.append(timed(f"/api/runs/{run['id']}/cancel/")[0])
            left_by_cancel.append(queued())
    env = {"games": GAMES, "chunks": GAMES // 100, "submissions": SUBMISSIONS, "database": "sqlite",
           "broker": "filesystem", "window": settings.PLAYTEST_DISPATCH_WINDOW, "cpus": os.cpu_count(),
           "transport": "in-process test client"}
    _common.emit("submit", "submission of 100,000 games p50", percentile(submits, 0.5), "ms", 200, "lower", env)
    _common.emit("submit", "submission of 100,000 games max", max(submits), "ms", 200, "lower", env)
    _common.emit("submit", "chunk messages queued by a submission", max(left_by_submit), "messages", None, "lower",
                 env, digits=0)
    _common.emit("submit", "cancel p50", percentile(cancels, 0.5), "ms", None, "lower", env)
    _common.emit("submit", "chunk messages left queued by a cancel", max(left_by_cancel), "messages", 0, "lower",
                 env, digits=0)


if __name__ == "__main__":
    main()
