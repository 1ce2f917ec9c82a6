"""Shared test infrastructure.

The catalog is loaded once per session into the test database (reloading 8,100 cards per test
would make the suite crawl); ordinary `db` tests run inside a rolled-back transaction, so they all
see it. Transactional tests (live server, worker) must not flush it: use the `live_db` marker.
"""

from __future__ import annotations

import pytest

from cards.catalog.loader import load_catalog

# Apps whose tables a transactional test may flush: every app but the catalog.
FLUSHABLE_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "decks",
    "playtest",
]
live_db = pytest.mark.django_db(transaction=True, available_apps=FLUSHABLE_APPS)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        load_catalog()
