"""The cache backends behind a redis:// CACHE_URL: Django's Redis cache, with one client per connection pool, that
degrades when Redis does not answer; and the database cache that counts failed log-ins meanwhile.

One client per pool: Django builds a new redis.Redis client for every cache operation, and redis-py's client set-up
(its tables of response callbacks) costs more than a cache read on loopback. A client is thread-safe and only wraps
its pool, so one per pool serves every call.

A rate limit is at most one round trip: count_in_window runs WINDOW_SCRIPT, which counts a sliding window atomically
in Redis (config/rate_window.py). A limit of 2 x LEASE_SHARE or more is counted ahead: one round trip takes a
LEASE_SHARE-th of the limit for this process, which lets that many requests through without asking again.

An outage degrades, never fails. The cache usually shares its Redis with the job broker, and every request reads it
(rate limits, sessions), so a Redis that raised would make every request a 500. Instead each cache names in FALLBACK
the cache that stands in for it while Redis does not answer (config/settings.py, cache_aliases): a miss for the
answers and the sessions (read from the database then), a count per process for the rate limits, the database for
the failed log-ins (never a limit that lets everything through). Sockets time out within a second; after a failure
Redis is left alone for RETRY_SECONDS, so a request waits on a dead server at most once in that time. A key written
to the stand-in may be stale in Redis (a session ended during the outage would come back with it): it is deleted
there as soon as Redis answers again, before anything else is read.
"""

from __future__ import annotations

import inspect
import itertools
import logging
import os
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.core.cache import caches
from django.core.cache.backends import db as django_db
from django.core.cache.backends import dummy
from django.core.cache.backends import redis as django_redis
from django.db import connections, router, transaction
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .rate_window import Window, count_in_window

log = logging.getLogger(__name__)

OUTAGE_ERRORS = (RedisConnectionError, RedisTimeoutError)
RETRY_SECONDS = 2.0
# A cache read on loopback takes well under a millisecond; a server that does not answer within these is down.
SOCKET_TIMEOUTS = {"socket_connect_timeout": 0.5, "socket_timeout": 1.0}
# The operations that write a key, whose Redis copy is stale once they are done by the stand-in.
WRITES = frozenset({"add", "set", "touch", "delete", "incr", "set_many", "delete_many"})
FORGET_BATCH = 1000
MISS = dummy.DummyCache("", {})  # the stand-in of a cache without FALLBACK: nothing kept, nothing found
# A rate limit's sliding window (config/rate_window.py) in one atomic step: a sorted set of the times counted, on
# Redis's clock. Takes back the members named after ARGV[4] (a lease's unused slots), drops the times older than the
# window, counts the rest, and adds up to ARGV[3] members (a lease's slots, each named ARGV[4]:i) under the limit.
# Returns {granted, count, now, oldest} (times as strings: Redis would truncate a Lua number to an integer).
WINDOW_SCRIPT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local limit, duration, block = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 5, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - duration)
local count = redis.call('ZCARD', KEYS[1])
local granted = math.max(math.min(block, limit - count), 0)
for i = 1, granted do redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i) end
count = count + granted
redis.call('EXPIRE', KEYS[1], math.ceil(duration))
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or tostring(now)
return {granted, count, tostring(now), tostring(oldest)}
"""
# A process counts ahead (a lease) a LEASE_SHARE-th of a limit, at least one request and at most LEASE_MOST (each
# slot is a member of the set, added and later dropped one by one): a limit under 2 x LEASE_SHARE is counted exactly,
# one round trip a request. A lease's slots unused after LEASE_SECONDS are given back at its next count. What that
# costs in exactness is in docs/operations.md.
LEASE_SHARE = 20
LEASE_MOST = 50
LEASE_SECONDS = 1.0
# Leases a process keeps before it forgets those whose window has passed (their slots have left the window in Redis,
# so nothing is lost): without it, every client a long-lived process ever counted would keep its lease in memory.
LEASES_KEPT = 1024


def lease_size(limit: int) -> int:
    return max(1, min(limit // LEASE_SHARE, LEASE_MOST))


@dataclass
class _Lease:
    name: str  # its slots are the members name:1 ... name:granted
    granted: int
    used: int
    count: int  # the window's count when it was granted, its slots included
    now: float  # Redis's clock then, and the window's oldest time
    oldest: float
    taken: float  # time.monotonic() then
    ends: float  # time.monotonic() when its window has passed

    def unused(self) -> list[str]:
        return [f"{self.name}:{i}" for i in range(self.used + 1, self.granted + 1)]

    def window(self, mono: float) -> Window:
        """The window as this process knows it: the count when granted, less the slots it has not used yet."""
        return Window(True, self.count - (self.granted - self.used), self.now + (mono - self.taken), self.oldest)


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
    """params["FALLBACK"]: the alias of the cache that answers while Redis does not; without one, a miss."""

    def __init__(self, server, params) -> None:
        super().__init__(server, {**params, "OPTIONS": {**SOCKET_TIMEOUTS, **params.get("OPTIONS", {})}})
        self._class = ReusedClientCacheClient
        self._fallback = params.get("FALLBACK")
        self._down_until = 0.0  # time.monotonic(): Redis is not tried again before; 0 while it answers
        # One instance per thread (Django's caches are thread-local), so this state needs no lock.
        self._stale: set[str] = set()  # keys written to the stand-in, to delete from Redis once it answers
        self._window_script = None  # WINDOW_SCRIPT, registered on first use
        self._members = itertools.count()  # with the time and the process: every lease named on its own
        self._leases: dict[str, _Lease] = {}  # by key: the slots this process counted ahead
        self._leases_kept = LEASES_KEPT  # how many before the next forgetting (doubled while most are live)
        where = urlsplit(self._servers[0])
        self._where = f"{where.hostname}:{where.port or 6379}{where.path}"  # for the log, without a password

    def _call(self, name: str, args: tuple, kwargs: dict):
        if time.monotonic() >= self._down_until:
            try:
                forgotten = self._forget_stale()
                primary = self._count_in_window if name == "count_in_window" else getattr(super(), name)
                answer = primary(*args, **kwargs)
            except OUTAGE_ERRORS as exc:
                if not self._down_until:
                    log.warning("The cache at %s does not answer (%s); %s stands in for it.", self._where, exc,
                                f"the {self._fallback!r} cache" if self._fallback else "a miss")
                self._down_until = time.monotonic() + RETRY_SECONDS
            else:
                if self._down_until:
                    log.warning("The cache at %s answers again (%d keys written meanwhile deleted there).",
                                self._where, forgotten)
                    self._down_until = 0.0
                return answer
        if name in WRITES:
            self._stale.update(self._written_keys(name, args, kwargs))
        stand_in = caches[self._fallback] if self._fallback else MISS
        if name == "count_in_window":  # a window of its own in the stand-in (its keys are not Redis's)
            return count_in_window(stand_in, *args, **kwargs)
        return getattr(stand_in, name)(*args, **kwargs)

    def count_in_window(self, key: str, limit: int, duration: float) -> Window:
        """config.rate_window.count_in_window in one round trip (WINDOW_SCRIPT)."""
        return self._call("count_in_window", (key, limit, duration), {})

    def _count_in_window(self, key: str, limit: int, duration: float) -> Window:
        mono = time.monotonic()
        lease = self._leases.get(key)
        if lease is not None and lease.used < lease.granted and mono - lease.taken < LEASE_SECONDS:
            lease.used += 1
            return lease.window(mono)
        if self._window_script is None:
            self._window_script = self._cache.get_client(write=True).register_script(WINDOW_SCRIPT)
        # Its own key: DRF kept a list at the plain key, which a sorted set may not replace.
        name = f"{time.time_ns()}:{os.getpid()}:{next(self._members)}"
        given_back = lease.unused() if lease is not None else []
        granted, count, now, oldest = self._window_script(
            keys=[self.make_and_validate_key(f"{key}:window")],
            args=[limit, duration, lease_size(limit), name, *given_back])
        if not granted:
            self._leases.pop(key, None)
            return Window(False, int(count), float(now), float(oldest))
        if len(self._leases) >= self._leases_kept:
            self._forget_past_leases(mono)
        self._leases[key] = _Lease(name, int(granted), 1, int(count), float(now), float(oldest), mono,
                                   mono + duration)
        return self._leases[key].window(mono)

    def _forget_past_leases(self, mono: float) -> None:
        """Drop the leases whose window has passed; the next forgetting waits for twice as many as are left, so
        that many live clients cost a forgetting now and then, not one at every lease."""
        self._leases = {key: lease for key, lease in self._leases.items() if lease.ends > mono}
        self._leases_kept = max(LEASES_KEPT, 2 * len(self._leases))

    def _forget_stale(self) -> int:
        stale = list(self._stale)
        for start in range(0, len(stale), FORGET_BATCH):
            self._cache.delete_many(stale[start:start + FORGET_BATCH])
        self._stale.clear()
        return len(stale)

    def _written_keys(self, name: str, args: tuple, kwargs: dict) -> list[str]:
        bound = inspect.signature(getattr(django_redis.RedisCache, name)).bind(self, *args, **kwargs).arguments
        keys = [bound["key"]] if "key" in bound else list(bound.get("data") or bound.get("keys") or ())
        return [self.make_and_validate_key(key, version=bound.get("version")) for key in keys]

    def add(self, *args, **kwargs):
        return self._call("add", args, kwargs)

    def get(self, *args, **kwargs):
        return self._call("get", args, kwargs)

    def set(self, *args, **kwargs):
        return self._call("set", args, kwargs)

    def touch(self, *args, **kwargs):
        return self._call("touch", args, kwargs)

    def delete(self, *args, **kwargs):
        return self._call("delete", args, kwargs)

    def get_many(self, *args, **kwargs):
        return self._call("get_many", args, kwargs)

    def has_key(self, *args, **kwargs):
        return self._call("has_key", args, kwargs)

    def incr(self, *args, **kwargs):
        return self._call("incr", args, kwargs)

    def set_many(self, *args, **kwargs):
        return self._call("set_many", args, kwargs)

    def delete_many(self, *args, **kwargs):
        return self._call("delete_many", args, kwargs)

    def clear(self):
        return self._call("clear", (), {})


class DatabaseCache(django_db.DatabaseCache):
    """Django's database cache, with an incr that two processes cannot interleave: Django's reads, then writes, so two
    failed log-ins counted at once would count one. Here the read and the write are one transaction that holds the
    row (FOR UPDATE; SQLite's IMMEDIATE transactions take the write lock as they begin)."""

    def incr(self, key, delta=1, version=None):
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        with transaction.atomic(using=db):
            if connection.features.has_select_for_update:
                quote = connection.ops.quote_name
                with connection.cursor() as cursor:
                    cursor.execute(f"SELECT 1 FROM {quote(self._table)} WHERE {quote('cache_key')} = %s FOR UPDATE",
                                   [self.make_and_validate_key(key, version=version)])
            return super().incr(key, delta, version)
