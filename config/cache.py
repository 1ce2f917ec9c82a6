"""Django's Redis cache backend, with one client per connection pool instead of one per call.

Django builds a new redis.Redis client for every cache operation, and redis-py's client set-up
(its tables of response callbacks) costs more than a cache read on loopback. A client is
thread-safe and only wraps its pool, so one per pool serves every call.
"""

from __future__ import annotations

from django.core.cache.backends import redis as django_redis


class ReusedClientCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = ReusedClientCacheClient
