"""kombu's Redis transport, with a worker that outlives a Redis restart.

When a worker loses its Redis connection, Celery 5.7 first collects the connection, which releases its transport,
and then closes it. The old channels still in use afterwards (closing the default one puts the unacknowledged
messages back on the queue; a chunk that finishes later acknowledges its message) ask the released transport for
Redis's address and meet an AttributeError, which Celery does not expect: the worker exits ("Unrecoverable error")
whenever it had a chunk in hand. Here such a channel says instead that its connection is gone, a connection error,
which kombu and Celery handle: the put-back and the acknowledgement are logged as failed, the messages stay
unacknowledged in Redis, which hands them out again after the visibility timeout (a chunk delivered twice counts
once), and the worker reconnects once Redis is back.

Registered for redis:// and rediss:// URLs when this module is imported (config/celery.py imports it).
"""

from __future__ import annotations

from kombu.transport import TRANSPORT_ALIASES, redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection.client is None:
            raise RedisConnectionError("This channel's broker connection was lost and closed.")
        return super()._connparams(asynchronous=asynchronous)


class Transport(redis.Transport):
    Channel = Channel


for _scheme in ("redis", "rediss"):
    TRANSPORT_ALIASES[_scheme] = f"{__name__}:Transport"
