"""Reads for the goldfish table and the replay viewer."""

from __future__ import annotations

import functools
import uuid
from datetime import datetime
from typing import Any

from django.db import connection

from cards.selectors import card_texts
from playtest.goldfish.board import CardFaces
from playtest.models import GoldfishTable


def card_faces(*, decks: list[dict[str, Any]]) -> CardFaces:
    """The cards of these deck snapshots, with the catalog's rules text (a card it lacks is drawn plainly)."""
    codes = {code for d in decks for code in d["cards"]}
    return CardFaces.from_decks(decks, card_texts(codes=codes))


# The length of a JSON array column, in each database's words (the column is jsonb on PostgreSQL, text on SQLite).
_ARRAY_LENGTH = {"postgresql": "jsonb_array_length", "sqlite": "json_array_length"}


@functools.cache
def _thinking_statement(vendor: str) -> str:
    quote, field = connection.ops.quote_name, GoldfishTable._meta.get_field
    since = quote(field("thinking_since").column)
    return (f"SELECT {_ARRAY_LENGTH[vendor]}({quote(field('actions').column)}), {since} <= %s "
            f"FROM {quote(GoldfishTable._meta.db_table)} "
            f"WHERE {quote(GoldfishTable._meta.pk.column)} = %s AND {quote(field('owner').column)} = %s "
            f"AND {since} IS NOT NULL")


def table_thinking_unchanged(*, user, table_id: uuid.UUID, shown: int, stale_before: datetime) -> bool:
    """Whether the user's table `table_id` is still thinking, with the `shown` actions the page shows and no more,
    and has thought since `stale_before` (later than that its task is sent again, which the table's page does).

    The thinking table's page asks every second: one statement, written once per process (compiling a queryset
    cost five times executing it), and nothing rendered while nothing changed."""
    if not user.is_authenticated:
        return False
    with connection.cursor() as cursor:
        cursor.execute(_thinking_statement(connection.vendor), (
            connection.ops.adapt_datetimefield_value(stale_before),
            GoldfishTable._meta.pk.get_db_prep_value(table_id, connection), user.pk))
        row = cursor.fetchone()
    return row is not None and row[0] == shown and not row[1]
