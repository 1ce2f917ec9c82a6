"""PostgreSQL restarted under load, on a cluster of its own: requests fail cleanly (503 in the
envelope, never a 500 traceback) and the same app process recovers once it is back."""

import subprocess
import sys
import threading
import time

import pytest

from tests.support import ROOT

from .support import PostgresCluster, WebServer, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.skipif(
    not PostgresCluster.available(), reason="needs pg_createcluster, run as root")]


@pytest.fixture
def cluster():
    cluster = PostgresCluster(f"faults{int(time.time())}")
    try:
        yield cluster.create()
    finally:
        cluster.drop()


class Load:
    """Clients hitting a database-backed endpoint in a loop, recording every status."""

    def __init__(self, web: WebServer, clients: int = 4) -> None:
        self.web, self.results, self.running = web, [], True
        self.threads = [threading.Thread(target=self._loop, daemon=True) for _ in range(clients)]
        for thread in self.threads:
            thread.start()

    def _loop(self) -> None:
        while self.running:
            status, body, _ = self.web.request("GET", "/api/decks/")
            self.results.append((time.monotonic(), status, body))
            time.sleep(0.02)

    def stop(self) -> list:
        self.running = False
        for thread in self.threads:
            thread.join(30)
        return self.results


def test_requests_fail_cleanly_while_postgres_is_down_and_recover_without_a_restart(cluster, tmp_path):
    env = {"DATABASE_URL": cluster.url, "DREADGATE_TEST_DB_NAME": "faults", "DB_CONN_MAX_AGE": "60"}
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
                             env={**WebServer.base_env(), **env}, capture_output=True, text=True, timeout=300)
    assert migrate.returncode == 0, migrate.stderr[-3000:]
    web = WebServer(tmp_path, env, workers=2)
    try:
        load = Load(web)
        wait_until(lambda: sum(1 for r in load.results if r[1] == 200) >= 20, 30, "requests to succeed")
        cluster.stop()
        down_at = time.monotonic()
        time.sleep(3)
        cluster.start()
        up_at = time.monotonic()
        wait_until(lambda: any(t > up_at and s == 200 for t, s, _ in load.results), 60, "the app to recover")
        time.sleep(3)
        results = load.stop()
        pid = web.proc.pid
        assert web.proc.poll() is None and web.proc.pid == pid  # the same app, never restarted
    finally:
        web.stop()

    statuses = {s for _, s, _ in results}
    assert statuses <= {200, 503}, f"unexpected statuses {statuses}"  # no 500 anywhere
    during = [(s, b) for t, s, b in results if down_at + 0.5 < t < up_at]
    refused = [b for s, b in during if s == 503]
    assert refused, "no request was refused while the database was down"
    for body in refused:
        assert body["error"]["code"] == "database_unavailable"
    recovered_at = min(t for t, s, _ in results if t > up_at and s == 200)
    after = [s for t, s, _ in results if t > recovered_at + 0.5]
    assert after and set(after) == {200}, "not every request succeeded after the database came back"
