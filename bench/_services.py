"""Shared by the end-to-end benches: their own PostgreSQL database and Redis, and Celery workers on a queue."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent


def admin_url(db_url: str) -> str:
    """The database URL with its credentials, on the maintenance database."""
    return urlparse(db_url)._replace(path="/postgres").geturl()


def unreachable(db_url: str, redis_url: str) -> Exception | None:
    """Why PostgreSQL or Redis can't be reached, or None when both answer."""
    import psycopg
    import redis

    try:
        with psycopg.connect(admin_url(db_url), connect_timeout=3):
            pass
        redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except Exception as exc:
        return exc
    return None


def recreate_database(db_url: str, create: bool) -> None:
    """Drop the bench's database (forcing out its sessions) and, if asked, create it empty."""
    import psycopg

    name = urlparse(db_url).path.lstrip("/")
    with psycopg.connect(admin_url(db_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if create:
            conn.execute(f'CREATE DATABASE "{name}"')


def start_workers(count: int, queue: str, hostname: str, env: dict) -> list[subprocess.Popen]:
    """`count` single-process Celery workers on `queue`, each in its own session (killed by process group)."""
    workers = [subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=1", "--loglevel=warning",
         f"--hostname={hostname}{i}@%h", "--without-gossip", "--without-mingle", "-Q", queue],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        for i in range(count)]
    time.sleep(4)  # let them connect before the clock starts
    return workers
