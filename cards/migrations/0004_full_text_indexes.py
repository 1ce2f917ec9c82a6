"""Full-text indexes on PostgreSQL, for the word pre-filter of phrase searches in names and rules
text (cards/search/lookups.py, docs/search.md). SQLite has no such indexes and no pre-filter.

The indexed expression must be the one the `fts` lookup writes, or the planner cannot use it.
Built without a pending list, as the trigram indexes are since 0003.
"""

from django.db import migrations

INDEXES = {"cards_card_name_fts": "name", "cards_card_text_fts": "text"}


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, column in INDEXES.items():
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON cards_card USING gin "
            f"(to_tsvector('simple', translate(upper({column}), '<:', '  '))) WITH (fastupdate = off)"
        )


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("cards", "0003_trigram_indexes_without_pending_list")]

    operations = [migrations.RunPython(create_indexes, drop_indexes, elidable=False)]
