"""Private services for fault tests: a Redis, a PostgreSQL cluster and a gunicorn of their own,
on spare loopback ports, so the machine's own services (5432, 6379) are never touched."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.support import ROOT, wait_for


def spare_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    def __init__(self, folder: Path) -> None:
        self.port = spare_port()
        self.folder = folder
        self.proc = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=(self.folder / "redis.log").open("a"), stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(self.ping, timeout=20, message="redis to start")
        return self

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class PostgresCluster:
    """A throwaway cluster made with pg_createcluster (as root; it runs initdb, which refuses root, as
    the postgres user), on its own port, dropped afterwards."""

    def __init__(self, name: str) -> None:
        self.version = sorted(os.listdir("/etc/postgresql"))[-1] if os.path.isdir("/etc/postgresql") else ""
        self.name = name
        self.port = spare_port()

    @staticmethod
    def available() -> bool:
        return bool(shutil.which("pg_createcluster") and os.path.isdir("/etc/postgresql") and os.geteuid() == 0)

    def _ctl(self, *args: str) -> None:
        done = subprocess.run(list(args), capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{' '.join(args)} failed: {done.stdout[-1500:]}{done.stderr[-1500:]}")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/faults"

    def create(self) -> PostgresCluster:
        self._ctl("pg_createcluster", "-u", "postgres", self.version, self.name, "-p", str(self.port), "--",
                  "--auth-local=trust", "--auth-host=trust")
        self.start()
        self._ctl("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "faults")
        return self

    def start(self) -> None:
        self._ctl("pg_ctlcluster", self.version, self.name, "start")

    def stop(self) -> None:
        self._ctl("pg_ctlcluster", self.version, self.name, "stop", "-m", "fast")

    def drop(self) -> None:
        subprocess.run(["pg_dropcluster", "--stop", self.version, self.name], capture_output=True, timeout=120)


class WebServer:
    """gunicorn serving the app with the given environment (on the test database unless told otherwise);
    with `threaded_dev_server`, Django's runserver instead, as `make run` serves: a thread per request."""

    @staticmethod
    def base_env() -> dict[str, str]:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test", "DJANGO_DEBUG": "false"}
        env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        return env

    def __init__(self, folder: Path, env: dict[str, str], workers: int = 1, *,
                 threaded_dev_server: bool = False) -> None:
        from django.db import connection

        self.port = spare_port()
        self.env = {**self.base_env(), "DREADGATE_TEST_DB_NAME": str(connection.settings_dict["NAME"]), **env}
        if threaded_dev_server:
            name, args = "runserver", ["manage.py", "runserver", "--noreload", "--skip-checks",
                                       f"127.0.0.1:{self.port}"]
        else:
            name, args = "gunicorn", ["-m", "gunicorn", "-c", "gunicorn.conf.py", "config.wsgi",
                                      "-b", f"127.0.0.1:{self.port}", "-w", str(workers), "--timeout", "60",
                                      "--graceful-timeout", "2"]
        self.log = folder / f"{name}-{self.port}.log"
        self.proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=self.env, stdout=self.log.open("w"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(self._up, timeout=60, message=f"{name} to serve (log: {self.log})")

    def _up(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(self.log.read_text()[-3000:])
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def request(self, method: str, path: str, body: dict | None = None, token: str | None = None,
                timeout: float = 30):
        """(status, parsed JSON or text, headers); never raises on an HTTP error status."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                status, raw, headers = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, raw, headers = error.code, error.read(), error.headers
        try:
            return status, json.loads(raw), headers
        except ValueError:
            return status, raw.decode(errors="replace"), headers

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 15)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)


def wait_until(predicate, timeout: float, message: str):
    return wait_for(predicate, timeout=timeout, interval=0.3, message=message)


__all__ = ["PostgresCluster", "RedisServer", "WebServer", "spare_port", "wait_until"]
