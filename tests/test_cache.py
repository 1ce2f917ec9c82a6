"""The Redis cache backend (config.cache): Django's, with one client per connection pool, that degrades when Redis
does not answer: each cache to its stand-in, and a key written meanwhile is deleted from Redis once it answers."""

import threading
import time

import pytest
import redis
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import Client

from config.accounts.models import LoginCounter
from config.cache import RETRY_SECONDS, DatabaseCache, RedisCache
from config.settings import cache_aliases

from .faults.support import RedisServer, spare_port


def test_redis_cache_reuses_one_client_and_still_reads_and_writes(tmp_path):
    server = RedisServer(tmp_path).start()
    try:
        cache = RedisCache(server.url, {})
        cache.set("card-search:key", b"answer", 30)
        assert cache.get("card-search:key") == b"answer"
        assert cache.get_many(["card-search:key", "missing"]) == {"card-search:key": b"answer"}
        assert cache.add("counter", 1) and cache.incr("counter") == 2 and cache.get("counter") == 2
        cache.delete("card-search:key")
        assert cache.get("card-search:key") is None
        # One client for every call, and it is safe to share between threads.
        assert cache._cache.get_client() is cache._cache.get_client(write=True)
        errors = []

        def hammer(n):
            try:
                for i in range(200):
                    cache.set(f"t{n}:{i}", i)
                    assert cache.get(f"t{n}:{i}") == i
            except Exception as exc:  # noqa: BLE001  (reported below)
                errors.append(exc)

        threads = [threading.Thread(target=hammer, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
    finally:
        server.stop()


def test_a_redis_cache_url_selects_the_reusing_backend(monkeypatch):
    import importlib

    import config.settings

    monkeypatch.setenv("CACHE_URL", "redis://127.0.0.1:6399/1")
    try:
        reloaded = importlib.reload(config.settings)
        assert {reloaded.CACHES[alias]["BACKEND"] for alias in ("default", "rates", "logins")} == {
            "config.cache.RedisCache"}
        assert reloaded.SESSION_ENGINE == "config.accounts.sessions"
    finally:
        monkeypatch.delenv("CACHE_URL")
        importlib.reload(config.settings)


@pytest.mark.django_db
def test_with_redis_down_each_cache_answers_from_its_stand_in(settings, caplog):
    settings.CACHES = cache_aliases(f"redis://127.0.0.1:{spare_port()}/1")  # nothing listens there
    default, rates, logins = caches["default"], caches["rates"], caches["logins"]
    default.set("answer", b"rendered")  # answers and sessions: nothing kept, nothing found
    assert default.get("answer") is None and default.get_many(["answer"]) == {}
    rates.set("throttle_search_1", [1.0, 2.0])  # rate limits: counted in this process
    assert rates.get("throttle_search_1") == [1.0, 2.0]
    assert logins.add("login-fail:pair:x", 0) and logins.incr("login-fail:pair:x") == 1  # log-ins: in the database
    assert logins.get_many(["login-fail:pair:x"]) == {"login-fail:pair:x": 1}
    assert LoginCounter.objects.filter(cache_key__endswith="login-fail:pair:x").exists()
    assert len([r for r in caplog.records if "does not answer" in r.getMessage()]) == 3  # once for each cache


@pytest.mark.django_db
def test_a_session_ended_while_redis_does_not_answer_does_not_come_back_with_it(tmp_path, settings,
                                                                                 django_user_model):
    """Redis paused (it keeps its data, as across a network cut): the log-out deletes the session from the database
    only; the copy Redis still holds is deleted there as soon as it answers, before anything reads it."""
    server = RedisServer(tmp_path).start()
    try:
        settings.CACHES = cache_aliases(server.url)
        settings.SESSION_ENGINE = "config.accounts.sessions"
        owner = Client()
        owner.force_login(django_user_model.objects.create_user("paused", password="a-long-passphrase-7"))
        assert owner.get("/accounts/").status_code == 200
        stolen = owner.cookies[django_settings.SESSION_COOKIE_NAME].value

        redis.Redis.from_url(server.url).client_pause(3000)  # answers no command for 3 s
        paused_at = time.monotonic()
        assert owner.post("/accounts/logout/").status_code == 302
        time.sleep(max(0.0, paused_at + 3 + RETRY_SECONDS - time.monotonic()))

        thief = Client()
        thief.cookies[django_settings.SESSION_COOKIE_NAME] = stolen
        assert thief.get("/accounts/").status_code == 302  # to the log-in page: the session stays ended
    finally:
        server.stop()


@pytest.mark.django_db(transaction=True)
def test_the_database_stand_in_counts_every_failure_of_concurrent_log_ins():
    """Failed log-ins counted at once in the database stand-in each count (Django's own incr reads, then writes)."""
    from django.db import connection

    counters = DatabaseCache("accounts_login_counters", {})
    counters.add("login-fail:pair:many", 0, 900)

    def fail_many():
        try:
            for _ in range(25):
                counters.incr("login-fail:pair:many")
        finally:
            connection.close()

    threads = [threading.Thread(target=fail_many) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counters.get("login-fail:pair:many") == 150
