"""Lookups of the search compiler.

`hasbit` tests one bit of the direction bit sets, in SQL that SQLite and PostgreSQL both speak.

`fts` is the full-text pre-filter of phrase searches: `text__fts="of:* & turn:*"` holds when the
column has words beginning with each of those words. On PostgreSQL it is served by the GIN indexes
of migration 0004; elsewhere it compiles to nothing (every row). The compiler only ANDs it with a
substring condition that implies it, so it never changes which cards are found.
"""

from __future__ import annotations

from django.core.exceptions import FullResultSet
from django.db.models import Lookup


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
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        # The vector is the indexed expression of migration 0004, character for character. It reads
        # upper(column), the text that icontains compares, and the query goes through the same
        # upper(), so both sides fold case alike. '<' and ':' become spaces: the parser would drop
        # words inside <tags> and before "://" (protocol tokens are not indexed).
        vector = f"to_tsvector('simple', translate(upper({lhs}), '<:', '  '))"
        return f"{vector} @@ to_tsquery('simple', upper({rhs}))", [*lhs_params, *rhs_params]


def register() -> None:
    from ..models import Card

    # Field instances, so that only the card columns get them (idempotent).
    for name in ("attack_directions", "maneuver_directions"):
        Card._meta.get_field(name).register_lookup(HasBit)
    for name in ("name", "text"):
        Card._meta.get_field(name).register_lookup(WordPrefixes)
