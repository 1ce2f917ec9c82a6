"""The WSGI module (config/wsgi.py), as gunicorn loads it in each worker."""

from __future__ import annotations

import os
import subprocess
import sys


def test_what_the_application_loaded_is_kept_out_of_the_collectors_full_passes():
    probe = "import gc, config.wsgi; print(gc.get_freeze_count())"
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    frozen = int(subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert frozen > 10_000  # Django and the apps: some hundred thousand objects
