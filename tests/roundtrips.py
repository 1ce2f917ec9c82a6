"""Counting what a request costs in round trips: SQL queries on every database connection, and cache round trips.

A cache round trip is one exchange with the cache server: on Redis, one command or one pipeline sent
(`send_packed_command`, which every command and every pipeline goes through, once each, including the job broker's);
on the embedded default's in-process caches, one call of a cache operation (a get_many is one, however many keys).
The "local" cache, each process's own copy in front of a shared one, is no round trip and is not counted.
Used by the budget tests (tests/test_budgets.py) and the web bench (bench/load_web.py).
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from unittest import mock

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connections
from redis.connection import AbstractConnection

LOCMEM_OPERATIONS = ("add", "get", "set", "touch", "delete", "has_key", "incr", "get_many", "set_many", "delete_many",
                     "clear")


@dataclass
class RoundTrips:
    queries: int = 0
    cache: int = 0
    # What was sent, to say which when a budget is exceeded: the queries, and each cache call's first words.
    sql: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.queries} queries, {self.cache} cache round trips"


@contextmanager
def counted():
    """Counts the SQL queries and cache round trips made inside the block: `with counted() as trips: ...`."""
    trips = RoundTrips()
    depth = [0]  # a locmem get_many calls get per key: only the outermost operation is a round trip

    def query(execute, sql, params, many, context):
        trips.queries += 1
        trips.sql.append(sql)
        return execute(sql, params, many, context)

    def redis_sent(original):
        def send(self, command, *args, **kwargs):
            trips.cache += 1
            packed = b"".join(command) if isinstance(command, list | tuple) else command
            trips.calls.append(" ".join(part.decode(errors="replace") for part in packed.split(b"\r\n")[2:9:2]))
            return original(self, command, *args, **kwargs)
        return send

    def locmem(original):
        def operation(self, *args, **kwargs):
            depth[0] += 1
            try:
                if depth[0] == 1 and self is not caches["local"]:
                    trips.cache += 1
                    trips.calls.append(f"{original.__name__} {args[0] if args else ''}")
                return original(self, *args, **kwargs)
            finally:
                depth[0] -= 1
        return operation

    with ExitStack() as stack:
        for alias in connections:
            stack.enter_context(connections[alias].execute_wrapper(query))
        stack.enter_context(mock.patch.object(AbstractConnection, "send_packed_command",
                                              redis_sent(AbstractConnection.send_packed_command)))
        for name in LOCMEM_OPERATIONS:
            stack.enter_context(mock.patch.object(LocMemCache, name, locmem(getattr(LocMemCache, name))))
        yield trips
