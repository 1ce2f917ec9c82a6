import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="trigram indexes exist on PostgreSQL only"),
]


def test_migration_creates_trigram_indexes_for_name_and_text():
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'cards_card'")
        indexes = dict(cursor.fetchall())
    assert "gin_trgm_ops" in indexes["cards_card_name_trgm"] and "upper" in indexes["cards_card_name_trgm"]
    assert "gin_trgm_ops" in indexes["cards_card_text_trgm"]


def test_trigram_indexes_are_updated_in_place_without_a_pending_list():
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, reloptions FROM pg_class WHERE relname LIKE 'cards_card_%_trgm'")
        options = dict(cursor.fetchall())
    assert options == {"cards_card_name_trgm": ["fastupdate=off"], "cards_card_text_trgm": ["fastupdate=off"]}


def _plan(queryset) -> str:
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE cards_card")
    return queryset.explain()


@pytest.mark.parametrize(("query", "index"), [("golem", "cards_card_name_trgm"), ("name:knight", "cards_card_name_trgm"),
                                              ('o:"end of turn"', "cards_card_text_trgm")])
def test_name_and_text_searches_use_their_trigram_index_on_the_loaded_catalog(query, index):
    from cards.search import search_cards

    assert index in _plan(search_cards(query).queryset.order_by())
