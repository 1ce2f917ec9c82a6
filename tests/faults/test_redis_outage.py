"""Redis, shared by the cache and the job broker (docs/operations.md), stopped and started again while requests
run: every page and API request still answers from the database (nothing answers 500), and every run submitted,
before, during or after an outage, is played once Redis is back. A worker that had a chunk in hand when Redis went
away reconnects and finishes the run."""

import http.cookiejar
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from typing import NamedTuple

import pytest

from decks.models import Deck, Visibility
from playtest.models import Run, RunStatus
from tests.support import live_db

from .support import WebServer, wait_until
from .test_broker_faults import expected_values

pytestmark = [live_db, pytest.mark.worker, pytest.mark.faults]

GAMES = 10  # one chunk a run
OUTAGES = 2
UP_SECONDS, DOWN_SECONDS = 3, 4


class Answer(NamedTuple):
    what: str
    expected: int
    status: int
    during_outage: bool
    seconds: float


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 302 is an answer to count, not to follow


class Visitor:
    """A browser: cookies kept, redirects not followed."""

    def __init__(self, web: WebServer) -> None:
        self.base = f"http://127.0.0.1:{web.port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirects)

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def request(self, path: str, form: dict | None = None) -> int:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data=data), timeout=30) as response:
                response.read()
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def log_in(self, username: str, password: str) -> int:
        self.request("/accounts/login/")
        return self.request("/accounts/login/", {"username": username, "password": password,
                                                 "csrfmiddlewaretoken": self.cookie("csrftoken")})


class Traffic:
    """Clients going round a search, a deck page, a log-in, a signed-in page and (every third round) a run
    submission, recording each answer with whether Redis was down and how long it took."""

    def __init__(self, web: WebServer, user, deck: Deck, redis_down: threading.Event, clients: int = 2) -> None:
        self.web, self.user, self.deck, self.redis_down = web, user, deck, redis_down
        self.answers: list[Answer] = []
        self.runs: list[tuple[str, int]] = []
        self.running = True
        self.threads = [threading.Thread(target=self._loop, args=(n,), daemon=True) for n in range(clients)]
        for thread in self.threads:
            thread.start()

    def _record(self, what: str, expected: int, call, *args) -> None:
        down, started = self.redis_down.is_set(), time.monotonic()
        status = call(*args)
        self.answers.append(Answer(what, expected, status, down or self.redis_down.is_set(),
                                   time.monotonic() - started))

    def _search(self) -> int:
        return self.web.request("GET", "/api/cards/?q=craft%3Adivine")[0]

    def _submit(self, seed: int) -> int:
        status, body, _ = self.web.request("POST", "/api/runs/", {"kind": "test_sum", "games": GAMES, "seed": seed},
                                           token=self.user.api_token)
        if status == 202:
            self.runs.append((body["id"], seed))
        return status

    def _loop(self, n: int) -> None:
        round_ = 0
        while self.running:
            round_ += 1
            visitor = Visitor(self.web)
            self._record("search", 200, self._search)
            self._record("deck page", 200, visitor.request, f"/decks/{self.deck.pk}/")
            self._record("log-in", 302, visitor.log_in, self.user.username, self.user.passphrase)
            self._record("signed-in page", 200, visitor.request, "/accounts/")  # a redirect to log in without it
            if round_ % 3 == 0:
                self._record("run submission", 202, self._submit, n * 100_000 + round_)

    def stop(self) -> None:
        self.running = False
        for thread in self.threads:
            thread.join(60)


@pytest.fixture
def stack(tmp_path, redis, start_worker):
    """gunicorn (two processes) and a worker with beat, the cache and the broker on one private Redis."""
    env = {"REDIS_URL": redis.url, "CACHE_URL": redis.url.rsplit("/", 1)[0] + "/1",
           "DJANGO_SETTINGS_MODULE": "tests.faults.outage_settings",
           "PLAYTEST_OUTBOX_GRACE_SECONDS": "1", "PLAYTEST_MAX_ACTIVE_RUNS": "100000",
           # A chunk whose acknowledgement an outage cut off comes back within seconds, not the default 12 minutes.
           "CELERY_HARD_TIME_LIMIT": "8", "CELERY_SOFT_TIME_LIMIT": "6", "CELERY_VISIBILITY_TIMEOUT": "10"}
    web = WebServer(tmp_path, env, workers=2)
    worker = start_worker("outage", extra_env=env,
                          args=("--concurrency=2", "-B", f"--schedule={tmp_path / 'beat-schedule'}"))
    yield web, worker
    web.stop()


def test_with_redis_stopped_and_started_nothing_answers_500_and_every_run_completes(stack, redis, user):
    web, _ = stack
    deck = Deck.objects.filter(visibility=Visibility.PUBLIC).first()
    redis_down = threading.Event()
    traffic = Traffic(web, user, deck, redis_down)
    try:
        for _ in range(OUTAGES):
            time.sleep(UP_SECONDS)
            redis_down.set()
            redis.stop()
            time.sleep(DOWN_SECONDS)
            redis.start()
            redis_down.clear()
        time.sleep(UP_SECONDS)
    finally:
        traffic.stop()

    answers = traffic.answers
    tally = Counter((a.what, a.status, "Redis down" if a.during_outage else "Redis up") for a in answers)
    print("\nanswers:", dict(tally))
    assert not [a for a in answers if a.status >= 500], f"server errors: {tally}"
    assert [a for a in answers if a.status != a.expected] == [], f"unexpected answers: {tally}"
    assert {a.what for a in answers if a.during_outage} == {
        "search", "deck page", "log-in", "signed-in page", "run submission"}
    for what in sorted({a.what for a in answers}):
        for down in (False, True):
            seconds = sorted(a.seconds for a in answers if a.what == what and a.during_outage == down)
            median = seconds[len(seconds) // 2]
            print(f"{what}, Redis {'down' if down else 'up'}: {len(seconds)} requests, median {median:.3f} s, "
                  f"slowest {seconds[-1]:.3f} s")
            assert median < 1, what  # answered at once, not after waiting on Redis

    assert traffic.runs
    for run_id, seed in traffic.runs:
        run = wait_until(lambda run_id=run_id: Run.objects.filter(pk=run_id, finished_at__isnull=False).first(),
                         timeout=180, message=f"run {run_id} to finish")
        assert run.status == RunStatus.DONE, run.error
        assert run.result["values"] == expected_values(seed, GAMES)  # every game once
    print(f"{len(traffic.runs)} runs submitted, all done")


def test_a_worker_with_a_chunk_in_hand_outlives_a_redis_restart(stack, redis, user):
    """Celery 5.7's reconnection used to end such a worker (playtest/jobs/redis_transport.py): it reconnects, and the
    chunk whose acknowledgement the restart cut off comes back after the visibility timeout and counts once."""
    web, worker = stack
    status, body, _ = web.request("POST", "/api/runs/", {"kind": "test_sum", "games": 10, "seed": 7,
                                                         "params": {"sleep_per_game": 0.4}}, token=user.api_token)
    assert status == 202, body
    wait_until(lambda: Run.objects.filter(pk=body["id"], status=RunStatus.RUNNING).exists(), 30, "the chunk to start")
    time.sleep(1)
    redis.stop()
    time.sleep(2)
    redis.start()
    time.sleep(3)
    assert worker.proc.poll() is None, worker.log.read_text()[-2000:]
    run = wait_until(lambda: Run.objects.filter(pk=body["id"], finished_at__isnull=False).first(), 120, "the run")
    assert run.status == RunStatus.DONE and run.result["values"] == expected_values(7, 10)
