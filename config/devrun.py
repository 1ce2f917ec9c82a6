"""`make run`: the development server and a Celery worker (with beat), started together, the worker kept
alive, and stopped together.

Each runs in a process group of its own, so that stopping reaches every process they start (the
autoreloader's server child, the worker's pool and beat). Ctrl-C, or TERM or HUP to this process
(make passes TERM on to it), stops both: TERM to each group, then KILL to whatever is left after
STOP_GRACE_SECONDS. Nothing is left behind.

A worker that exits on its own is restarted, after a back-off that doubles from RESTART_DELAYS[0] up to
RESTART_DELAYS[1] seconds while it keeps dying (and starts over once it has stayed up for STEADY_SECONDS);
its group is stopped first, so no orphan of its pool lingers. Meanwhile the web server keeps serving and
every page says that background jobs are paused (config/jobs_paused.py). The messages the dead worker had
taken go back to the queue as the new one connects (playtest/jobs/filesystem_transport.py).
If the web server exits, everything stops.

Run: python -m config.devrun [port]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from config import jobs_paused

ROOT = Path(__file__).resolve().parent.parent
STOP_GRACE_SECONDS = 5.0
RESTART_DELAYS = (1.0, 30.0)  # the first back-off and its ceiling, in seconds
STEADY_SECONDS = 60.0  # a worker up this long is well again: its next restart waits the first back-off
READY_SECONDS = 5.0  # a restarted worker is taken as back (the pages stop saying paused) after this long


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


class Supervisor:
    """Keeps the worker running beside the web server; see the module's docstring."""

    def __init__(self, port: str, var_dir: Path) -> None:
        self.port, self.var_dir = port, var_dir
        self.web = _start([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"])
        self.worker = self._start_worker()
        self.delay = RESTART_DELAYS[0]
        self.restart_at: float | None = None

    def _start_worker(self) -> subprocess.Popen:
        self.worker_started = time.monotonic()
        return _start([sys.executable, "-m", "celery", "-A", "config", "worker", "--beat",
                       f"--schedule={self.var_dir / 'celerybeat-schedule'}", "--loglevel=warning", "--concurrency=2"])

    @property
    def processes(self) -> list[subprocess.Popen]:
        return [self.web, self.worker]

    def check(self) -> int | None:
        """One look at both; the web server's exit code once it has exited, else None."""
        now = time.monotonic()
        if self.web.poll() is not None:
            print(f"The web server exited ({self.web.returncode}); stopping the worker.", file=sys.stderr)
            return self.web.returncode or 1
        if self.restart_at is None and self.worker.poll() is not None:
            if now - self.worker_started >= STEADY_SECONDS:
                self.delay = RESTART_DELAYS[0]
            stop([self.worker])  # whatever the dead worker left in its group (pool, beat)
            print(f"The worker exited ({self.worker.returncode}); restarting it in {self.delay:g} s.", file=sys.stderr)
            jobs_paused.mark(self.var_dir, f"The background worker stopped and is restarting "
                                           f"(in {self.delay:g} s).")
            self.restart_at = now + self.delay
            self.delay = min(self.delay * 2, RESTART_DELAYS[1])
        elif self.restart_at is not None and now >= self.restart_at:
            self.worker = self._start_worker()
            self.restart_at = None
        elif self.restart_at is None and now - self.worker_started >= READY_SECONDS:
            jobs_paused.clear(self.var_dir)
        return None


def main(argv: list[str]) -> int:
    port = argv[0] if argv else "8000"
    stopping = threading.Event()

    def on_signal(signum, frame):
        stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    var_dir = Path(os.environ.get("DREADGATE_VAR_DIR") or ROOT / "var")
    var_dir.mkdir(parents=True, exist_ok=True)
    jobs_paused.clear(var_dir)
    supervisor = Supervisor(port, var_dir)
    exit_code = None
    while not stopping.is_set() and exit_code is None:
        exit_code = supervisor.check()
        stopping.wait(0.5)
    stop(supervisor.processes)
    jobs_paused.clear(var_dir)
    return exit_code or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
