"""The job timeouts' documented arithmetic (config/settings.py, README), on the defaults."""

import json
import os
import subprocess
import sys

import pytest

from tests.support import ROOT

REDELIVERY_BOUND_SECONDS = 15 * 60
TIMEOUT_VARIABLES = ("CELERY_VISIBILITY_TIMEOUT", "CELERY_UNACKED_RESTORE_INTERVAL", "CELERY_UNACKED_RESTORE_THROTTLE",
                     "CELERY_SOFT_TIME_LIMIT", "CELERY_HARD_TIME_LIMIT", "PLAYTEST_STALE_SECONDS")


@pytest.mark.config_independent
def test_on_the_default_timeouts_a_killed_workers_chunk_comes_back_within_15_minutes_and_not_while_it_could_run():
    """The arithmetic of config/settings.py on the defaults (nothing set): Redis redelivers a killed worker's chunk
    once its visibility timeout has passed, at the next sweep. That is within 15 minutes, never before the hard
    time limit (a running chunk is never handed out twice), and before the reaper would fail the run as stale.
    The kill tests above check, on short timeouts, that redelivery follows this arithmetic on a real worker."""
    env = {key: value for key, value in os.environ.items() if key not in TIMEOUT_VARIABLES}
    env.update(REDIS_URL="redis://127.0.0.1:6379/0", DJANGO_SETTINGS_MODULE="config.settings")
    printed = subprocess.run(
        [sys.executable, "-c", "import json; from django.conf import settings as s; print(json.dumps(["
         "s.CELERY_BROKER_TRANSPORT_OPTIONS, s.CELERY_TASK_TIME_LIMIT, s.PLAYTEST_STALE_SECONDS]))"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    options, hard_limit, stale = json.loads(printed)
    sweep = options["unacked_restore_interval"] * options["unacked_restore_throttle"]
    latest_redelivery = options["visibility_timeout"] + sweep
    assert options["visibility_timeout"] == hard_limit + 60 == 720 and sweep == 10
    assert hard_limit < options["visibility_timeout"] and latest_redelivery <= REDELIVERY_BOUND_SECONDS
    assert stale > latest_redelivery + hard_limit  # the redelivered chunk has time to run before the run is stale
