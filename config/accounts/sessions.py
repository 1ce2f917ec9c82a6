"""Sessions kept by each process between requests, and forgotten the moment Redis says they changed.

Every signed-in request reads its session; from Redis (cached_db), that round trip was about a third of the cheapest
request's CPU (docs/operations.md). Redis's own help for keeping copies (CLIENT TRACKING in broadcast mode) tells a
connection of each process about every change to a session's key, whoever made it: a log-out, a save, an expiry, a
flush. A session is read from Redis once and then from the process; before each read the process takes in what Redis
has told it, so a log-out still ends its session everywhere at once (Redis sends the notice as it deletes the key,
with the log-out's own answer). While that connection is down nothing is kept and every read goes to Redis, as
before; a copy is kept KEEP_SECONDS at most, which bounds its age should the connection die without a word.
"""

from __future__ import annotations

import os
import pickle
import select
import threading
import time

import redis
from django.contrib.sessions.backends import cached_db
from django.core.cache.backends.redis import RedisCache
from redis.backoff import NoBackoff
from redis.retry import Retry

from config.cache import OUTAGE_ERRORS, RETRY_SECONDS, SOCKET_TIMEOUTS

KEEP_SECONDS = 5.0
KEEP_LIMIT = 10_000
NOTICES = "__redis__:invalidate"  # the channel Redis tells a tracking connection on (RESP2)


class KeptSessions:
    """One process's copies of the sessions under one Redis key prefix, and its connection for Redis's notices."""

    def __init__(self, url: str, prefix: str) -> None:
        self._url, self._prefix = url, prefix
        self._lock = threading.Lock()  # a threaded server's requests share the copies
        self._kept: dict[str, tuple[float, bytes]] = {}  # Redis key: (until, on the monotonic clock; pickled data)
        self._notices = None  # the subscribed connection (a redis PubSub), or None while down
        self._client = None
        self.client_id = None  # that connection's, as Redis names it (CLIENT LIST)
        self._pid = None
        self._retry_at = 0.0
        self._heard = 0  # notices taken in (and connections lost): a read that heard of none since keeps its data

    def get(self, cache, key: str):
        full = cache.make_key(key)  # not validated: a session's key is the store's own, never a client's text
        with self._lock:
            listening, heard = self._listening(), self._heard
            if listening:
                kept = self._kept.get(full)
                if kept is not None and kept[0] > time.monotonic():
                    return pickle.loads(kept[1])  # the request's own copy: what it changes stays its own
        data = cache.get(key)
        if listening and data is not None:
            with self._lock:
                # Unless another thread took in a notice meanwhile (it may be of this key): a change after the read
                # is a notice still waiting, which the next read takes in.
                if self._notices is not None and self._heard == heard:
                    if len(self._kept) >= KEEP_LIMIT:
                        self._kept.clear()
                    self._kept[full] = (time.monotonic() + KEEP_SECONDS, pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
        return data

    def forget(self, cache, key: str) -> None:
        with self._lock:
            self._kept.pop(cache.make_key(key), None)

    def _listening(self) -> bool:
        """Takes in every notice Redis has sent; False (and nothing kept) while no connection hears them."""
        if self._pid != os.getpid():  # a forked worker: its parent's connection and copies are not its own
            self._pid, self._notices, self._client, self._retry_at = os.getpid(), None, None, 0.0
            self._kept.clear()
        if self._notices is None and time.monotonic() >= self._retry_at:
            self._connect()
        if self._notices is None:
            return False
        try:
            # Most reads have nothing to take in: the socket asked first, a tenth of what asking the client costs. A
            # drain leaves nothing in the client's buffer (it stops when there is nothing to read).
            sock = self._notices.connection._sock
            if sock is None:  # closed by the client after an error
                raise redis.ConnectionError("the notices' connection is closed")
            if not select.select([sock], [], [], 0)[0]:
                return True
            while (notice := self._notices.get_message(timeout=0)) is not None:
                if notice["type"] != "message":
                    continue
                self._heard += 1
                if notice["data"] is None:  # a flush: every key changed
                    self._kept.clear()
                for changed in notice["data"] or ():
                    self._kept.pop(changed.decode(), None)
        except (*OUTAGE_ERRORS, OSError, ValueError):  # ValueError: select on a closed socket
            self._down()
            return False
        return True

    def _connect(self) -> None:
        # RESP2: the notices come as messages on a channel, to a connection that asked for them for itself. Never
        # retried: a connection made again would hear nothing (the tracking was the lost connection's).
        client = redis.Redis.from_url(self._url, protocol=2, retry=Retry(NoBackoff(), 0), **SOCKET_TIMEOUTS)
        try:
            connection = client.connection_pool.get_connection()
            connection.send_command("CLIENT", "ID")
            own_id = connection.read_response()
            connection.send_command("CLIENT", "TRACKING", "ON", "REDIRECT", own_id, "BCAST", "PREFIX", self._prefix)
            connection.read_response()
            notices = client.pubsub()  # its confirmation read as a message: None means nothing left to read
            notices.connection = connection
            notices.subscribe(NOTICES)
        except (*OUTAGE_ERRORS, redis.ResponseError):  # down, or a server that refuses tracking: nothing kept
            self._down()
            return
        self._kept.clear()  # what was kept before may have changed unheard
        # The client too: once collected, it closes its connections, this one with them.
        self._notices, self._client, self.client_id = notices, client, own_id

    def _down(self) -> None:
        if self._client is not None:
            self._client.close()
        self._notices = self._client = None
        self._retry_at = time.monotonic() + RETRY_SECONDS
        self._heard += 1
        self._kept.clear()


_layers: dict[tuple[str, str], KeptSessions] = {}
_layers_lock = threading.Lock()


def kept_sessions(cache) -> KeptSessions | None:
    """The process's layer for sessions in `cache`, when it is Redis; None for any other cache."""
    if not isinstance(cache, RedisCache):
        return None
    where = (cache._servers[0], cache.make_key(cached_db.KEY_PREFIX))
    with _layers_lock:
        layer = _layers.get(where)
        if layer is None:
            layer = _layers[where] = KeptSessions(*where)
    return layer


class _KeptCache:
    """What cached_db's SessionStore asks of its cache, with the process's copies in front of Redis."""

    def __init__(self, cache, layer: KeptSessions) -> None:
        self._cache, self._layer = cache, layer

    def get(self, key, default=None):
        data = self._layer.get(self._cache, key)
        return default if data is None else data

    def set(self, key, value, timeout=None):
        self._layer.forget(self._cache, key)
        return self._cache.set(key, value, timeout)

    def delete(self, key):
        self._layer.forget(self._cache, key)
        return self._cache.delete(key)

    def __contains__(self, key) -> bool:
        return key in self._cache

    def __str__(self) -> str:
        return str(self._cache)


class SessionStore(cached_db.SessionStore):
    """cached_db's sessions (the database the record, Redis in front), with the process's copies in front of Redis."""

    def __init__(self, session_key=None):
        super().__init__(session_key)
        layer = kept_sessions(self._cache)
        if layer is not None:
            self._cache = _KeptCache(self._cache, layer)
