"""Sessions kept by each process in front of Redis, forgotten when Redis tells of a change
(config/accounts/sessions.py).

Two processes are two layers here, each with its own connection for Redis's notices and its own copies, as each
web process has; the sessions are in Redis under keys of this module's own."""

from __future__ import annotations

import time
import uuid

import pytest
import redis
from django.core.cache import caches

from config.accounts import sessions
from config.accounts.sessions import KeptSessions, SessionStore
from config.settings import cache_aliases
from tests.conftest import configuration
from tests.roundtrips import counted

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(configuration() != "postgres", reason="Redis's notices need Redis")]

NOTICE_SECONDS = 0.05  # a notice crosses from Redis to another connection on this host in well under this


@pytest.fixture
def redis_sessions(settings):
    prefix = f"kept-sessions-{uuid.uuid4().hex}"
    settings.CACHES = {alias: {**config, "KEY_PREFIX": prefix} if "Redis" in config["BACKEND"] else config
                       for alias, config in cache_aliases(settings.REDIS_URL).items()}
    settings.SESSION_ENGINE = "config.accounts.sessions"
    return caches["default"]


def signed_in_session() -> SessionStore:
    store = SessionStore()
    store["player"] = "alice"
    store.create()
    return store


def another_process(cache) -> KeptSessions:
    return KeptSessions(cache._servers[0], cache.make_key(sessions.cached_db.KEY_PREFIX))


def test_a_session_is_read_from_redis_once_then_kept(redis_sessions):
    key = signed_in_session().cache_key
    other = another_process(redis_sessions)
    assert other.get(redis_sessions, key)["player"] == "alice"
    with counted() as trips:
        assert other.get(redis_sessions, key)["player"] == "alice"
    assert trips.cache == 0, trips.calls


def test_a_log_out_in_one_process_ends_the_session_another_kept(redis_sessions):
    store = signed_in_session()
    other = another_process(redis_sessions)
    assert other.get(redis_sessions, store.cache_key) is not None  # kept there
    SessionStore(store.session_key).flush()  # the log-out, in this process
    time.sleep(NOTICE_SECONDS)
    assert other.get(redis_sessions, store.cache_key) is None
    assert not SessionStore(store.session_key).exists(store.session_key)


def test_a_session_saved_in_one_process_is_read_again_by_another(redis_sessions):
    store = signed_in_session()
    other = another_process(redis_sessions)
    assert other.get(redis_sessions, store.cache_key)["player"] == "alice"
    changed = SessionStore(store.session_key)
    changed["player"] = "bob"
    changed.save()
    time.sleep(NOTICE_SECONDS)
    assert other.get(redis_sessions, store.cache_key)["player"] == "bob"


def test_nothing_kept_is_read_once_the_notices_connection_is_lost(redis_sessions):
    """Its notices lost with it: a copy kept before is never read, and nothing is kept until it is back."""
    store = signed_in_session()
    other = another_process(redis_sessions)
    assert other.get(redis_sessions, store.cache_key) is not None
    client = redis.Redis.from_url(redis_sessions._servers[0])
    client.client_kill_filter(_id=other.client_id)
    client.delete(redis_sessions.make_and_validate_key(store.cache_key))  # a change it cannot hear of
    assert other.get(redis_sessions, store.cache_key) is None


def test_what_a_request_changes_on_its_session_stays_its_own_until_saved(redis_sessions):
    key = signed_in_session().cache_key
    other = another_process(redis_sessions)
    other.get(redis_sessions, key)["player"] = "mallory"
    assert other.get(redis_sessions, key)["player"] == "alice"


def test_a_cache_other_than_redis_is_used_as_it_is(settings):
    settings.CACHES = cache_aliases("")
    settings.SESSION_ENGINE = "config.accounts.sessions"
    store = SessionStore()
    assert store._cache is caches["default"]


def test_nothing_kept_is_read_once_the_client_has_closed_the_notices_connection(redis_sessions):
    """redis-py closes a connection after an error of its own: a read then finds no socket to ask, not an error."""
    store = signed_in_session()
    other = another_process(redis_sessions)
    assert other.get(redis_sessions, store.cache_key) is not None
    other._notices.connection.disconnect()
    redis.Redis.from_url(redis_sessions._servers[0]).delete(redis_sessions.make_and_validate_key(store.cache_key))
    assert other.get(redis_sessions, store.cache_key) is None
