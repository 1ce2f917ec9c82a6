"""A web process's start (config/wsgi.py, config/serving.py), as gunicorn and runserver load it."""

from __future__ import annotations

import os
import subprocess
import sys

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import override_settings

from config import serving


def test_what_the_application_loaded_is_kept_out_of_the_collectors_full_passes():
    probe = ("import gc, config.wsgi; from django.core.signals import request_finished as done; "
             "from django.core.cache import close_caches as django; from config.serving import close_caches as ours; "
             "receivers = [r[1]() for r in done.receivers]; "
             "print(gc.get_freeze_count(), django in receivers, ours in receivers)")
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    frozen, django_s, ours = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                                            check=True).stdout.split()
    assert int(frozen) > 10_000  # Django and the apps: some hundred thousand objects
    assert (django_s, ours) == ("False", "True")


class ClosingCache(LocMemCache):
    closed = 0

    def close(self, **kwargs):
        ClosingCache.closed += 1


CLOSING = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
           "closing": {"BACKEND": "tests.test_wsgi.ClosingCache"}}


def test_a_cache_whose_backend_closes_is_closed_at_the_end_of_each_request():
    with override_settings(CACHES=CLOSING):
        caches["closing"].get("x")  # in use in this thread
        before = ClosingCache.closed
        serving.close_caches()
        assert ClosingCache.closed == before + 1


def test_caches_that_close_nothing_are_not_walked(monkeypatch):
    walked = []
    monkeypatch.setattr(caches, "close_all", lambda: walked.append(True))
    serving.close_caches()  # the suite's caches: local memory, the database, Redis: none closes anything
    assert walked == []
    with override_settings(CACHES=CLOSING):  # (Django's test signals close the caches as the setting changes)
        walked.clear()
        serving.close_caches()
        assert walked == [True]
