"""A pattern's time bound on the threaded development server that `make run` serves with: a pattern that
would backtrack for minutes over the catalog is refused within the bound, on the request's own thread, and
the server answers other requests (/healthz) meanwhile. It runs the real `manage.py runserver` on the test
database, with a var folder of its own."""

from __future__ import annotations

import threading
import time
import urllib.parse

import pytest

from cards.search.regex import TIME_LIMIT_SECONDS
from tests.faults.support import WebServer

pytestmark = [pytest.mark.django_db, pytest.mark.config_independent]

# Accepted by the subset, and minutes of backtracking in each of the catalog's longer rules texts without a digit.
SLOW_QUERY = r"o:/[\w ]*?[\w ]*?[\w ]*?[\w ]*?[\w ]*?\d/"
# An HTTP round trip and the page around the search, on a busy machine (1.7 s seen with the browser tests beside it):
# seconds, where an unbounded pattern holds the server for minutes.
SLACK_SECONDS = 4.0


@pytest.fixture(params=["index", "sql"])
def server(request, tmp_path):
    server = WebServer(tmp_path, {"DREADGATE_VAR_DIR": str(tmp_path / "var"), "SEARCH_ENGINE": request.param},
                       threaded_dev_server=True)
    yield server
    server.stop()


def timed(server: WebServer, path: str, timeout: float = 30):
    start = time.monotonic()
    status, body, _ = server.request("GET", path, timeout=timeout)
    return status, body, time.monotonic() - start


@pytest.mark.parametrize("page", ["/api/cards/", "/cards/"])
def test_a_slow_pattern_is_refused_within_its_bound_while_the_server_answers_others(server, page):
    assert timed(server, page + "?q=golem")[0] == 200  # the index is built, the first request's imports done
    answers = []
    searching = threading.Thread(target=lambda: answers.append(timed(server, page + "?" + urllib.parse.urlencode(
        {"q": SLOW_QUERY}))))
    searching.start()

    bound = time.monotonic() + TIME_LIMIT_SECONDS + SLACK_SECONDS
    probes = 0
    while searching.is_alive() and time.monotonic() < bound:  # the server answers while the search runs
        status, health, seconds = timed(server, "/healthz", timeout=SLACK_SECONDS)
        assert status == 200 and health["status"] == "ok" and seconds < SLACK_SECONDS
        probes += 1
    searching.join(max(bound - time.monotonic(), 0))
    assert probes
    [(status, body, seconds)] = answers
    assert seconds < TIME_LIMIT_SECONDS + SLACK_SECONDS
    message = f"The pattern takes longer than {TIME_LIMIT_SECONDS:g} s to match the catalog"
    if page == "/api/cards/":
        assert status == 422 and body["error"]["code"] == "invalid_query" and message in body["error"]["message"]
    else:  # the catalog page shows the error under the query
        assert status == 200 and message in body
