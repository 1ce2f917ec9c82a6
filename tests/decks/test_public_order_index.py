"""The public decks' index serves the lists that read them in the public order (PostgreSQL: the plans)."""

import pytest
from django.db import connection

from decks import selectors
from decks.models import Deck, Visibility
from decks.services import deck_create

from .factories import entries_of, make_card, make_user

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="a plan of PostgreSQL's"),
]


def _plan(sql: str, params) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # the test's few rows would be read whole otherwise
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_a_cards_page_reads_its_public_decks_in_the_index_order():
    """A staple card held by most public decks: its page's twenty are read by walking the index until the page is
    full, which needs the index's columns, directions and condition to be the list's order and filter."""
    card = make_card(name="Tst Staple")
    owner = make_user()
    for n in range(3):
        deck_create(owner=owner, name=f"Staple {n}", visibility=Visibility.PUBLIC, entries=entries_of((card, 1)))
    captured = []
    with connection.execute_wrapper(lambda execute, sql, params, many, context: (
            captured.append((sql, params)), execute(sql, params, many, context))[1]):
        decks = selectors.public_decks_with_card(card.pk)
    assert [d.name for d in decks] == ["Staple 2", "Staple 1", "Staple 0"]
    plan = _plan(*captured[0])
    assert "deck_public_order" in plan and "Sort" not in plan


def test_the_public_deck_list_reads_in_the_index_order():
    queryset = selectors.deck_list_public()[:20]
    plan = _plan(*queryset.query.sql_with_params())
    assert "deck_public_order" in plan and "Sort" not in plan
    assert Deck.objects.filter(visibility=Visibility.PUBLIC).exists()  # the starters, at least
