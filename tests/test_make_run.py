"""`make run` stops cleanly: Ctrl-C, or TERM to make, ends the web server, the worker and beat within a
few seconds, with no "Segmentation fault" and no process left behind. And it keeps the worker alive: a killed
worker comes back while the site keeps answering, and a run submitted before the kill completes; a killed beat
comes back too.

It runs the real `make run` on a free port, on the embedded default in a folder of its own (never
the machine's PostgreSQL or Redis), with the virtualenv taken as installed (`-o .venv/.installed`:
a test installs nothing).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import wait_for

ROOT = Path(__file__).resolve().parent.parent
STOP_SECONDS = 10  # "within a few seconds": devrun's grace is 5 s, then KILL

# It starts its own services (the embedded default, whatever the suite's configuration) and kills its worker: a fault
# test, run with the others in the PostgreSQL configuration to even out the two runs (docs/testing.md).
pytestmark = [pytest.mark.faults,
              pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists(), reason="make run needs .venv")]


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


def embedded_env(var_dir: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "CACHE_URL", "MAKEFLAGS", "MFLAGS")}
    env["DREADGATE_VAR_DIR"] = str(var_dir)
    env["PLAYTEST_EXTRA_JOB_KIND_MODULES"] = "tests.jobkinds"  # the stub kinds, for a run of known length
    return env


def start_make_run(port: int, var_dir: Path, log: Path) -> subprocess.Popen:
    make = subprocess.Popen(["make", "-o", ".venv/.installed", "run", f"PORT={port}"], cwd=ROOT,
                            env=embedded_env(var_dir), stdout=log.open("w"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        wait_for(lambda: make.poll() is None and serving(port), timeout=240, interval=0.5,
                 message=f"make run to serve (log: {log})")
        # The worker (with its pool) and beat are up too.
        wait_for(lambda: worker_up(make.pid), timeout=60, interval=0.5, message="the worker with its pool and beat")
    except BaseException:
        os.killpg(make.pid, signal.SIGINT)
        make.wait(timeout=STOP_SECONDS + 5)
        raise
    return make


def celery_processes(pid: int) -> set[int]:
    return {p for p in alive(descendants(pid)) if "celery" in command_of(p)}


def worker_main(pid: int) -> int | None:
    """The worker's main process: the celery worker process whose parent is not a celery process."""
    celery = celery_processes(pid)
    table = processes()
    return next((p for p in celery if " worker " in command_of(p) and table[p][0] not in celery), None)


def beat_process(pid: int) -> int | None:
    return next((p for p in celery_processes(pid) if " beat " in command_of(p)), None)


def worker_up(pid: int) -> bool:
    """The worker's main process with its pool of two, and beat."""
    worker = worker_main(pid)
    table = processes()
    pool = [p for p in celery_processes(pid) if table.get(p, (None,))[0] == worker]
    return worker is not None and len(pool) >= 2 and beat_process(pid) is not None


@pytest.mark.parametrize("how", ["ctrl-c", "term-to-make"])
def test_make_run_stops_everything_it_started(how, var_dir, tmp_path):
    port = free_port()
    log = tmp_path / "make-run.log"
    make = start_make_run(port, var_dir, log)
    try:
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


def page_text(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
        return response.read().decode()


def run_row(var_dir: Path, run_id: str):
    with sqlite3.connect(var_dir / "db.sqlite3", timeout=10) as db:
        return db.execute("SELECT status, games_done, result FROM playtest_run WHERE id = ?",
                          [run_id.replace("-", "")]).fetchone()


def chunk_under_way(var_dir: Path, run_id: str) -> bool:
    with sqlite3.connect(var_dir / "db.sqlite3", timeout=10) as db:
        return bool(db.execute("SELECT count(*) FROM playtest_runchunk WHERE run_id = ? AND status = 'pending' "
                               "AND attempts = 1", [run_id.replace("-", "")]).fetchone()[0])


def test_a_killed_worker_comes_back_while_the_site_answers_and_its_run_completes_and_so_does_beat(var_dir,
                                                                                                   tmp_path):
    port = free_port()
    log = tmp_path / "make-run.log"
    make = start_make_run(port, var_dir, log)
    try:
        submit = ("from django.contrib.auth import get_user_model; from playtest.jobs.services import run_submit; "
                  "u, _ = get_user_model().objects.get_or_create(username='killtest'); "
                  "print(run_submit(owner=u, kind='test_sum', params={'sleep_per_game': 0.2}, games=60, seed=5).pk)")
        run_id = subprocess.run([str(ROOT / ".venv/bin/python"), "manage.py", "shell", "-c", submit], cwd=ROOT,
                                env=embedded_env(var_dir), capture_output=True, text=True, check=True
                                ).stdout.strip().splitlines()[-1]
        wait_for(lambda: chunk_under_way(var_dir, run_id), timeout=60, interval=0.1, message="a chunk under way")
        worker = worker_main(make.pid)
        os.kill(worker, signal.SIGKILL)
        killed_at = time.monotonic()
        # The site keeps answering and says the jobs are paused while the worker is down.
        paused = wait_for(lambda: "Background jobs are paused" in page_text(port, "/"), timeout=10, interval=0.2,
                          message="the pages to say jobs are paused")
        assert paused and serving(port)
        wait_for(lambda: worker not in celery_processes(make.pid) and worker_up(make.pid),
                 timeout=60, interval=0.5, message="a new worker with its pool and beat")
        while run_row(var_dir, run_id)[0] not in ("done", "failed", "cancelled"):
            assert serving(port), "the site stopped answering"
            assert time.monotonic() - killed_at < 120, f"the run did not complete within two minutes (log: {log})"
            time.sleep(1)
        seconds = time.monotonic() - killed_at
        status, games_done, result = run_row(var_dir, run_id)
        assert status == "done" and games_done == 60, (status, games_done)
        expected = sum(random.Random(f"5:{g}").randrange(1000) for g in range(60))
        assert json.loads(result)["total"] == expected  # every game counted once
        assert "Background jobs are paused" not in page_text(port, "/")
        print(f"worker killed; the run completed {seconds:.0f} s later, the site answering throughout")
        # Beat too (it runs the reaper, which sends again what a dead worker had taken) comes back when killed.
        beat = beat_process(make.pid)
        os.kill(beat, signal.SIGKILL)
        wait_for(lambda: beat_process(make.pid) not in (None, beat), timeout=30, interval=0.5,
                 message=f"a new beat (log: {log})")
        assert serving(port) and worker_up(make.pid)
    finally:
        os.killpg(make.pid, signal.SIGINT)
        try:
            make.wait(timeout=STOP_SECONDS + 5)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)

