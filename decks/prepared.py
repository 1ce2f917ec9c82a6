"""Reads by one key, compiled once per database connection and executed again with each key.

Compiling a queryset cost several times executing it: of the 1.9 ms of CPU that the deck read behind every deck
page and deck API call took, about 1.5 ms was Django building the same statement again, and so for the reads of a
deck's cards behind every change in the editor. A prepared read keeps what the compilation makes (the statement,
the converters of its columns and, for instances, the populators of the related rows, as Django's own iterables use
them) and executes the statement with the key it is asked for.

It holds what Django's compiler made for one connection (a connection is a thread's), and builds its answer as
Django's ModelIterable and ValuesListIterable do, so a read through it gives what the queryset gives:
tests/decks/test_prepared.py compares the two.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

from core.intbounds import MAX_BIG_INTEGER

_PLACEHOLDER = 7_777_777_777_777  # a key compiled in, to find the key's parameter in the statement


@dataclass(frozen=True)
class _Compiled:
    sql: str
    compiler: Any  # what applies the converters, with the connection it was made for
    converters: dict
    made: dict = field(default_factory=dict)  # what a subclass derives from the compiler once


class _Prepared:
    def __init__(self, queryset: Callable[[int], QuerySet]) -> None:
        """`queryset(key)`: the read, for one key; the key must be its only parameter."""
        self._queryset = queryset
        self._compiled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _compile(self, connection) -> _Compiled:
        compiler = self._queryset(_PLACEHOLDER).query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        if list(params) != [_PLACEHOLDER]:
            raise ValueError(f"a prepared read takes its key as its only parameter, not {params!r}")
        converters = compiler.get_converters([column[0] for column in compiler.select])
        return _Compiled(sql=sql, compiler=compiler, converters=converters)

    def _rows(self, key: int) -> tuple[_Compiled, list]:
        """The statement as compiled for this thread's connection, and its rows for `key`, converted."""
        connection = connections[DEFAULT_DB_ALIAS]
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compiled[connection] = self._compile(connection)
        if not 0 < key <= MAX_BIG_INTEGER:  # no id column holds it: nothing to look up
            return compiled, []
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [key])
            rows = cursor.fetchall()
        if compiled.converters:
            rows = list(compiled.compiler.apply_converters(rows, compiled.converters))
        return compiled, rows


class PreparedGet(_Prepared):
    """`PreparedGet(lambda key: Model.objects.select_related(...).only(...).filter(pk=key)).get(key)`: the one row
    it reads, as a model instance with its related rows, or Model.DoesNotExist (also for a key no column holds)."""

    def get(self, key: int) -> Model:
        compiled, rows = self._rows(key)
        made = compiled.made
        if not made:
            select, info = compiled.compiler.select, compiled.compiler.klass_info
            first, last = info["select_fields"][0], info["select_fields"][-1] + 1
            made.update(model=info["model"], fields=slice(first, last),
                        attnames=[column[0].target.attname for column in select[first:last]],
                        populators=get_related_populators(info, select, compiled.compiler.connection.alias))
        if len(rows) != 1:
            raise made["model"].DoesNotExist()
        obj = made["model"].from_db(compiled.compiler.connection.alias, made["attnames"], rows[0][made["fields"]])
        for populator in made["populators"]:
            populator.populate(rows[0], obj)
        return obj


class PreparedRows(_Prepared):
    """`PreparedRows(lambda key: Model.objects.filter(parent_id=key).values_list(...)).rows(key)`: its rows, as
    tuples of the columns listed."""

    def rows(self, key: int) -> tuple[tuple, ...]:
        return tuple(tuple(row) for row in self._rows(key)[1])
