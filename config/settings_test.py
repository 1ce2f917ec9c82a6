"""Test settings: fast password hashing; a file-backed SQLite test database (so that a worker
process can share it) and a broker folder of its own; everything else from the environment."""

import os
from urllib.parse import urlsplit, urlunsplit

from .settings import *  # noqa: F403
from .settings import BROKER_DIR, DATABASES, VAR_DIR

WHITENOISE_USE_FINDERS = True  # serve static files without collectstatic
# Each file looked up when asked for, not all of them listed when the middleware loads: every test client loads
# the middleware again, and listing the 236 files (with their headers) took 0.15 s of each such test.
WHITENOISE_AUTOREFRESH = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Generous rates: the throttle history outlives each test in the cache; throttle tests set their own.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {  # noqa: F405
    scope: "100000/minute" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}  # noqa: F405
PLAYTEST_JOB_KIND_MODULES = [*PLAYTEST_JOB_KIND_MODULES, "tests.jobkinds"]  # noqa: F405
# The suite's workers run as its own processes do, unless a test asks (a test waits on them while its processes run).
WORKER_NICE = int(os.environ.get("WORKER_NICE", "0"))

if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

# Parallel test processes (pytest-xdist: gw0, gw1, ...) each have a test database of their own (pytest-django adds
# the suffix) and a broker of their own: a folder, or the Redis database after REDIS_URL's one. The workers a test
# starts inherit the variable, so they share their test process's broker.
_TEST_PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "")
_TEST_PROCESS_NUMBER = int(_TEST_PROCESS[2:]) if _TEST_PROCESS.startswith("gw") and _TEST_PROCESS[2:].isdigit() else -1
if REDIS_URL and _TEST_PROCESS_NUMBER >= 0:  # noqa: F405
    _redis = urlsplit(REDIS_URL)  # noqa: F405
    _database = int(_redis.path.strip("/") or 0) + 1 + _TEST_PROCESS_NUMBER
    CELERY_BROKER_URL = urlunsplit(_redis._replace(path=f"/{_database}"))

# A worker started by the tests is pointed at the test database by name.
if os.environ.get("DREADGATE_TEST_DB_NAME"):
    DATABASES["default"]["NAME"] = os.environ["DREADGATE_TEST_DB_NAME"]

if not REDIS_URL:  # noqa: F405
    _folder = str(BROKER_DIR.parent / f"test-broker{_TEST_PROCESS}")
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": _folder + "/queue",
        "data_folder_out": _folder + "/queue",
        "control_folder": _folder + "/control",
        "store_processed": False,
        "polling_interval": 0.1,
    }
# Tests change cards without loading a new catalog version: cached search answers would go stale.
SEARCH_CACHE_SECONDS = 0
DECK_PAGE_CACHE_SECONDS = 0
