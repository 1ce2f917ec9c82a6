"""The full API fuzz, not part of `make test`: Schemathesis's command line with every check it has, against a live
server with the rate limits off, once anonymously and once with a personal access token.

    make fuzz                       # FUZZ_EXAMPLES=100 cases per operation and phase (the default)
    make fuzz FUZZ_EXAMPLES=500 FUZZ_ARGS="--seed 1"

It makes a scratch database (the embedded default, in a temporary folder: nothing of var/ is touched), loads the
catalog, makes a user with a token, serves the app with gunicorn on a free loopback port, and runs

    schemathesis run http://127.0.0.1:<port>/api/schema/ --checks all \\
        --max-examples <n> --request-timeout 120 --suppress-health-check too_slow [-H "Authorization: Bearer <token>"]

schemathesis.toml, at the top of the repository, is read by both runs and by the suite's fuzz
(tests/security/test_api_fuzz.py). It exits non-zero if either run finds a failure.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
UNLIMITED = "1000000000/second"
THROTTLES = ("THROTTLE_RUNS", "THROTTLE_IMPORTS", "THROTTLE_SEARCH", "THROTTLE_ANON", "THROTTLE_WRITES")
MAKE_TOKEN = """
from django.contrib.auth import get_user_model
from config.accounts.services import token_create
user = get_user_model().objects.create_user("fuzzer", password="fuzz-passphrase-that-is-long")
print(token_create(user=user, name="fuzz")[1])
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for(url: str, server: subprocess.Popen, seconds: float = 300) -> None:
    deadline, last = time.monotonic() + seconds, "nothing"
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"The server exited ({server.returncode}) before answering.")
        try:
            with urllib.request.urlopen(url, timeout=120) as response:  # the schema is built on the first request
                if response.status == 200:
                    return
        except OSError as exc:
            last = str(exc)
            time.sleep(1)
    raise SystemExit(f"{url} did not answer within {seconds:.0f} s (last: {last}).")


def main(args: list[str]) -> int:
    examples = os.environ.get("FUZZ_EXAMPLES", "100")
    with tempfile.TemporaryDirectory(prefix="dreadgate-fuzz-") as var:
        env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
        # As in production (DEBUG off: an unknown address is the API's 404 envelope, not Django's debug page).
        env |= {"DREADGATE_VAR_DIR": var, "DJANGO_DEBUG": "false", "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
                **dict.fromkeys(THROTTLES, UNLIMITED)}
        manage = [sys.executable, str(ROOT / "manage.py")]
        for command in (["migrate", "--noinput", "-v0"], ["loadcatalog"]):
            subprocess.run(manage + command, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        token = subprocess.run(manage + ["shell", "-c", MAKE_TOKEN], env=env, cwd=ROOT, check=True,
                               capture_output=True, text=True).stdout.strip().splitlines()[-1]
        port = _free_port()
        server = subprocess.Popen([str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{port}",
                                   "--workers", "2", "--timeout", "120", "--log-level", "warning"], env=env, cwd=ROOT)
        try:
            url = f"http://127.0.0.1:{port}/api/schema/"
            _wait_for(url, server)
            failed = False
            for name, headers in (("anonymous", []), ("with a token", ["-H", f"Authorization: Bearer {token}"])):
                print(f"\n=== {name} ===", flush=True)
                command = [str(BIN / "schemathesis"), "run", url, "--checks", "all", "--max-examples", examples,
                           # a loaded 2-core machine: slow answers and slow generation (a 100,000-character
                           # list without NUL) are no failures of the API
                           "--request-timeout", "120", "--suppress-health-check", "too_slow", *headers, *args]
                failed |= subprocess.run(command, cwd=ROOT).returncode != 0
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
