"""`make run`: the development server and a Celery worker (with beat), started together and stopped
together.

Each runs in a process group of its own, so that stopping reaches every process they start (the
autoreloader's server child, the worker's pool and beat). Ctrl-C, or TERM or HUP to this process
(make passes TERM on to it), stops both: TERM to each group, then KILL to whatever is left after
STOP_GRACE_SECONDS. If either exits on its own, the other is stopped too. Nothing is left behind.

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

ROOT = Path(__file__).resolve().parent.parent
STOP_GRACE_SECONDS = 5.0


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


def main(argv: list[str]) -> int:
    port = argv[0] if argv else "8000"
    stopping = threading.Event()

    def on_signal(signum, frame):
        stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    python = sys.executable
    processes = [
        _start([python, "-m", "celery", "-A", "config", "worker", "--beat", "--schedule=var/celerybeat-schedule",
                "--loglevel=warning", "--concurrency=2"]),
        _start([python, "manage.py", "runserver", f"127.0.0.1:{port}"]),
    ]
    exited = None
    while not stopping.is_set():
        exited = next((p for p in processes if p.poll() is not None), None)
        if exited is not None:
            print(f"{' '.join(exited.args[1:4])} exited ({exited.returncode}); stopping the rest.", file=sys.stderr)
            break
        stopping.wait(0.5)
    stop(processes)
    if exited is not None:
        return exited.returncode or 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
