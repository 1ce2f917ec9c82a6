"""`make run`: the development server, a Celery worker and Celery beat, started together, the worker and beat
kept alive, and stopped together.

Each runs in a process group of its own, so that stopping reaches every process they start (the
autoreloader's server child, the worker's pool). Ctrl-C, or TERM or HUP to this process
(make passes TERM on to it), stops them all: TERM to each group, then KILL to whatever is left after
STOP_GRACE_SECONDS. Nothing is left behind.

A worker or a beat that exits on its own is restarted, after a back-off that doubles from RESTART_DELAYS[0] up
to RESTART_DELAYS[1] seconds while it keeps dying (and starts over once it has stayed up for STEADY_SECONDS);
its group is stopped first, so no orphan of its pool lingers. While the worker is down the web server keeps
serving and every page says that background jobs are paused (config/jobs_paused.py), until the new worker
takes tasks. The messages the dead worker had taken go back to the queue as the new one connects
(playtest/jobs/filesystem_transport.py).
If the web server exits, everything stops.

Run: python -m config.devrun [port]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from config import jobs_paused

ROOT = Path(__file__).resolve().parent.parent
STOP_GRACE_SECONDS = 5.0
RESTART_DELAYS = (1.0, 30.0)  # the first back-off and its ceiling, in seconds
STEADY_SECONDS = 60.0  # a worker up this long is well again: its next restart waits the first back-off
LOOK_SECONDS, NAPS = 0.5, 5  # a look at the processes this often, a stop signal heeded within a nap


def _start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen(args, cwd=ROOT, start_new_session=True)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def stop(processes: list[subprocess.Popen], grace: float = STOP_GRACE_SECONDS) -> None:
    """TERM to every group, then KILL to any process still in one after `grace` seconds."""
    groups = [p.pid for p in processes]  # each is its group's leader (start_new_session)
    for pgid in groups:
        _signal_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        for process in processes:
            process.poll()
        if not any(_group_alive(pgid) for pgid in groups):
            break
        time.sleep(0.1)
    for pgid in groups:
        if _group_alive(pgid):
            _signal_group(pgid, signal.SIGKILL)
    for process in processes:
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


class Kept:
    """A process kept running: started again after a back-off that doubles from RESTART_DELAYS[0] up to
    RESTART_DELAYS[1] seconds while it keeps dying (and starts over once it has stayed up for STEADY_SECONDS), its
    group stopped first so that nothing it started lingers."""

    def __init__(self, name: str, args: list[str]) -> None:
        self.name, self.args = name, args
        self.delay = RESTART_DELAYS[0]
        self.restart_at: float | None = None
        self.process = self._start()

    def _start(self) -> subprocess.Popen:
        self.started = time.monotonic()
        return _start(self.args)

    def check(self, now: float) -> str | None:
        """One look; what happened to it, if anything: "exited" (with its restart planned) or "restarted"."""
        if self.restart_at is None and self.process.poll() is not None:
            if now - self.started >= STEADY_SECONDS:
                self.delay = RESTART_DELAYS[0]
            stop([self.process])  # whatever the dead process left in its group (a worker's pool)
            print(f"The {self.name} exited ({self.process.returncode}); restarting it in {self.delay:g} s.",
                  file=sys.stderr)
            self.restart_at = now + self.delay
            self.delay = min(self.delay * 2, RESTART_DELAYS[1])
            return "exited"
        if self.restart_at is not None and now >= self.restart_at:
            self.process = self._start()
            self.restart_at = None
            return "restarted"
        return None


class Supervisor:
    """Keeps the worker and beat running beside the web server; see the module's docstring."""

    def __init__(self, port: str, var_dir: Path) -> None:
        self.var_dir = var_dir
        self.web = _start([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"])
        # Beat in a process of its own, not inside the worker (--beat): a beat that dies there is never started
        # again, and with it the reaper, which sends again what a dead worker had taken.
        self.worker = Kept("worker", [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=warning",
                                      "--concurrency=2"])
        self.beat = Kept("beat", [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=warning",
                                  f"--schedule={var_dir / 'celerybeat-schedule'}"])

    @property
    def processes(self) -> list[subprocess.Popen]:
        return [self.web, self.worker.process, self.beat.process]

    def check(self) -> int | None:
        """One look at all three; the web server's exit code once it has exited, else None."""
        now = time.monotonic()
        if self.web.poll() is not None:
            print(f"The web server exited ({self.web.returncode}); stopping the worker and beat.", file=sys.stderr)
            return self.web.returncode or 1
        self.beat.check(now)
        if self.worker.check(now) == "exited":  # the new worker clears it once it takes tasks (config/celery.py)
            jobs_paused.mark(self.var_dir, f"The background worker stopped and is restarting "
                                           f"(in {self.worker.restart_at - now:g} s).")
        return None


class StopAsked:
    """Set by the stop signals' handler, looked at by the loop. A plain attribute, never a lock: a handler runs in
    the main thread between two of its bytecodes, wherever the loop is, and one that took a lock the loop held
    (threading.Event's set, during the Event's wait) waited for itself forever (tests/test_devrun_signals.py)."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum, frame) -> None:
        self.asked = True


def main(argv: list[str]) -> int:
    port = argv[0] if argv else "8000"
    stopping = StopAsked()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stopping)
    var_dir = Path(os.environ.get("DREADGATE_VAR_DIR") or ROOT / "var")
    var_dir.mkdir(parents=True, exist_ok=True)
    jobs_paused.clear(var_dir)
    supervisor = Supervisor(port, var_dir)
    exit_code = None
    while not stopping.asked and exit_code is None:
        exit_code = supervisor.check()
        for _ in range(NAPS):
            if stopping.asked:
                break
            time.sleep(LOOK_SECONDS / NAPS)
    stop(supervisor.processes)
    jobs_paused.clear(var_dir)
    return exit_code or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
