"""The test database as it stands once the catalog is loaded, taken once per session and put back after each
transactional test (which flushes every table), in place of loading the catalog again (seconds of CPU each time).

SQLite: the whole database file, through SQLite's backup API, into memory and back. PostgreSQL: every table
that holds rows, through COPY in binary, and the sequences set past the rows put back; the search's GIN indexes
(fastupdate off: each row inserted into them one by one, 2.8 s for the cards) are dropped first and built again
after, as they were (0.7 s for the whole put-back).
"""

from __future__ import annotations

import sqlite3

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, transaction


class CatalogSnapshot:
    def __init__(self) -> None:
        connection.ensure_connection()
        if connection.vendor == "sqlite":
            self._copy = sqlite3.connect(":memory:")
            connection.connection.backup(self._copy)
        else:
            self._tables = self._copy_out()
            self._gin_indexes = self._gin_index_definitions()

    def restore(self) -> None:
        connection.ensure_connection()
        if connection.vendor == "sqlite":
            self._copy.backup(connection.connection)
        else:
            self._copy_in()

    def _copy_out(self) -> dict[str, bytes]:
        tables = {}
        with connection.cursor() as cursor:
            for table in connection.introspection.table_names(cursor):
                cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {connection.ops.quote_name(table)})")
                if cursor.fetchone()[0]:
                    with cursor.copy(f"COPY {connection.ops.quote_name(table)} TO STDOUT (FORMAT binary)") as copy:
                        tables[table] = b"".join(bytes(block) for block in copy)
        return tables

    def _gin_index_definitions(self) -> dict[str, str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
                           "AND tablename = ANY(%s) AND indexdef LIKE '%%USING gin%%'", [list(self._tables)])
            return dict(cursor.fetchall())

    def _copy_in(self) -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            for name in self._gin_indexes:
                cursor.execute(f"DROP INDEX IF EXISTS {connection.ops.quote_name(name)}")
            # Emptied together first: a TRUNCATE ... CASCADE of one table after another had been put back would empty
            # that one again (a card's keywords, truncated with the cards they point at).
            names = ", ".join(connection.ops.quote_name(table) for table in self._tables)
            cursor.execute(f"TRUNCATE {names} CASCADE")
            cursor.execute("SET session_replication_role = replica")  # rows go back in any order: no FK triggers
            try:
                for table, data in self._tables.items():
                    with cursor.copy(f"COPY {connection.ops.quote_name(table)} FROM STDIN (FORMAT binary)") as copy:
                        copy.write(data)
            finally:
                cursor.execute("SET session_replication_role = DEFAULT")
            for sql in connection.ops.sequence_reset_sql(no_style(), apps.get_models(include_auto_created=True)):
                cursor.execute(sql)
            for definition in self._gin_indexes.values():
                cursor.execute(definition)
