"""A read of one row by its key, compiled once per database connection and executed again with each key.

Compiling a queryset that brings related rows along (select_related with only) cost several times executing it:
of the 1.9 ms of CPU that the deck read behind every deck page and deck API call took, about 1.5 ms was Django
building the same statement again. A PreparedGet keeps what the compilation makes, the statement and how its rows
become model instances (the converters of the columns and the populators of the related rows, as Django's own
ModelIterable uses them), and executes the statement with the key it is asked for.

It holds what Django's compiler made for one connection (a connection is a thread's), and builds the instances as
ModelIterable does, so a read through it gives what `queryset.get(pk=key)` gives: tests/decks/test_prepared.py
compares the two, field by field and related row by related row.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
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
    model: type[Model]
    fields: slice  # the columns of the model's own row
    attnames: list[str]
    populators: list


class PreparedGet:
    """`PreparedGet(lambda: Model.objects.select_related(...).only(...)).get(key)`: the row with that primary key,
    or Model.DoesNotExist (also for a key no column could hold)."""

    def __init__(self, queryset: Callable[[], QuerySet]) -> None:
        self._queryset = queryset
        self._compiled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _compile(self, connection) -> _Compiled:
        query = self._queryset().filter(pk=_PLACEHOLDER)[:2].query
        compiler = query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        if list(params) != [_PLACEHOLDER]:
            raise ValueError(f"a prepared read takes its key as its only parameter, not {params!r}")
        select, info = compiler.select, compiler.klass_info
        first, last = info["select_fields"][0], info["select_fields"][-1] + 1
        return _Compiled(sql=sql, compiler=compiler, converters=compiler.get_converters([s[0] for s in select]),
                         model=info["model"], fields=slice(first, last),
                         attnames=[column[0].target.attname for column in select[first:last]],
                         populators=get_related_populators(info, select, connection.alias))

    def get(self, key: int) -> Model:
        connection = connections[DEFAULT_DB_ALIAS]
        compiled = self._compiled.get(connection)
        if compiled is None:
            compiled = self._compiled[connection] = self._compile(connection)
        if not 0 < key <= MAX_BIG_INTEGER:  # no id column holds it: nothing to look up
            raise compiled.model.DoesNotExist()
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, [key])
            rows = cursor.fetchall()
        if len(rows) != 1:
            raise compiled.model.DoesNotExist()
        row = next(compiled.compiler.apply_converters(rows, compiled.converters)) if compiled.converters else rows[0]
        obj = compiled.model.from_db(connection.alias, compiled.attnames, row[compiled.fields])
        for populator in compiled.populators:
            populator.populate(row, obj)
        return obj
