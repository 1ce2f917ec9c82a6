"""What a request costs a gunicorn worker, in instructions: the web bench's ratio, free of the machine's load.

bench/load_web.py measures CPU time, which moves between runs and phases by more than a tenth (the machine's other
work, the clients on the same two cores). This bench counts the instructions a gunicorn sync worker executes per
request under valgrind's cachegrind, which no other work changes: one worker, started under cachegrind, answers 100
requests to warm up and then N more; the count of a run of 300 less that of a run of 100, over 200, is a request's
(hash seed fixed). Kinds: bare (bench/bare_wsgi.py: a plain JsonResponse with Django's default middleware, served as
Django serves it) and trivial (GET /api/keywords/, signed in, as bench/load_web.py sends it), and with
BENCH_BASELINE (a git ref) the trivial endpoint served by that code. Figures: millions of instructions a request of
each, and the ratio trivial / bare (target 1.5, as bench/load_web.py's CPU ratio). Needs valgrind (Debian's
package); without it, says so and prints nothing. About a minute per kind and count on a 2-core machine.

Usage: .venv/bin/python bench/web_instructions.py
"""

from __future__ import annotations

import glob
import http.client
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import _common, load  # noqa: E402
from bench.load_web import baseline_tree  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WARM_UP, FEW, MANY = 100, 100, 300
BASELINE = os.environ.get("BENCH_BASELINE", "")
PATHS = {"bare": "/bench/bare/", "trivial": "/api/keywords/"}


def session_cookie(cwd: Path) -> str:
    """A signed-in session of the bench's first user, made by the app's own test client."""
    script = ("import django; django.setup()\n"
              "from django.contrib.auth import get_user_model\n"
              "from django.test import Client\n"
              "client = Client(); client.force_login(get_user_model().objects.get(username='load-user-0'))\n"
              "print(client.cookies['sessionid'].value)")
    return subprocess.run([sys.executable, "-c", script], cwd=cwd, env=load.environment(), capture_output=True,
                          text=True, check=True).stdout.strip()


def count(kind: str, requests: int, cwd: Path, cookie: str) -> int:
    """Instructions of the gunicorn worker that answered WARM_UP + `requests` requests of `kind`."""
    out = Path(tempfile.mkdtemp(prefix="dreadgate-cachegrind-"))
    bare = kind == "bare"
    env = {**load.environment(), "PYTHONHASHSEED": "0",
           "DJANGO_SETTINGS_MODULE": "bench.bare_settings" if bare else "config.settings"}
    port = _common.free_port()
    server = subprocess.Popen(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
         f"--cachegrind-out-file={out}/cg.%p", sys.executable, "-m", "gunicorn",
         "bench.bare_wsgi:application" if bare else "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--timeout", "600", "--log-level", "warning"],
        cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        answered = 0
        while answered < WARM_UP + requests:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                connection.request("GET", PATHS[kind], headers={"Host": "127.0.0.1", "Cookie": f"sessionid={cookie}"})
                response = connection.getresponse()
                response.read()
                connection.close()
            except OSError:
                if answered or time.monotonic() > deadline:
                    raise
                time.sleep(1)  # not up yet
                continue
            if response.status != 200:
                raise SystemExit(f"{kind}: {PATHS[kind]} answered {response.status}")
            answered += 1
    finally:
        os.kill(server.pid, signal.SIGTERM)  # the master: it stops its worker, which writes its counts
        server.wait()
    counts = [int(line.split()[1]) for name in glob.glob(f"{out}/cg.*") for line in open(name)
              if line.startswith("summary:")]
    shutil.rmtree(out, ignore_errors=True)
    return max(counts)  # the worker's: it began as a copy of the master, and answered every request


def per_request(kind: str, cwd: Path, cookie: str) -> float:
    return (count(kind, MANY, cwd, cookie) - count(kind, FEW, cwd, cookie)) / (MANY - FEW) / 1e6


def main() -> None:
    if shutil.which("valgrind") is None:
        print("web_instructions: valgrind is not installed (apt-get install valgrind); no figures", file=sys.stderr)
        return
    load.prepare()
    cookie = session_cookie(ROOT)
    env = {"server": "gunicorn, 1 sync worker", "database": "postgresql", "cache": "redis",
           "requests": f"{MANY} - {FEW} after {WARM_UP}"}
    figures = {kind: per_request(kind, ROOT, cookie) for kind in ("bare", "trivial")}
    for kind, value in figures.items():
        _common.emit("web_instructions", f"{kind} instructions per request", value, "million instructions", None,
                     "lower", {**env, "kind": kind}, digits=3)
    _common.emit("web_instructions", "trivial / bare instructions per request", figures["trivial"] / figures["bare"],
                 "ratio", 1.5, "lower", env)
    tree = baseline_tree() if BASELINE else None
    if tree is not None:
        try:
            os.symlink(ROOT / ".venv", tree / ".venv")
            baseline = per_request("trivial", tree, cookie)
        finally:
            shutil.rmtree(tree, ignore_errors=True)
        _common.emit("web_instructions", "baseline trivial instructions per request", baseline,
                     "million instructions", None, "lower", {**env, "code": BASELINE}, digits=3)
        _common.emit("web_instructions", "trivial / baseline trivial instructions per request",
                     figures["trivial"] / baseline, "ratio", 1.0, "lower", env)


if __name__ == "__main__":
    main()
