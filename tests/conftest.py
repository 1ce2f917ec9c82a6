"""Shared test infrastructure.

The catalog is loaded once per session into the test database (reloading 8,100 cards per test
would make the suite crawl); ordinary `db` tests run inside a rolled-back transaction, so they all
see it. Transactional tests (live server, worker; mark them `live_db`) flush the database, and
the database as it stood after the load is then put back from a snapshot (tests/catalog_snapshot.py).

Tests whose outcome the database and broker do not change run in one configuration only (ONE_CONFIGURATION,
docs/testing.md): browser tests, those marked `config_independent` and the modules that touch no database (unless
marked `each_configuration`) in the embedded one, the fault tests (with services of their own) and the API fuzz
(`strict_database`) in the PostgreSQL one.

Worker tests share one session-scoped Celery worker process on the test database; browser tests
share one headless Chromium driven by Playwright against pytest-django's live server.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from pytest_django.plugin import blocking_manager_key

from cards.catalog.loader import load_catalog
from decks.starters import load_starter_decks
from dreaddraw.catalog import load_dreaddraw_set
from tests.catalog_snapshot import CatalogSnapshot
from tests.support import WorkerProcess, live_db, migrate_to, wait_for  # noqa: F401  (re-exported)

# Playwright's sync API runs an event loop in the test thread; the test code itself is synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, request):
    with django_db_blocker.unblock():
        load_test_data()
        request.config.stash[snapshot_key] = CatalogSnapshot()


snapshot_key = pytest.StashKey[CatalogSnapshot]()
# Tests whose outcome the configuration does not change run in one only (docs/testing.md): by their marker, the
# embedded one (SQLite, the filesystem broker) or the PostgreSQL one (with Redis), to balance the two runs.
ONE_CONFIGURATION = {"config_independent": "embedded", "browser": "embedded", "faults": "postgres",
                     "strict_database": "postgres"}


def configuration() -> str:
    return "postgres" if os.environ.get("DATABASE_URL") else "embedded"


# Modules all of whose tests run on PostgreSQL only, not even collected elsewhere: collecting the API fuzz makes
# Schemathesis's coverage cases for every operation (some 15 s a process), tests left out or not.
POSTGRES_ONLY_MODULES = {Path(__file__).parent / "security" / "test_api_fuzz.py"}


def pytest_ignore_collect(collection_path, config):
    if collection_path in POSTGRES_ONLY_MODULES and configuration() != "postgres":
        return True
    return None


# What a test asks for when it touches the test database.
DATABASE_FIXTURES = {"_django_db_helper", "db", "transactional_db", "live_server", "admin_client", "django_user_model"}


def touches_no_database(module_items) -> bool:
    """A module none of whose tests uses the database or declares that the broker or cache changes its outcome."""
    return not any(item.get_closest_marker("django_db") or item.get_closest_marker("each_configuration")
                   or DATABASE_FIXTURES & set(item.fixturenames) for item in module_items)


def runs_where(item, pure_modules: set[str]) -> str | None:
    """The one configuration an item runs in (None: both)."""
    for name, where in ONE_CONFIGURATION.items():
        if item.get_closest_marker(name):
            return where
    return ONE_CONFIGURATION["config_independent"] if item.nodeid.split("::")[0] in pure_modules else None


def pytest_collection_modifyitems(config, items):
    """Leave out the tests that run in the other configuration only (a module that touches no database counts as
    `config_independent`)."""
    by_module: dict[str, list] = {}
    for item in items:
        by_module.setdefault(item.nodeid.split("::")[0], []).append(item)
    pure_modules = {module for module, module_items in by_module.items() if touches_no_database(module_items)}
    here = configuration()
    kept, left_out = [], []
    for item in items:
        where = runs_where(item, pure_modules)
        if item.path in POSTGRES_ONLY_MODULES and where != "postgres":  # else no run would collect it
            raise pytest.UsageError(f"{item.nodeid}: a module of POSTGRES_ONLY_MODULES runs on PostgreSQL only; "
                                    "mark it strict_database")
        (left_out if where not in (None, here) else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
    log = os.environ.get("DREADGATE_COLLECTED_LOG")
    if log:  # each test process collects the same tests: the log may list a test more than once
        with open(log, "a") as collected:
            collected.writelines(item.nodeid + "\n" for item in kept)


def load_test_data() -> None:
    load_catalog()
    load_dreaddraw_set()
    load_starter_decks()


@pytest.fixture(autouse=True)
def _search_index_after_changes(request):
    """A test that changed cards (its own, rolled back after it; or a flushed and reloaded catalog)
    leaves no search index of them behind: the next test's search builds it from the catalog again."""
    from cards import selectors
    from cards.search import index

    before = index.generation()
    yield
    marker = request.node.get_closest_marker("django_db")
    if index.generation() != before or (marker is not None and marker.kwargs.get("transaction")):
        index.forget()
        selectors._version_memo = None


@pytest.fixture(autouse=True)
def _catalog_version_memo_lasts_the_test(monkeypatch):
    """The catalog version is remembered two seconds in the process (cards.selectors): on a busy machine a test's
    requests can span more, and one of them would then read the version again, one query more than its twin (a
    query count that passed alone and failed under load). Within a test the memo lasts; a test that means it to
    run out says so (`selectors._version_memo = None`), and the fixture above forgets it after cards change. What is
    kept per catalog beside it (the keyword list, the cards' definitions) starts afresh with each test."""
    from cards import selectors
    from decks import selectors as deck_selectors
    from playtest.simulation import job_kind

    monkeypatch.setattr(selectors, "VERSION_MEMO_SECONDS", 3600)
    monkeypatch.setattr(selectors, "_version_memo", None)
    monkeypatch.setattr(deck_selectors, "_key_memo", None)  # the card index's check of the catalog, likewise
    monkeypatch.setattr(selectors, "_keywords_memo", None)
    monkeypatch.setattr(job_kind, "_definitions", (None, {}))


@pytest.fixture(autouse=True)
def _user_memo_lasts_the_test(monkeypatch):
    """The signed-in user is remembered two seconds in the process (config.accounts.backends), and like the catalog
    version that memo lasts the test so that query counts don't depend on the machine's speed; each test starts
    without it (a rolled-back test's user id may be another test's)."""
    from config.accounts import backends

    monkeypatch.setattr(backends, "USER_MEMO_SECONDS", 3600)
    monkeypatch.setattr(backends, "_users", {})


@pytest.fixture(autouse=True)
def _no_cache_between_tests():
    """What one test cached (a catalog export, a rendered page, a rate count) is not the next test's: tests change
    cards without a new catalog version, so an answer cached by an earlier test would be stale. The process's own
    caches are emptied after each test (a shared cache named by CACHE_URL is left alone)."""
    yield
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for cache in caches.all():
        if isinstance(cache, LocMemCache):
            cache.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a transactional test has flushed the database, put the catalog back."""
    yield
    marker = item.get_closest_marker("django_db")
    if nextitem is not None and marker is not None and marker.kwargs.get("transaction"):
        with item.config.stash[blocking_manager_key].unblock():
            item.config.stash[snapshot_key].restore()


# --- Celery workers -----------------------------------------------------------------------

def purge_broker() -> None:
    from config.celery import app
    from playtest.jobs.broker import ensure_broker_folders

    ensure_broker_folders()
    app.control.purge()


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """One worker for the whole session (tests that use it must be `live_db`)."""
    with django_db_blocker.unblock():
        purge_broker()
        worker = WorkerProcess("session", tmp_path_factory.mktemp("workers"))
    yield worker
    # The session is over and its database is dropped next: nothing the worker would finish is read again, and its
    # warm shutdown took the full 15 s before the kill in each test process.
    worker.stop(graceful=False)


@pytest.fixture
def start_worker(django_db_blocker, tmp_path):
    """Start extra workers with their own settings; they are killed after the test, as the session's worker is: the
    test's data is removed next and the queues they listened to are the test's own, so nothing they would finish is
    read again, and a warm shutdown costs seconds a worker."""
    started: list[WorkerProcess] = []

    def start(name: str, **kwargs) -> WorkerProcess:
        with django_db_blocker.unblock():
            worker = WorkerProcess(name, tmp_path, **kwargs)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop(graceful=False)


# --- Browser ------------------------------------------------------------------------------

@pytest.fixture
def latest_schema_after():
    """For migration tests: whatever the test's outcome, the database goes back to the latest schema for the
    tests after it."""
    yield
    migrate_to(None)


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


@pytest.fixture
def login(page, live_server):
    """Log a user in to the browser page (a session made server-side, handed over as the cookie)."""
    from django.conf import settings
    from django.test import Client

    def log_in(user):
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value,
                                   "url": live_server.url}])
        return user

    return log_in


# --- Which tests ran and passed (CI checks that every test passed in at least one configuration) -------------

def pytest_runtest_logreport(report):
    log = os.environ.get("DREADGATE_PASSED_LOG")
    if log and report.when == "call" and report.passed:
        with open(log, "a") as passed:
            passed.write(report.nodeid + "\n")
