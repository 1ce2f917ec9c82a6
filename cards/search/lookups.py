"""`hasbit`: tests one bit of the direction bit sets, in SQL that SQLite and PostgreSQL both speak."""

from __future__ import annotations

from django.db.models import Lookup


class HasBit(Lookup):
    lookup_name = "hasbit"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"({lhs} & {rhs}) <> 0", [*lhs_params, *rhs_params]


def register() -> None:
    from ..models import Card

    for name in ("attack_directions", "maneuver_directions"):
        Card._meta.get_field(name).register_lookup(HasBit)  # idempotent
