"""Lookups and expressions of the search compiler.

`NameOrder` is the key names sort by: lower case, compared character by character (code point),
as Scryfall and the deck export sort (case-insensitively: "Blade of the First Champion" before
"Blade Storm"). On PostgreSQL the comparison is pinned to the "C" collation, whatever the database's
own, so that the order is the same on every database (SQLite compares the lowered bytes, which for
UTF-8 is code point order); migration 0007 indexes the same expression with the collector number,
which breaks ties.

`hasbit` tests one bit of the direction bit sets, in SQL that SQLite and PostgreSQL both speak.

`fts` is the full-text pre-filter of phrase searches: `text__fts="of:* & turn:*"` holds when the
column has words beginning with each of those words. On PostgreSQL it reads the stored tsvector
columns `name_fts` and `text_fts` of migration 0005, which GIN indexes serve; elsewhere it compiles
to nothing (every row). The compiler only ANDs it with a substring condition that implies it, so it
never changes which cards are found.
"""

from __future__ import annotations

from django.core.exceptions import FullResultSet
from django.db.models import CharField, Func, Lookup
from django.db.models.expressions import Col

# Card column: its stored tsvector column on PostgreSQL (migration 0005; not in the model).
FTS_COLUMNS = {"name": "name_fts", "text": "text_fts"}


class HasBit(Lookup):
    lookup_name = "hasbit"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"({lhs} & {rhs}) <> 0", [*lhs_params, *rhs_params]


class WordPrefixes(Lookup):
    lookup_name = "fts"

    def as_sql(self, compiler, connection):
        raise FullResultSet  # no full-text index here: the substring condition alone does the work

    def as_postgresql(self, compiler, connection):
        # The lhs is the card's column, as the lookup is registered on the fields `name` and `text`
        # only; the condition reads its stored vector instead, in the same table alias (a join or a
        # subquery relabels it). The vector is to_tsvector('simple', translate(upper(column), '<:',
        # '  ')): upper(column) is the text that icontains compares, and the query goes through the
        # same upper(), so both sides fold case alike. '<' and ':' become spaces: the parser would
        # drop words inside <tags> and before "://" (protocol tokens are not indexed).
        column = self.lhs
        if not isinstance(column, Col) or column.target.column not in FTS_COLUMNS:
            raise ValueError(f"the fts lookup applies to the card columns {', '.join(FTS_COLUMNS)} only")
        table = compiler.quote_name_unless_alias(column.alias)
        vector = f"{table}.{connection.ops.quote_name(FTS_COLUMNS[column.target.column])}"
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{vector} @@ to_tsquery('simple', upper({rhs}))", rhs_params


class NameOrder(Func):
    function = "LOWER"
    output_field = CharField()

    def as_postgresql(self, compiler, connection, **extra_context):
        sql, params = self.as_sql(compiler, connection, **extra_context)
        return f'({sql} COLLATE "C")', params


def register() -> None:
    from ..models import Card

    # Field instances, so that only the card columns get them (idempotent).
    for name in ("attack_directions", "maneuver_directions"):
        Card._meta.get_field(name).register_lookup(HasBit)
    for name in ("name", "text"):
        Card._meta.get_field(name).register_lookup(WordPrefixes)
