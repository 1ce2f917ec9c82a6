"""`make run` stops cleanly: Ctrl-C, or TERM to make, ends the web server, the worker and beat within a
few seconds, with no "Segmentation fault" and no process left behind.

It runs the real `make run` on a free port, on the embedded default in a folder of its own (never
the machine's PostgreSQL or Redis), with the virtualenv taken as installed (`-o .venv/.installed`:
a test installs nothing).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import wait_for

ROOT = Path(__file__).resolve().parent.parent
STOP_SECONDS = 10  # "within a few seconds": devrun's grace is 5 s, then KILL

pytestmark = pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists(), reason="make run needs .venv")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state) of every live process."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        table[int(entry.name)] = (int(fields[1]), fields[0])
    return table


def descendants(pid: int) -> set[int]:
    table = processes()
    found, frontier = set(), {pid}
    while frontier:
        children = {child for child, (parent, _) in table.items() if parent in frontier} - found
        found |= children
        frontier = children
    return found


def alive(pids: set[int]) -> set[int]:
    table = processes()
    return {pid for pid in pids if pid in table and table[pid][1] != "Z"}


def command_of(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "?"


@pytest.fixture(scope="module")
def var_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("make-run-var")


def serving(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.mark.parametrize("how", ["ctrl-c", "term-to-make"])
def test_make_run_stops_everything_it_started(how, var_dir, tmp_path):
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "CACHE_URL", "MAKEFLAGS", "MFLAGS")}
    env["DREADGATE_VAR_DIR"] = str(var_dir)
    log = tmp_path / "make-run.log"
    make = subprocess.Popen(["make", "-o", ".venv/.installed", "run", f"PORT={port}"], cwd=ROOT, env=env,
                            stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: make.poll() is None and serving(port), timeout=240, interval=0.5,
                 message=f"make run to serve (log: {log})")
        # The worker and beat are up too: the worker's pool and the beat process under celery.
        wait_for(lambda: sum("celery" in command_of(p) for p in descendants(make.pid)) >= 3, timeout=60,
                 interval=0.5, message="the worker with its pool and beat")
        started = descendants(make.pid)
        commands = " | ".join(command_of(p) for p in started)
        assert "runserver" in commands and "celery" in commands, commands

        stopped_at = time.monotonic()
        if how == "ctrl-c":
            os.killpg(make.pid, signal.SIGINT)  # the terminal sends it to the foreground group: make and devrun
        else:
            os.kill(make.pid, signal.SIGTERM)
        make.wait(timeout=STOP_SECONDS + 5)
        seconds = time.monotonic() - stopped_at
        left = alive(started)  # make has returned: everything it started must be gone already
    finally:  # a failing test leaves nothing running either
        if make.poll() is None:
            os.killpg(make.pid, signal.SIGKILL)
        for pid in alive(locals().get("started") or descendants(make.pid)):
            os.kill(pid, signal.SIGKILL)
    print(f"make run stopped by {how} in {seconds:.1f} s ({len(started)} processes, none left)")
    assert not left, [command_of(p) for p in left]
    assert seconds <= STOP_SECONDS, seconds
    output = log.read_text()
    assert "Segmentation fault" not in output, output[-2000:]
    assert not serving(port)
