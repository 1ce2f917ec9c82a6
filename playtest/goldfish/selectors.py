"""Reads for the goldfish table and the replay viewer."""

from __future__ import annotations

import functools
import uuid
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils.crypto import constant_time_compare, salted_hmac

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


def thinking_token(table_id: uuid.UUID, actions: int) -> str:
    """What the page of a thinking table sends back as it asks whether the table moved on: its number of actions,
    sealed, since that number counts the passes the person is not shown (DG-15.7)."""
    return salted_hmac("goldfish-thinking", f"{table_id}:{actions}").hexdigest()[:20]


def shown_actions(table_id: uuid.UUID, token: str, actions: int, least: int = 0) -> int | None:
    """The number of actions (from `least` to `actions`) whose `thinking_token` is `token`: what a thinking table's
    page showed when it asked; None if none is."""
    for count in range(actions, least - 1, -1):
        if constant_time_compare(thinking_token(table_id, count), token):
            return count
    return None


def table_thinking_unchanged(*, user, table_id: uuid.UUID, shown: str, stale_before: datetime) -> bool:
    """Whether the user's table `table_id` is still thinking, with the actions the page shows (`shown`, their
    `thinking_token`) and no more, and has thought since `stale_before` (later than that its task is sent again,
    which the table's page does).

    The thinking table's page asks every second: one statement, written once per process (compiling a queryset
    cost five times executing it), and nothing rendered while nothing changed."""
    if not user.is_authenticated:
        return False
    with connection.cursor() as cursor:
        cursor.execute(_thinking_statement(connection.vendor), (
            connection.ops.adapt_datetimefield_value(stale_before),
            GoldfishTable._meta.pk.get_db_prep_value(table_id, connection), user.pk))
        row = cursor.fetchone()
    return row is not None and not row[1] and constant_time_compare(thinking_token(table_id, row[0]), shown)


TABLES_LISTED = 10  # the newest: a table is a session of play, gone back to soon or not at all


def tables_of(*, user) -> list[dict[str, Any]]:
    """The person's newest goldfish tables, to go back to one: their deck, their opponent, how far the person has
    played and when. Read from the row's JSON where it lies, not by loading each table's deck lists."""
    from django.db.models.fields.json import KT

    from playtest.goldfish.services import LEVELS

    levels = {policy: level for level, policy in LEVELS.items()}
    rows = (GoldfishTable.objects.filter(owner=user).order_by("-updated_at")
            .values("id", "updated_at", "human_moves", "conceded_step", "closed_under",
                    deck_name=KT("params__decks__0__name"), opponent_name=KT("params__decks__1__name"),
                    policy=KT("params__opponent_policy"), format=KT("params__format"))[:TABLES_LISTED])
    return [{**row, "moves": len(row["human_moves"]), "level": levels.get(row["policy"] or "")} for row in rows]
