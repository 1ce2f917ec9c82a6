"""Card search under load: PostgreSQL with the full catalog, served by gunicorn, loaded from this process.

1. Open loop: a constant 100 searches/s for BENCH_SECONDS over a fixed mix of realistic queries
   (simple, stat ranges, boolean, text, sorted, deep pages) through GET /api/cards/. Latency is
   measured from each request's scheduled start, so a slow server cannot hide its queueing.
2. Saturation: 16 connections in a closed loop, first on the same search mix, then on a trivial
   endpoint of the same server (GET /api/crafts/: the whole Django and DRF stack, no database).

Both run twice: as deployed, with search answers cached per catalog version, then with that
cache off (figures labelled "answer cache off"), so that the cost of running every query is on
record too; the targets are printed with both (with the cache off: p95 under 5 ms at 100
searches/s, and at least 0.6 of the trivial endpoint's throughput). BENCH_PHASES=uncached runs
only the second. Searches go through the in-process index (SEARCH_ENGINE=index, as deployed);
BENCH_ENGINE=sql runs the SQL path instead.
The server's per-address throttles are raised for the run: every request comes from one address.

3. The index itself, in a process of its own on the same database: the time to build it from
   PostgreSQL (what the first search of a catalog version waits for: the part every search needs,
   then every part) and the memory it holds.

Run from the repository root: `.venv/bin/python bench/search.py`. PostgreSQL comes from
BENCH_DATABASE_URL (default: database dreadgate_bench_search on 127.0.0.1, created if missing).
Prints one JSON line per figure.
"""

from __future__ import annotations

import http.client
import os
import queue
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
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dreadgate_bench_search")
RATE = float(os.environ.get("BENCH_RATE", "100"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "30"))
COLD_SECONDS = float(os.environ.get("BENCH_COLD_SECONDS", "10"))
SATURATION_SECONDS = float(os.environ.get("BENCH_SATURATION_SECONDS", "10"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "3"))
PHASES = os.environ.get("BENCH_PHASES", "cached,uncached").split(",")  # which of the two phases to run
ENGINE = os.environ.get("BENCH_ENGINE", "index")  # SEARCH_ENGINE of the server: index or sql
CONNECTIONS = 16
CLIENT_THREADS = 64  # enough that the open loop never waits for a free client thread

# (query, extra parameters): what players type, from a name to a deep page of a sorted list.
MIX: list[tuple[str, dict[str, str]]] = [
    ("golem", {}),
    ("knight", {}),
    ('"of the"', {}),
    ("t:legend", {}),
    ("t:unit c:champion", {}),
    ("c:blue or c:purple", {}),
    ("atk>=7 def>=5", {}),
    ("vit<=3 rng=3", {}),
    ("t:unit atk>def order:atk direction:desc", {}),
    ("kw:aviation man>=2", {}),
    ("is:flying adir:s", {}),
    ("adir:n adir:s -adir:e", {}),
    ("mdir:ne or mdir:nw", {}),
    ("(c:green or c:orange) vit>=6 -is:unique", {}),
    ("kw:subdue or kw:execution", {}),
    ("o:draw", {}),
    ('o:"end of turn"', {}),
    ("-t:unit", {}),
    ('sub:"spell talent"', {}),
    ("t:item", {}),
    ("cn:U-9*", {}),
    ("is:unique t:unit order:vit", {}),
    ("t:unit order:vit", {"page": "50"}),
    ("", {"page": "120"}),
    ("c:red t:unit", {"order": "def", "direction": "desc", "page": "5"}),
    ("name:the", {"order": "cn"}),
]
PATHS = [
    "/api/cards/?" + urllib.parse.urlencode({"q": q, **params}) for q, params in MIX
]
TRIVIAL_PATH = "/api/crafts/"




def emit(figure: str, value: float, unit: str, target: float | None, better: str, env: dict) -> None:
    _common.emit("search", figure, value, unit, target, better, env)


def manage(*args: str, env: dict) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def prepare_database(env: dict) -> dict:
    import psycopg

    url = urllib.parse.urlsplit(DATABASE_URL)
    name = url.path.lstrip("/")
    admin = url._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    manage("migrate", "--noinput", env=env)
    manage("loadcatalog", env=env)
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        conn.execute("ANALYZE")  # fresh planner statistics after the bulk load
        cards = conn.execute("SELECT count(*) FROM cards_card").fetchone()[0]
        version = conn.execute("SELECT version FROM cards_catalogrelease ORDER BY loaded_at DESC LIMIT 1").fetchone()
    return {"cards": cards, "catalog_version": version[0] if version else None}




def get(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": "127.0.0.1", "Accept": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def start_server(env: dict, port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "config.wsgi:application",
         "--bind", f"127.0.0.1:{port}",
         "--workers", str(WORKERS), "--worker-class", "sync", "--backlog", "256", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if get(port, TRIVIAL_PATH) == 200:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    stop_server(server)
    raise SystemExit("gunicorn did not answer within 60 s")


def stop_server(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)


def open_loop(port: int, rate: float, seconds: float) -> tuple[list[float], int, float]:
    """Requests at a constant rate whatever the server does; latencies from scheduled start."""
    jobs: queue.Queue = queue.Queue()
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def client() -> None:
        while True:
            job = jobs.get()
            if job is None:
                return
            scheduled, path = job
            try:
                ok = get(port, path) == 200
            except OSError:
                ok = False
            elapsed = time.perf_counter() - scheduled
            with lock:
                latencies.append(elapsed * 1000)
                if not ok:
                    errors[0] += 1

    threads = [threading.Thread(target=client, daemon=True) for _ in range(CLIENT_THREADS)]
    for thread in threads:
        thread.start()
    total = int(rate * seconds)
    start = time.perf_counter() + 0.1
    for i in range(total):
        scheduled = start + i / rate
        delay = scheduled - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        jobs.put((scheduled, PATHS[i % len(PATHS)]))
    achieved = total / (time.perf_counter() - start)
    for _ in threads:
        jobs.put(None)
    for thread in threads:
        thread.join()
    return latencies, errors[0], achieved


def saturate(port: int, paths: list[str], seconds: float) -> tuple[float, int]:
    """Closed loop on CONNECTIONS connections: successful requests per second, and errors."""
    done = [0]
    errors = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client(offset: int) -> None:
        i = offset
        while time.perf_counter() < stop_at:
            try:
                ok = get(port, paths[i % len(paths)]) == 200
            except OSError:
                ok = False
            with lock:  # only answered searches count as throughput
                done[0] += 1 if ok else 0
                errors[0] += 0 if ok else 1
            i += 1

    start = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done[0] / (time.perf_counter() - start), errors[0]




def run_phase(env: dict, seconds: float) -> dict:
    """One server: the open loop at RATE, then saturation on the search mix and on the trivial endpoint."""
    port = free_port()
    server = start_server(env, port)
    try:
        for path in PATHS:  # warm every worker and check that the whole mix is valid
            for _ in range(WORKERS):
                status = get(port, path)
                if status != 200:
                    raise SystemExit(f"{path} answered {status}")
        latencies, errors, achieved = open_loop(port, RATE, seconds)
        search_rps, search_errors = saturate(port, PATHS, SATURATION_SECONDS)
        trivial_rps, trivial_errors = saturate(port, [TRIVIAL_PATH], SATURATION_SECONDS)
    finally:
        stop_server(server)
    return {"latencies": latencies, "errors": errors, "achieved": achieved, "search_rps": search_rps,
            "search_errors": search_errors, "trivial_rps": trivial_rps, "trivial_errors": trivial_errors}


def report(phase: dict, env_info: dict, suffix: str, p95_target: float, ratio_target: float) -> None:
    latencies = phase["latencies"]
    emit(f"p95 latency at {RATE:g} searches/s (open loop){suffix}", percentile(latencies, 0.95), "ms", p95_target,
         "lower", env_info)
    emit(f"p50 latency at {RATE:g} searches/s (open loop){suffix}", percentile(latencies, 0.50), "ms", None, "lower",
         env_info)
    emit(f"p99 latency at {RATE:g} searches/s (open loop){suffix}", percentile(latencies, 0.99), "ms", None, "lower",
         env_info)
    emit(f"errors at {RATE:g} searches/s (open loop){suffix}", phase["errors"], "requests", 0, "lower",
         env_info)
    emit(f"offered rate achieved{suffix}", phase["achieved"], "searches/s", RATE, "higher", env_info)
    emit(f"saturated search throughput, {CONNECTIONS} connections{suffix}", phase["search_rps"], "searches/s", None,
         "higher", {**env_info, "errors": phase["search_errors"]})
    emit(f"saturated trivial endpoint throughput, {CONNECTIONS} connections{suffix}", phase["trivial_rps"],
         "requests/s", None, "higher", {**env_info, "errors": phase["trivial_errors"], "endpoint": TRIVIAL_PATH})
    ratio = phase["search_rps"] / phase["trivial_rps"] if phase["trivial_rps"] else 0.0
    emit(f"search / trivial throughput ratio{suffix}", ratio, "ratio", ratio_target, "higher", env_info)


# Run in a process of its own on the bench database: the build time of the index and what it holds.
INDEX_PROBE = """
import json, resource, time, tracemalloc
from cards.search.index import CatalogIndex
from cards.selectors import catalog_stamp_recent
stamp = catalog_stamp_recent()
CatalogIndex(stamp, "/cards/CN.svg").build_all()  # connections, imports and caches warm
start = time.perf_counter(); index = CatalogIndex(stamp, "/cards/CN.svg"); first = time.perf_counter() - start
index.build_all(); whole = time.perf_counter() - start
del index
tracemalloc.start()
index = CatalogIndex(stamp, "/cards/CN.svg").build_all()
held = tracemalloc.get_traced_memory()[0]
print(json.dumps({"first": first, "whole": whole, "held": held, "cards": index.size}))
"""


def index_figures(env: dict, env_info: dict) -> None:
    import json

    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", INDEX_PROBE], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    probe = json.loads(out.strip().splitlines()[-1])
    info = {**env_info, "cards": probe["cards"]}
    emit("index build, the parts every search needs (first search of a catalog version)", probe["first"] * 1000,
         "ms", None, "lower", info)
    emit("index build, every part (texts, every sort order, every result row)", probe["whole"] * 1000, "ms", None,
         "lower", info)
    emit("index memory, every part built (tracemalloc)", probe["held"] / 1e6, "MB", None, "lower", info)


def main() -> None:
    env = {**os.environ, "DATABASE_URL": DATABASE_URL, "DJANGO_DEBUG": "false", "SEARCH_ENGINE": ENGINE,
           "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
           "LOG_LEVEL": "ERROR",
           # One client address at hundreds of requests a second: the per-address throttles would
           # answer most of them 429 and the bench would time refusals, not searches.
           "THROTTLE_SEARCH": "1000000/second", "THROTTLE_ANON": "1000000/second"}
    catalog = prepare_database(env)
    env_info = {
        "database": "postgresql", "server": f"gunicorn sync x{WORKERS}", "cards": catalog["cards"],
        "catalog_version": catalog["catalog_version"], "queries": len(PATHS), "rate": RATE,
        "cpus": os.cpu_count(), "engine": ENGINE,
    }
    # As deployed: answers cached per catalog version (SEARCH_CACHE_SECONDS, default on).
    if "cached" in PHASES:
        cached = run_phase({**env, "SEARCH_CACHE_SECONDS": "600"}, SECONDS)
        report(cached, {**env_info, "answer_cache": "on", "seconds": SECONDS,
                        "load_average": round(os.getloadavg()[0], 2)}, "", 30, 0.5)
    # Every search parsed, compiled and run in PostgreSQL: what a query never seen before costs.
    if "uncached" in PHASES:
        cold = run_phase({**env, "SEARCH_CACHE_SECONDS": "0"}, COLD_SECONDS)
        report(cold, {**env_info, "answer_cache": "off", "seconds": COLD_SECONDS,
                      "load_average": round(os.getloadavg()[0], 2)}, ", answer cache off", 5, 0.6)
    index_figures(env, {"database": "postgresql", "catalog_version": catalog["catalog_version"]})


if __name__ == "__main__":
    main()
