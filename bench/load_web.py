"""What a web request costs, kind by kind, on the deployed shape: gunicorn, PostgreSQL, Redis, 2 Celery workers.

bench/load.py measures the mix as users see it; this bench says where its cost comes from. In one run it measures,
for each kind of request:

- bare: a plain Django JsonResponse view with Django's default middleware alone, on a server of its own
  (bench/bare_settings.py, bench/bare_urls.py and bench/bare_wsgi.py, which exist for this bench only; Django's
  WSGI application as Django serves it, without the product's start of a web process, config/serving.py): the floor;
- trivial: GET /api/keywords/, the API's cheapest endpoint (DRF, the product's middleware, a session);
- search, deck_page, deck_edit (GET for the ETag, then PATCH), job_submit (POST a 10-game playtest, then cancel
  it): the kinds of bench/load.py's mix; mix: those four in its proportions;
- validation (POST /api/decks/validate/, a starter's list) and mix_validation: the mix as the web path's targets
  state it, 40% search, 30% deck page, 20% validation, 10% run submission (with its cancel), a deck list validated
  where bench/load.py's users edit their deck;
- catalog_page (GET /cards/?q=, the mix's searches as the catalog page shows them) and card_page (GET /cards/<number>/,
  of some 200 cards spread over the catalog, as a few hundred cards are most of what players look up): the pages of
  the catalog, outside the mix;
- run_status: GET /playtest/runs/<id>/progress/, what the run's page polls every second while it plays (a run of
  BENCH_RUN_GAMES games, default 2000, of each user's, submitted before the phase and cancelled after it: the
  workers play them meanwhile), and the trivial endpoint again in the same conditions ("trivial, runs playing");
- baseline trivial and baseline mix: the same, served by the code at BENCH_BASELINE (a git ref, the code before
  the web path's round trips were cut), on a server of its own on the same database, so that no ratio below is met
  by slowing its denominator.

Figures of each kind: requests/s at saturation (BENCH_CONNECTIONS clients, default 8, each sending as soon as its
last request is answered, for BENCH_KIND_SECONDS, default 8); web CPU ms per request, from the web server's own
processes' CPU time (/proc) over that phase; SQL queries and cache round trips per request, counted in this process
through the same stack (Django's test client on the same database and Redis, each request made twice first, so
that the figure is a warm one: tests/roundtrips.py counts); and p50/p95 latency at a fixed open-loop rate
(BENCH_RATE requests/s, default 10, each request sent at its scheduled time whatever the others do, latency
counted from that time).

Targets, as ratios in the run: each mix at most 2x the trivial endpoint's CPU per request; the trivial endpoint at
most 1.5x the bare view's, and no higher than on the baseline; run status polling no more than the trivial
endpoint measured while the same runs play.

Run from the repository root: `.venv/bin/python bench/load_web.py` (or `make bench BENCH=load_web`). The database
and Redis are bench/load.py's (BENCH_DATABASE_URL, BENCH_REDIS_URL); BENCH_WEB_WORKERS (4) gunicorn workers per
server; BENCH_KINDS (comma-separated) runs some kinds only; BENCH_BASELINE empty skips the baseline, and
BENCH_BASELINE_KINDS (default trivial,mix) names the kinds the baseline serves. Rate limits are raised for the run,
as in bench/load.py. Prints one JSON line per figure.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import _common
import load
from _common import free_port, percentile

ROOT = Path(__file__).resolve().parent.parent
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "8"))
KIND_SECONDS = float(os.environ.get("BENCH_KIND_SECONDS", "8"))
RATE = float(os.environ.get("BENCH_RATE", "10"))
WARM_UP_SECONDS = 3.0
RUN_GAMES = int(os.environ.get("BENCH_RUN_GAMES", "2000"))  # a run's games, to outlast the run_status phase
CLIENTS = 16  # users logged in (one per saturating client, and a few more for the open-loop phase)
BASELINE = os.environ.get("BENCH_BASELINE", "17d4d1eebedff0ee7cb4a60eb89d7d12774d95d4")
KINDS = ["bare", "trivial", "search", "deck_page", "deck_edit", "validation", "job_submit", "run_status", "mix",
         "mix_validation", "catalog_page", "card_page"]
# The mix as the web path's targets state it: a deck list validated (POST /api/decks/validate/) where bench/load.py's
# users edit their deck.
MIX_VALIDATION = [("search", 40), ("deck_page", 30), ("validation", 20), ("job_submit", 10)]
MIXES = {"mix": load.MIX, "mix_validation": MIX_VALIDATION}
VALIDATED: list[str] = []  # the deck list the validation kind sends (a starter's, read once the database is ready)
CARDS: list[str] = []  # collector numbers the card_page kind asks for (read once the database is ready)
BASELINE_KINDS = os.environ.get("BENCH_BASELINE_KINDS", "trivial,mix").split(",")
ONLY = [k for k in os.environ.get("BENCH_KINDS", "").split(",") if k]


def emit(figure: str, value: float, unit: str, target: float | None, better: str, env: dict) -> None:
    _common.emit("load_web", figure, value, unit, target, better, env)


def start_server(port: int, settings: str, cwd: Path) -> subprocess.Popen:
    env = {**load.environment(), "DJANGO_SETTINGS_MODULE": settings}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "bench.bare_wsgi:application" if settings.startswith("bench.")
         else "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(load.WEB_WORKERS), "--backlog", "512", "--log-level", "warning"],
        cwd=cwd, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/bench/bare/" if settings.startswith("bench.") else "/healthz")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            pass
        time.sleep(0.3)
    load.stop([proc])
    raise SystemExit(f"the {settings} server in {cwd} did not come up within 60 s")


def group_cpu(pgid: int) -> float:
    """CPU seconds used so far by the processes of one process group (a gunicorn master and its workers)."""
    return sum(seconds for group, _, seconds in _common.process_cpu() if group == pgid)


class User:
    """One logged-in user: its session on a server, its deck, and a run of its own to poll."""

    def __init__(self, port: int, name: str, deck: int) -> None:
        self.session, self.deck, self.run = load.Session(port), deck, None
        self.name = name

    def on(self, port: int) -> load.Session:
        """The same cookies, sent to another server on the same database and cache."""
        session = load.Session(port)
        session.cookies = self.session.cookies
        return session


def requests_of(kind: str, user: User, rng: random.Random, public: list[int]) -> list[tuple]:
    """The requests one action of `kind` makes: [(method, path, body, headers or a callable of the last answer)]."""
    if kind in MIXES:
        ops, weights = zip(*MIXES[kind], strict=True)
        kind = rng.choices(ops, weights)[0]
    if kind == "bare":
        return [("GET", "/bench/bare/", None, None)]
    if kind == "trivial":
        return [("GET", "/api/keywords/", None, None)]
    if kind == "search":
        return [("GET", "/api/cards/?" + urllib.parse.urlencode({"q": rng.choice(load.QUERIES)}), None, None)]
    if kind == "catalog_page":
        return [("GET", "/cards/?" + urllib.parse.urlencode({"q": rng.choice(load.QUERIES)}), None, None)]
    if kind == "card_page":
        return [("GET", f"/cards/{rng.choice(CARDS)}/", None, None)]
    if kind == "deck_page":
        return [("GET", f"/decks/{rng.choice(public)}/", None, None)]
    if kind == "deck_edit":
        return [("GET", f"/api/decks/{user.deck}/", None, None),
                ("PATCH", f"/api/decks/{user.deck}/", {"description": f"edited {rng.random()}"},
                 lambda headers: {"If-Match": headers.get("ETag", '"0"')})]
    if kind == "validation":
        return [("POST", "/api/decks/validate/", {"format": "standard", "list": VALIDATED[0]}, None)]
    if kind == "job_submit":
        return [("POST", "/api/runs/", {"kind": "dreadgate_playtest", "games": 10,
                                        "params": {"deck": user.deck, "mode": "goldfish"}}, None),
                ("POST", "/api/runs/{id}/cancel/", {}, None)]
    if kind == "run_status":
        return [("GET", f"/playtest/runs/{user.run}/progress/", None, {"HX-Request": "true"})]
    raise ValueError(kind)


def act(session, calls: list[tuple], out: list, began: float | None = None) -> None:
    """Sends one action's requests in turn; appends (status, seconds) of each (from `began`, if given, for the
    first: the time it was due)."""
    headers, data = {}, b""
    for method, path, body, extra in calls:
        if "{id}" in path:
            path = path.replace("{id}", str(json.loads(data).get("id", 0)) if data else "0")
        started = began if began is not None else time.monotonic()
        began = None
        try:
            status, data, headers = session.call(method, path, body, extra(headers) if callable(extra) else extra)
        except OSError:
            status, data = 599, b""
        out.append((status, time.monotonic() - started))


def saturate(kind: str, users: list[User], port: int, public: list[int], pgid: int,
             seconds: float = KIND_SECONDS) -> tuple[float, float, list]:
    """(requests/s, web CPU ms per request, [(status, seconds)]) with CONNECTIONS clients sending back to back."""
    results: list = []
    stop_at = time.monotonic() + seconds

    def client(n: int) -> None:
        rng, user = random.Random(n), users[n]
        session = user.on(port)
        while time.monotonic() < stop_at:
            act(session, requests_of(kind, user, rng, public), results)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CONNECTIONS)]
    cpu, began = group_cpu(pgid), time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed, cpu = time.monotonic() - began, group_cpu(pgid) - cpu
    return len(results) / elapsed, cpu * 1000 / max(1, len(results)), results


def open_loop(kind: str, users: list[User], port: int, public: list[int]) -> list:
    """[(status, seconds)] of actions started at RATE per second for KIND_SECONDS, each at its time."""
    results: list = []
    rng = random.Random(7)
    count = int(RATE * KIND_SECONDS)
    sessions = [user.on(port) for user in users]
    with ThreadPoolExecutor(max_workers=64) as pool:
        began = time.monotonic()
        for n in range(count):
            due = began + n / RATE
            time.sleep(max(0.0, due - time.monotonic()))
            user = users[n % len(users)]
            pool.submit(act, sessions[n % len(users)], requests_of(kind, user, rng, public), results, due)
    return results


def counts(kind: str, users: list[User], public: list[int]) -> tuple[float, float]:
    """SQL queries and cache round trips per request of `kind`, warm, through Django's test client here."""
    from django.test import Client
    from django.test.utils import override_settings

    from tests.roundtrips import counted

    user = users[0]
    client = Client(HTTP_HOST="127.0.0.1")
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username=user.name))
    overrides = {}
    if kind == "bare":
        import bare_settings

        overrides = {"ROOT_URLCONF": "bench.bare_urls", "MIDDLEWARE": bare_settings.MIDDLEWARE}
    totals, requests = [0, 0], 0
    kinds = [k for k, _ in MIXES[kind]] if kind in MIXES else [kind]
    with override_settings(**overrides):
        for one in kinds:
            weight = dict(MIXES[kind]).get(one, 1) if kind in MIXES else 1
            for attempt in range(3):
                calls = requests_of(one, user, random.Random(0), public)  # the same request each time
                with counted() as trips:
                    data, headers = b"", {}
                    for method, path, body, extra in calls:
                        if "{id}" in path:
                            path = path.replace("{id}", str(json.loads(data).get("id", 0)))
                        extra = extra(headers) if callable(extra) else (extra or {})
                        meta = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in extra.items()}
                        response = client.generic(method, path, json.dumps(body) if body is not None else "",
                                                  content_type="application/json", **meta)
                        data, headers = response.content, response.headers
                if attempt == 2:  # warm: the answer caches hold what the first two made
                    totals[0] += trips.queries * weight
                    totals[1] += trips.cache * weight
                    requests += len(calls) * weight
    return totals[0] / requests, totals[1] / requests


def runs_under_way(users: list[User]) -> None:
    """A run of each user's that is still playing while its progress is polled (the page polls only then): long
    enough to outlast the phase, played by the workers meanwhile, as in use."""
    for user in users:
        status, data, _ = user.session.call("POST", "/api/runs/", {
            "kind": "dreadgate_playtest", "games": RUN_GAMES, "params": {"deck": user.deck, "mode": "goldfish"}})
        if status != 202:
            raise SystemExit(f"a run to poll was refused: {status} {data[:200]!r}")
        user.run = json.loads(data)["id"]


def runs_cancel(users: list[User]) -> None:
    for user in users:
        status, data, _ = user.session.call("GET", f"/api/runs/{user.run}/")
        if json.loads(data)["status"] in ("done", "failed", "cancelled"):
            print(f"run {user.run} finished while its progress was measured: BENCH_RUN_GAMES is too low",
                  file=sys.stderr)
        user.session.call("POST", f"/api/runs/{user.run}/cancel/", {})


def baseline_tree() -> Path | None:
    if not BASELINE:
        return None
    tree = Path(tempfile.mkdtemp(prefix="dreadgate-baseline-"))
    archive = subprocess.run(["git", "archive", BASELINE], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def measure(label: str, kind: str, users: list[User], port: int, pgid: int, public: list[int], env: dict,
            figures: dict) -> None:
    # Unmeasured first: every worker process imports, connects and fills its in-process caches (the search index).
    saturate(kind, users[:CONNECTIONS], port, public, pgid, WARM_UP_SECONDS)
    rate, cpu, saturated = saturate(kind, users[:CONNECTIONS], port, public, pgid)
    latencies = open_loop(kind, users, port, public)
    figures[label] = cpu
    mine = {**env, "kind": kind, "load_average": os.getloadavg()[0]}
    bad = sum(1 for status, _ in saturated + latencies if status >= 400)
    emit(f"{label} requests/s at saturation", rate, "requests/s", None, "higher", {**mine, "clients": CONNECTIONS})
    emit(f"{label} web CPU per request", cpu, "ms", None, "lower", mine)
    times = [t for _, t in latencies]
    emit(f"{label} p50 latency at {RATE:g}/s", percentile(times, 0.5) * 1000, "ms", None, "lower", mine)
    emit(f"{label} p95 latency at {RATE:g}/s", percentile(times, 0.95) * 1000, "ms", None, "lower", mine)
    emit(f"{label} errors", bad, "responses", 0, "lower", mine)
    if label == kind:  # counted once per kind, on this code
        queries, trips = counts(kind, users, public)
        emit(f"{label} SQL queries per request", queries, "queries", None, "lower", mine)
        emit(f"{label} cache round trips per request", trips, "round trips", None, "lower", mine)


def main() -> None:
    prepared = load.prepare()[:CLIENTS]
    from cards.models import Card

    numbers = list(Card.objects.order_by("collector_number").values_list("collector_number", flat=True))
    CARDS[:] = numbers[:: max(1, len(numbers) // 200)]
    from decks.decklist import format_deck_list
    from decks.models import Deck
    from decks.selectors import deck_entries

    VALIDATED[:] = [format_deck_list(deck_entries(Deck.objects.filter(is_starter=True).order_by("pk").first()))]
    port, bare_port = free_port(), free_port()
    stack = load.start(port)
    servers = [start_server(bare_port, "bench.bare_settings", ROOT)]
    tree = baseline_tree()
    base_port = free_port()
    if tree:
        servers.append(start_server(base_port, "config.settings", tree))
    env = {"web_workers": load.WEB_WORKERS, "celery_workers": 2, "database": "postgresql", "broker": "redis",
           "cpus": os.cpu_count(), "seconds": KIND_SECONDS, "rate": RATE}
    figures: dict[str, float] = {}
    try:
        users = [User(port, name, deck) for name, deck in prepared]
        for user in users:
            user.session.log_in(user.name)
        public = [deck for _, deck in prepared]
        for kind in KINDS:
            if ONLY and kind not in ONLY:
                continue
            server = (bare_port, servers[0].pid) if kind == "bare" else (port, stack[0].pid)
            if kind == "run_status":
                runs_under_way(users)
            measure(kind, kind, users, *server, public, env, figures)
            if kind == "run_status":
                # The trivial endpoint again while the runs play: the workers share the cores, which the poll's
                # figure pays for and the trivial endpoint's first one (on idle workers) does not.
                measure("trivial, runs playing", "trivial", users, *server, public, env, figures)
                runs_cancel(users)
        if tree:
            for kind, _ in load.MIX:  # its workers warm, as this code's are after the kinds above
                saturate(kind, users[:CONNECTIONS], base_port, public, servers[1].pid, WARM_UP_SECONDS)
            for kind in BASELINE_KINDS:
                if not ONLY or kind in ONLY:
                    measure(f"baseline {kind}", kind, users, base_port, servers[1].pid, public,
                            {**env, "code": BASELINE}, figures)

        def ratio(figure: str, top: str, bottom: str, target: float) -> None:
            if top in figures and bottom in figures:
                emit(figure, figures[top] / max(figures[bottom], 1e-9), "ratio", target, "lower", env)

        ratio("mix / trivial web CPU per request", "mix", "trivial", 2.0)
        ratio("mix_validation / trivial web CPU per request", "mix_validation", "trivial", 2.0)
        ratio("trivial / bare web CPU per request", "trivial", "bare", 1.5)
        ratio("trivial / baseline trivial web CPU per request", "trivial", "baseline trivial", 1.0)
        ratio("run_status / trivial web CPU per request", "run_status", "trivial", None)
        ratio("run_status / trivial web CPU per request, both while runs play", "run_status",
              "trivial, runs playing", 1.0)
        ratio("mix / baseline mix web CPU per request", "mix", "baseline mix", None)
    finally:
        load.stop(servers + stack)
        if tree:
            shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    main()
