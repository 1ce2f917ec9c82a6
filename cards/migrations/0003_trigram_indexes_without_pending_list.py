"""Trigram indexes updated in place on PostgreSQL.

GIN indexes queue new entries in a "pending list" by default (fastupdate), merged only by a vacuum.
A catalog load writes every card at once, so until autovacuum came by the name index was all
pending list: PostgreSQL scanned it in full and the planner preferred a sequential scan, making a
name search ten times slower. Catalog loads are rare; searches are not.
"""

from django.db import migrations

INDEXES = ("cards_card_name_trgm", "cards_card_text_trgm")


def fastupdate_off(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"ALTER INDEX {name} SET (fastupdate = off)")
        schema_editor.execute(f"SELECT gin_clean_pending_list('{name}'::regclass)")


def fastupdate_on(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in INDEXES:
        schema_editor.execute(f"ALTER INDEX {name} RESET (fastupdate)")


class Migration(migrations.Migration):
    dependencies = [("cards", "0002_search_indexes")]

    operations = [migrations.RunPython(fastupdate_off, fastupdate_on, elidable=False)]
