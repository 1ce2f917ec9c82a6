"""Test settings: fast password hashing; a file-backed SQLite test database (so that a worker
process can share it) and a broker folder of its own; everything else from the environment."""

import os

from .settings import *  # noqa: F403
from .settings import BROKER_DIR, DATABASES, VAR_DIR

WHITENOISE_USE_FINDERS = True  # serve static files without collectstatic
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Generous rates: the throttle history outlives each test in the cache; throttle tests set their own.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {  # noqa: F405
    scope: "100000/minute" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}}  # noqa: F405
PLAYTEST_JOB_KIND_MODULES = [*PLAYTEST_JOB_KIND_MODULES, "tests.jobkinds"]  # noqa: F405

if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

# A worker started by the tests is pointed at the test database by name.
if os.environ.get("DREADGATE_TEST_DB_NAME"):
    DATABASES["default"]["NAME"] = os.environ["DREADGATE_TEST_DB_NAME"]

if not REDIS_URL:  # noqa: F405
    _folder = str(BROKER_DIR.parent / "test-broker")
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
