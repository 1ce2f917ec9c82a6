"""Indexes for the search language on PostgreSQL: trigram indexes serve the case-insensitive
substring search of names and rules text. SQLite has no such indexes; the same queries run
there without them."""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations

INDEXES = {
    # icontains compiles to UPPER(column) LIKE UPPER(pattern): index that expression.
    "cards_card_name_trgm": "USING gin (UPPER(name) gin_trgm_ops)",
    "cards_card_text_trgm": "USING gin (UPPER(text) gin_trgm_ops)",
}


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, definition in INDEXES.items():
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {name} ON cards_card {definition}")


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("cards", "0001_initial")]

    operations = [
        TrigramExtension(),
        migrations.RunPython(create_indexes, drop_indexes, elidable=False),
    ]
