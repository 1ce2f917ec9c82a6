"""Mixed load: catalog search, deck pages, deck edits and job submissions from many users at once,
against the deployed shape on loopback: gunicorn, PostgreSQL, Redis and 2 Celery workers.

Each simulated user logs in once (a session, as a browser has) and then, for BENCH_SECONDS
(default 60), acts and thinks: after each action it waits a think time drawn uniformly from
BENCH_THINK_SECONDS (default 0.5-1.5 s, a brisk player; real ones read a page for longer).
Actions: 40% card searches (GET /api/cards/?q=...), 30% public deck pages (GET /decks/<id>/),
20% deck edits (GET /api/decks/<own>/ for the ETag, then PATCH with If-Match), 10% job
submissions (POST /api/runs/, a 10-game Dreadgate playtest of their deck, then cancel it so that
the workers' load stays bounded). Rate limits are raised for the run (this measures capacity, not
the limits); a 429 would count as a refusal, a 5xx as a server error.

Run from the repository root: `.venv/bin/python bench/load.py`. BENCH_DATABASE_URL (default
database dreadgate_bench_load on 127.0.0.1:5432, created and loaded if missing), BENCH_REDIS_URL
(default redis://127.0.0.1:6379/7), BENCH_USERS (50), BENCH_SECONDS (60), BENCH_WEB_WORKERS (4),
BENCH_CELERY_WORKERS (2; 0 leaves the submitted runs queued: the web's share alone, as with the workers on a
host of their own).

A second phase (BENCH_SATURATION_SECONDS, default 30; 0 skips it) drops the think time: every
user sends its next request as soon as the last one is answered, which measures the stack's
capacity (requests per second at saturation) rather than what the users see.

Prints one JSON line per figure.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import _common
from _common import free_port, percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dreadgate_bench_load")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
USERS = int(os.environ.get("BENCH_USERS", "50"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
WEB_WORKERS = int(os.environ.get("BENCH_WEB_WORKERS", "4"))
CELERY_WORKERS = int(os.environ.get("BENCH_CELERY_WORKERS", "2"))  # 0: the runs wait, as with workers on another host
THINK = tuple(float(x) for x in os.environ.get("BENCH_THINK_SECONDS", "0.5-1.5").split("-"))
SATURATION_SECONDS = float(os.environ.get("BENCH_SATURATION_SECONDS", "30"))
PASSWORD = "bench-load-passphrase-1"
QUERIES = ["golem", "t:legend", "c:blue or c:purple", "atk>=7 def>=5", "kw:aviation man>=2", "o:draw",
           "t:unit c:champion", "vit<=3 rng=3", '"of the"', "adir:n adir:s -adir:e"]
MIX = [("search", 40), ("deck_page", 30), ("deck_edit", 20), ("job_submit", 10)]

SERVER_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "false", "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL, "CACHE_URL": REDIS_URL.rsplit("/", 1)[0] + "/8",
    "THROTTLE_RUNS": "100000/hour", "THROTTLE_IMPORTS": "100000/hour", "THROTTLE_SEARCH": "100000/minute",
    "THROTTLE_ANON": "100000/minute", "THROTTLE_WRITES": "100000/minute", "PLAYTEST_MAX_ACTIVE_RUNS": "1000",
    "LOG_LEVEL": "ERROR",
}


def emit(figure: str, value: float, unit: str, target: float | None, better: str, env: dict) -> None:
    _common.emit("load", figure, value, unit, target, better, env)


def environment() -> dict:
    env = {**os.environ, **SERVER_ENV}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def prepare() -> list[tuple[str, int]]:
    """Database with the catalog, and USERS users each owning one public deck: [(username, deck id)]."""
    import psycopg

    url = urllib.parse.urlsplit(DATABASE_URL)
    name = url.path.lstrip("/")
    with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as conn:
        fresh = not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if fresh:
            conn.execute(f'CREATE DATABASE "{name}"')
    env = environment()
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    if fresh:
        subprocess.run([sys.executable, "manage.py", "loadcatalog"], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    os.environ.update(SERVER_ENV)
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from decks.models import Deck, Visibility
    from decks.services import deck_copy

    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    users = []
    for n in range(USERS):
        user, created = get_user_model().objects.get_or_create(username=f"load-user-{n}")
        if created:
            user.set_password(PASSWORD)
            user.save()
        deck = Deck.objects.filter(owner=user).first() or deck_copy(deck=starter, owner=user, name=f"Load deck {n}")
        Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PUBLIC)
        users.append((user.username, deck.pk))
    return users


def start(port: int) -> list[subprocess.Popen]:
    env = environment()
    log = open(os.devnull, "w")  # noqa: SIM115  (lives as long as the processes)
    procs = [subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "config.wsgi:application",
         "--bind", f"127.0.0.1:{port}",
         "--workers", str(WEB_WORKERS), "--backlog", "512", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True)]
    for n in range(CELERY_WORKERS):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency=1", "--loglevel=error",
             f"--hostname=load{n}@%h", "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return procs
        except OSError:
            pass
        time.sleep(0.3)
    stop(procs)
    raise SystemExit("the stack did not come up within 60 s")


def stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


class Session:
    """One user's cookies over plain HTTP/1.1 (gunicorn's sync workers close each connection)."""

    def __init__(self, port: int) -> None:
        self.port, self.cookies = port, {}

    def call(self, method: str, path: str, body: dict | str | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        hdrs = {"Host": "127.0.0.1", "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if "csrftoken" in self.cookies:
            hdrs["X-CSRFToken"] = self.cookies["csrftoken"]
        if isinstance(body, dict):
            body, hdrs["Content-Type"] = json.dumps(body), "application/json"
        elif isinstance(body, str):
            hdrs["Content-Type"] = "application/x-www-form-urlencoded"
        hdrs.update(headers or {})
        try:
            conn.request(method, path, body=body, headers=hdrs)
            response = conn.getresponse()
            data = response.read()
            for value in response.headers.get_all("Set-Cookie") or []:
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
            return response.status, data, response.headers
        finally:
            conn.close()

    def log_in(self, username: str) -> None:
        _, page, _ = self.call("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode({"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token})
        status, _, _ = self.call("POST", "/accounts/login/", form, {"Referer": f"http://127.0.0.1:{self.port}/"})
        if status != 302:
            raise SystemExit(f"log-in of {username} answered {status}")


def user_loop(session: Session, deck_id: int, public: list[int], stop_at: float, out: list, seed: int,
              think: tuple[float, float] | None) -> None:
    rng = random.Random(seed)
    ops, weights = zip(*MIX, strict=True)
    if think:  # users arrive spread over one think time, not all in the same instant
        time.sleep(rng.uniform(0, think[1]))
    while time.monotonic() < stop_at:
        op = rng.choices(ops, weights)[0]
        calls = []
        if op == "search":
            query = urllib.parse.urlencode({"q": rng.choice(QUERIES)})
            calls.append(("GET", f"/api/cards/?{query}", None, None))
        elif op == "deck_page":
            calls.append(("GET", f"/decks/{rng.choice(public)}/", None, None))
        elif op == "deck_edit":
            started = time.monotonic()
            status, _, headers = session.call("GET", f"/api/decks/{deck_id}/")
            out.append(("deck_edit", status, time.monotonic() - started))
            calls.append(("PATCH", f"/api/decks/{deck_id}/", {"description": f"edited {rng.random()}"},
                          {"If-Match": headers.get("ETag", '"0"')}))
        else:
            calls.append(("POST", "/api/runs/", {"kind": "dreadgate_playtest", "games": 10,
                                                  "params": {"deck": deck_id, "mode": "goldfish"}}, None))
        for method, path, body, headers in calls:
            started = time.monotonic()
            try:
                status, data, _ = session.call(method, path, body, headers)
            except OSError:
                status, data = 599, b""
            out.append((op, status, time.monotonic() - started))
            if op == "job_submit" and status == 202:
                run_id = json.loads(data)["id"]
                started = time.monotonic()
                status, _, _ = session.call("POST", f"/api/runs/{run_id}/cancel/", {})
                out.append(("job_cancel", status, time.monotonic() - started))
        if think:
            time.sleep(rng.uniform(*think))


def cpu_seconds(procs: list[subprocess.Popen]) -> dict[str, float]:
    """CPU time used so far by the web server, the workers, PostgreSQL and this process (from /proc)."""
    groups = {procs[0].pid: "web", **{p.pid: "workers" for p in procs[1:]}}
    used = {"web": 0.0, "workers": 0.0, "postgresql": 0.0, "load generator": time.process_time()}
    for pgid, comm, seconds in _common.process_cpu():
        group = groups.get(pgid)  # the process group: each stack process leads its own
        if group:
            used[group] += seconds
        elif comm == "postgres":
            used["postgresql"] += seconds
    return used


def run_phase(sessions: list, public: list[int], seconds: float, think: tuple[float, float] | None):
    """[(operation, status, seconds)] of every request of one phase, and the phase's length."""
    results: list = []
    stop_at = time.monotonic() + seconds
    threads = [threading.Thread(target=user_loop, args=(session, deck, public, stop_at, results, n, think))
               for n, (session, deck) in enumerate(sessions)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, time.monotonic() - began


def report(results: list, elapsed: float, cpu: dict[str, float], env: dict, *, label: str = "",
           target: float | None = None) -> None:
    latencies = [t for _, _, t in results]
    emit(f"requests per second{label}", len(results) / elapsed, "requests/s", None, "higher", env)
    for part, seconds in cpu.items():  # where the machine's time went: CPU ms per request served
        emit(f"{part} CPU per request{label}", seconds * 1000 / max(1, len(results)), "ms", None, "lower",
             {**env, "cores_busy": round(seconds / elapsed, 2)})
    emit(f"p50 latency{label}", percentile(latencies, 0.50) * 1000, "ms", None, "lower", env)
    emit(f"p95 latency{label}", percentile(latencies, 0.95) * 1000, "ms", target, "lower", env)
    emit(f"p99 latency{label}", percentile(latencies, 0.99) * 1000, "ms", None, "lower", env)
    emit(f"server errors{label}", sum(1 for _, status, _ in results if status >= 500), "responses", 0, "lower", env)
    emit(f"rate-limited responses{label}", sum(1 for _, status, _ in results if status == 429), "responses", 0,
         "lower", env)
    for op in ("search", "deck_page", "deck_edit", "job_submit", "job_cancel"):
        mine = [t for name, _, t in results if name == op]
        emit(f"{op} p95 latency{label}", percentile(mine, 0.95) * 1000, "ms", None, "lower",
             {**env, "requests": len(mine)})
    unexpected: dict[str, int] = {}
    for op, status, _ in results:
        if status >= 400:
            unexpected[f"{op} {status}"] = unexpected.get(f"{op} {status}", 0) + 1
    emit(f"client errors (4xx){label}", sum(v for k, v in unexpected.items() if " 4" in k), "responses", 0,
         "lower", {**env, "by_operation": unexpected})


def main() -> None:
    users = prepare()
    port = free_port()
    procs = start(port)
    env = {"users": USERS, "web_workers": WEB_WORKERS, "celery_workers": CELERY_WORKERS, "database": "postgresql",
           "broker": "redis", "cpus": os.cpu_count(), "mix": dict(MIX)}
    try:
        sessions = []
        for name, deck in users:
            session = Session(port)
            session.log_in(name)
            sessions.append((session, deck))
        public = [deck for _, deck in users]
        phases = [(SECONDS, THINK, "", {"think_seconds": list(THINK)}, 100)]
        if SATURATION_SECONDS:
            phases.append((SATURATION_SECONDS, None, ", saturated (no think time)", {"think_seconds": 0}, None))
        for seconds, think, label, extra, target in phases:
            before = cpu_seconds(procs)
            results, elapsed = run_phase(sessions, public, seconds, think)
            after = cpu_seconds(procs)
            cpu = {part: after[part] - before[part] for part in before}
            report(results, elapsed, cpu, {**env, "seconds": seconds, **extra}, label=label, target=target)
    finally:
        stop(procs)


if __name__ == "__main__":
    main()
