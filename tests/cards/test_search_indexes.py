import pytest
from django.db import connection

from cards.models import Card
from cards.search import search_cards

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the search indexes exist on PostgreSQL only"),
]


def _indexes() -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'cards_card'")
        return dict(cursor.fetchall())


def test_migration_creates_trigram_indexes_for_name_and_text():
    indexes = _indexes()
    assert "gin_trgm_ops" in indexes["cards_card_name_trgm"] and "upper" in indexes["cards_card_name_trgm"]
    assert "gin_trgm_ops" in indexes["cards_card_text_trgm"]


def test_migration_creates_full_text_indexes_for_name_and_text():
    indexes = _indexes()
    for name, column in (("cards_card_name_fts", "(name)::text"), ("cards_card_text_fts", "text")):
        assert f"USING gin (to_tsvector('simple'::regconfig, translate(upper({column}), " in indexes[name]


def test_search_indexes_are_updated_in_place_without_a_pending_list():
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, reloptions FROM pg_class WHERE relname ~ '^cards_card_(name|text)_(trgm|fts)$'")
        options = dict(cursor.fetchall())
    assert options == {f"cards_card_{column}_{kind}": ["fastupdate=off"]
                       for column in ("name", "text") for kind in ("trgm", "fts")}


def _plan(queryset) -> str:
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE cards_card")
    return queryset.explain()


@pytest.mark.parametrize(("query", "index"), [
    ("golem", "cards_card_name_trgm"), ("name:knight", "cards_card_name_trgm"), ("o:draw", "cards_card_text_trgm"),
    ('o:"end of turn"', "cards_card_text_fts"), ('o:"draw a card"', "cards_card_text_fts"),
])
def test_name_and_text_searches_use_their_indexes_on_the_loaded_catalog(query, index):
    assert index in _plan(search_cards(query).queryset.order_by())


@pytest.mark.parametrize(("column", "index"), [("name", "cards_card_name_fts"), ("text", "cards_card_text_fts")])
def test_the_full_text_lookup_is_the_indexed_expression(column, index):
    """Whatever the planner prefers for a given phrase, it can use the index for the lookup."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
    assert index in _plan(Card.objects.filter(**{f"{column}__fts": "of & the:*"}))
