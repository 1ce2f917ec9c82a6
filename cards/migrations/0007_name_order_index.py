"""The search's order of names indexed: lower-cased names compared by code point, then the collector number.

cards.search.lookups.NameOrder is the expression searches sort by (LOWER(name), pinned to the "C" collation on
PostgreSQL); an index on the same expression lets a page of an unfiltered or broad search be read in order
instead of sorting the catalog.
"""

from django.db import migrations

INDEX = "cards_card_name_order"
EXPRESSION = {"postgresql": '(LOWER("name") COLLATE "C")', "sqlite": 'LOWER("name")'}


def create(apps, schema_editor):
    expression = EXPRESSION.get(schema_editor.connection.vendor)
    if expression is not None:
        schema_editor.execute(f'CREATE INDEX {INDEX} ON cards_card ({expression}, "collector_number")')


def drop(apps, schema_editor):
    if schema_editor.connection.vendor in EXPRESSION:
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("cards", "0006_dreaddraw_card_moved")]

    operations = [migrations.RunPython(create, drop, elidable=False)]
