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
