"""`make run`'s supervisor stops on a signal wherever its loop is when the signal comes.

A Python signal handler runs in the main thread between two of its bytecodes, wherever that thread is: in the
middle of the loop's wait, with any lock that wait holds. A handler that takes such a lock (a threading.Event's
set, while the loop sits in the Event's wait) waits for itself forever, and `make run` hung on Ctrl-C. Here the
signal comes at each of the first LINES lines the loop runs after its first look at the processes, one stop
after another in one process, and each stop must come at once. The processes are stood in for: nothing is
started.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINES = 60

CHILD = textwrap.dedent("""
    import signal, sys
    from config import devrun

    at = lines = 0  # the line, counted from the loop's first look, at which the signal comes; the lines run so far

    def trace(frame, event, arg):
        global lines
        if event == "line":
            lines += 1
            if lines == at:
                signal.raise_signal(signal.SIGTERM)
        return trace

    class Processes:  # stands in for the web server, worker and beat
        processes = []

        def __init__(self, port, var_dir):
            pass

        def check(self):
            if sys.gettrace() is None:
                sys.settrace(trace)
                sys._getframe(1).f_trace = trace  # the loop's own frame, already running
            return None

    devrun.Supervisor = Processes
    devrun.LOOK_SECONDS = 0.005  # the loop's lines come sooner, as many
    for at in range(1, int(sys.argv[1]) + 1):
        print(at, flush=True)
        lines = 0
        assert devrun.main(["0"]) == 0
        sys.settrace(None)
""")


@pytest.mark.faults  # `make run` stopped, as tests/test_make_run.py: run in the PostgreSQL configuration
def test_a_stop_signal_at_any_line_of_the_loop_ends_the_supervisor(tmp_path):
    out = tmp_path / "out"
    with out.open("w") as said:
        try:
            subprocess.run([sys.executable, "-c", CHILD, str(LINES)], cwd=ROOT, timeout=30, stdout=said,
                           env={"PATH": "/usr/bin:/bin", "DREADGATE_VAR_DIR": str(tmp_path)}, check=True)
        except subprocess.TimeoutExpired:
            pytest.fail(f"a stop signal at line {out.read_text().split()[-1]} of the loop left the supervisor hanging")
    assert out.read_text().split() == [str(n) for n in range(1, LINES + 1)]
