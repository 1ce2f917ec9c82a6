"""The Redis cache backend (config.cache): Django's, with one client per connection pool."""

import threading

from config.cache import RedisCache

from .faults.support import RedisServer


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
        assert reloaded.CACHES["default"]["BACKEND"] == "config.cache.RedisCache"
        assert reloaded.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"
    finally:
        monkeypatch.delenv("CACHE_URL")
        importlib.reload(config.settings)
