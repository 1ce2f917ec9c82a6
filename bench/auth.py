"""What an authenticated API request costs: a personal access token against a browser session,
and the password check that HTTP Basic ran on every request (before the API dropped it).

In-process (Django's test client, no server), with the production password hasher, on a
throw-away SQLite database: GET /api/runs/ (authenticated, cheap) BENCH_REQUESTS times each.
Run from the repository root: `.venv/bin/python bench/auth.py`. Prints one JSON line per figure.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "200"))
PASSWORD_CHECKS = int(os.environ.get("BENCH_PASSWORD_CHECKS", "10"))


def main() -> None:
    os.environ["DREADGATE_VAR_DIR"] = tempfile.mkdtemp(prefix="bench-auth-")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    import _common
    from _common import percentile
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import override_settings

    from config.accounts.services import token_create

    call_command("migrate", verbosity=0)
    password = "bench-passphrase-that-is-long"
    user = get_user_model().objects.create_user("bench", password=password)
    _, token = token_create(user=user, name="bench")
    env = {"requests": REQUESTS, "hasher": "default (PBKDF2)", "transport": "in-process test client"}

    def timed(client: Client, **headers) -> list[float]:
        times = []
        for _ in range(REQUESTS):
            start = time.perf_counter()
            response = client.get("/api/runs/", **headers)
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, response.content[:200]
        return times

    rates = {"anon_burst": "1000000/minute", "writes": "1000000/minute"}
    from django.conf import settings

    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates}}):
        session = Client()
        session.force_login(user)
        by_session = timed(session)
        by_token = timed(Client(), HTTP_AUTHORIZATION=f"Bearer {token}")
    checks = []
    for _ in range(PASSWORD_CHECKS):
        start = time.perf_counter()
        assert user.check_password(password)
        checks.append((time.perf_counter() - start) * 1000)
    for name, values in (("session request", by_session), ("token request", by_token)):
        _common.emit("auth", f"{name} p50", percentile(values, 0.5), "ms", None, "lower", env)
        _common.emit("auth", f"{name} p95", percentile(values, 0.95), "ms", None, "lower", env)
    _common.emit("auth", "password check (what HTTP Basic added to every request) p50", percentile(checks, 0.5),
                 "ms", None, "lower", {**env, "checks": PASSWORD_CHECKS})


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
