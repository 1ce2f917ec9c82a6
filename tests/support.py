"""Helpers shared by tests: markers, waiting, migrating, and real worker processes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Transactional tests (live server, worker) commit their data, so the database is flushed after
# each; tests/conftest.py then loads the catalog again, so every test starts with it.
live_db = pytest.mark.django_db(transaction=True)


def migrate_to(targets):
    """Migrate the test database to `targets` (None: the latest schema); returns the models as they are there.
    (Migration tests also use the `latest_schema_after` fixture, which puts the latest schema back whatever
    their outcome.)"""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    state = executor.migrate(targets or executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()  # content types may be relabelled by a migration
    return state.apps


def without_tokens(html: str) -> str:
    """A page with its CSRF tokens blanked (in its forms and its htmx headers): each answer masks its own."""
    return re.sub(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+', r"\1", html)


def wait_for(predicate, timeout: float = 60, interval: float = 0.2, message: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"Timed out after {timeout} s waiting for {message}")


class WorkerProcess:
    """A real `celery worker` process on the test database."""

    def __init__(self, name: str, log_dir: Path, extra_env: dict[str, str] | None = None,
                 args: tuple[str, ...] = ("--concurrency=2",)) -> None:
        from django.db import connection

        self.log = log_dir / f"worker-{name}.log"
        # A worker sends each run's next chunks to PLAYTEST_QUEUE: the queue it listens to (-Q), if one is given.
        queue = {"PLAYTEST_QUEUE": args[args.index("-Q") + 1]} if "-Q" in args else {}
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings_test",
            "DREADGATE_TEST_DB_NAME": str(connection.settings_dict["NAME"]),
            **queue,
            **(extra_env or {}),
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=info",
             f"--hostname={name}@%h", "--without-gossip", "--without-mingle", *args],
            cwd=ROOT, env=env, stdout=self.log.open("w"), stderr=subprocess.STDOUT, start_new_session=True,
        )
        self.wait_ready()

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Worker exited early:\n{self.log.read_text()[-3000:]}")
            if " ready." in self.log.read_text():
                return
            time.sleep(0.2)
        raise RuntimeError(f"Worker not ready in {timeout} s:\n{self.log.read_text()[-3000:]}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the worker's main process only (its pool children die with it or are orphaned)."""
        os.kill(self.proc.pid, sig)
        self.proc.wait(10)

    def stop(self, *, graceful: bool = True) -> None:
        """A warm shutdown (what it is playing ends first), killed if it takes over 15 s; or, not `graceful`, killed
        at once: for a worker whose test session is over, where nothing it would finish is read again."""
        if self.proc.poll() is None:
            if graceful:
                os.killpg(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(15)
                    return
                except subprocess.TimeoutExpired:
                    pass
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
