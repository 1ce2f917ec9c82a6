"""Shared test infrastructure.

The catalog is loaded once per session into the test database (reloading 8,100 cards per test
would make the suite crawl); ordinary `db` tests run inside a rolled-back transaction, so they all
see it. Transactional tests (live server, worker) must not flush it: mark them `live_db`.

Worker tests share one session-scoped Celery worker process on the test database; browser tests
share one headless Chromium driven by Playwright against pytest-django's live server.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cards.catalog.dreaddraw import load_dreaddraw_set
from cards.catalog.loader import load_catalog
from decks.starters import load_starter_decks

from tests.support import FLUSHABLE_APPS, WorkerProcess, live_db, wait_for  # noqa: F401  (re-exported)

# Playwright's sync API runs an event loop in the test thread; the test code itself is synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        load_catalog()
        load_dreaddraw_set()
        load_starter_decks()


# --- Celery workers -----------------------------------------------------------------------

def purge_broker() -> None:
    from config.celery import app, ensure_broker_folders

    ensure_broker_folders()
    app.control.purge()


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """One worker for the whole session (tests that use it must be `live_db`)."""
    with django_db_blocker.unblock():
        purge_broker()
        worker = WorkerProcess("session", tmp_path_factory.mktemp("workers"))
    yield worker
    worker.stop()


@pytest.fixture
def start_worker(django_db_blocker, tmp_path):
    """Start extra workers with their own settings; they are stopped after the test."""
    started: list[WorkerProcess] = []

    def start(name: str, **kwargs) -> WorkerProcess:
        with django_db_blocker.unblock():
            worker = WorkerProcess(name, tmp_path, **kwargs)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


# --- Browser ------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser():
    if not shutil.which("chromium") and not Path(CHROMIUM).exists():
        pytest.fail("Browser tests need Debian's chromium (apt-get install chromium); `make test` installs it.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone_page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 360, "height": 740},
                                  is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()
