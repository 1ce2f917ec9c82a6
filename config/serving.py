"""What each web process does once, as it starts serving requests (config/wsgi.py, under gunicorn and runserver).

- Django's `close_caches`, run at the end of every request, walks every cache alias (six here) through the cache
  handler's thread-local storage to close backends of which none closes anything: about a tenth of a signed-in API
  read's instructions. It is swapped for one that does the same walk only when a configured backend has a close()
  of its own (a memcached one would).
- Django's `reset_queries`, at the start of every request, walks the database connections to empty a log that only
  DEBUG fills: it runs when DEBUG is on.
- The code's digest (core/release.py), which the kept answers' keys carry, is read then.
- What is loaded by then (Django, the apps, their modules and settings) lives as long as the process: frozen, a full
  collection no longer walks it (about an eighth of the same read's instructions); Python's documentation advises
  the same for a server that forks its workers.

The figures are in docs/operations.md. The bench's bare view (bench/bare_wsgi.py) is served without either, as
Django serves a view by default.
"""

from __future__ import annotations

import functools
import gc

from django.conf import settings
from django.core import signals
from django.core.cache import caches
from django.core.cache import close_caches as django_close_caches
from django.core.cache.backends.base import BaseCache
from django.core.signals import setting_changed
from django.db import reset_queries as django_reset_queries
from django.utils.module_loading import import_string

from core.release import code_release


@functools.cache
def _a_cache_closes() -> bool:
    return any(import_string(conf["BACKEND"]).close is not BaseCache.close for conf in settings.CACHES.values())


def close_caches(**kwargs) -> None:
    """Django's close_caches, when a configured backend closes something."""
    if _a_cache_closes():
        caches.close_all()


def reset_queries(**kwargs) -> None:
    """Django's reset_queries, when DEBUG logs the queries (a test that counts them empties its own log)."""
    if settings.DEBUG:
        django_reset_queries()


def _forget(*, setting, **kwargs) -> None:
    if setting == "CACHES":
        _a_cache_closes.cache_clear()


setting_changed.connect(_forget)


def start() -> None:
    signals.request_finished.disconnect(django_close_caches)
    signals.request_finished.connect(close_caches)
    signals.request_started.disconnect(django_reset_queries)
    signals.request_started.connect(reset_queries)
    code_release()  # read now, not by the first request that keeps an answer
    gc.freeze()
