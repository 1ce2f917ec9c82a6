"""Full-text pre-filter on PostgreSQL: stored tsvector columns instead of expression indexes.

With the expression indexes of 0004, a common phrase made PostgreSQL combine the lossy trigram
index with the full-text one and recheck every matching row, computing to_tsvector again for each:
`o:"this unit"` took ten times as long as with the trigram index alone. `name_fts` and `text_fts`
are computed by PostgreSQL when a row is written (GENERATED ... STORED), so a recheck reads them.

The columns are not in the model: SQLite has no tsvector, and Django, not knowing them, never
selects or writes them. The `fts` lookup (cards/search/lookups.py) names them. Their expression is
the one of 0004, which tests/cards/test_search_text_identity.py validates. PostgreSQL refuses to
change the type of a column a generated column reads: a migration altering `name` or `text` must
drop these columns first and add them again after. The GIN indexes keep the names of 0004 and are
built without a pending list, as the trigram indexes are since 0003.
"""

from django.db import migrations

COLUMNS = {"name": "cards_card_name_fts", "text": "cards_card_text_fts"}  # column: its index


def _vector(column: str) -> str:
    return f"to_tsvector('simple', translate(upper({column}), '<:', '  '))"


FORWARD = [
    *(f"DROP INDEX IF EXISTS {index}" for index in COLUMNS.values()),
    "ALTER TABLE cards_card " + ", ".join(
        f"ADD COLUMN {column}_fts tsvector GENERATED ALWAYS AS ({_vector(column)}) STORED" for column in COLUMNS
    ),
    *(f"CREATE INDEX {index} ON cards_card USING gin ({column}_fts) WITH (fastupdate = off)"
      for column, index in COLUMNS.items()),
]

BACKWARD = [  # back to the expression indexes of 0004
    *(f"DROP INDEX IF EXISTS {index}" for index in COLUMNS.values()),
    "ALTER TABLE cards_card " + ", ".join(f"DROP COLUMN IF EXISTS {column}_fts" for column in COLUMNS),
    *(f"CREATE INDEX {index} ON cards_card USING gin ({_vector(column)}) WITH (fastupdate = off)"
      for column, index in COLUMNS.items()),
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for statement in statements:
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("cards", "0004_full_text_indexes")]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD), elidable=False)]
