import pytest
from django.db import connection

from cards.models import Card, CardType
from cards.search import search_cards
from tests.cards.search_factories import make_card

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


def test_migration_creates_stored_full_text_columns_and_their_indexes():
    """Generated from the expression the identity tests validate, and indexed as plain columns."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, data_type, is_generated, generation_expression FROM information_schema.columns"
            " WHERE table_name = 'cards_card' AND column_name LIKE '%%_fts'"
        )
        columns = {name: rest for name, *rest in cursor.fetchall()}
    assert columns == {
        "name_fts": ["tsvector", "ALWAYS", "to_tsvector('simple'::regconfig, translate(upper((name)::text), "
                                           "'<:'::text, '  '::text))"],
        "text_fts": ["tsvector", "ALWAYS", "to_tsvector('simple'::regconfig, translate(upper(text), "
                                           "'<:'::text, '  '::text))"],
    }
    indexes = _indexes()
    assert "USING gin (name_fts)" in indexes["cards_card_name_fts"]
    assert "USING gin (text_fts)" in indexes["cards_card_text_fts"]


def test_the_model_does_not_know_the_full_text_columns():
    """SQLite has no tsvector: the columns exist on PostgreSQL only, which computes them on every write."""
    assert not {"name_fts", "text_fts"} & {field.column for field in Card._meta.concrete_fields}


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


def test_a_page_of_the_whole_catalog_reads_the_index_of_the_order_of_names():
    """Names sort case-insensitively (cards.search.lookups.NameOrder): the expression index of migration 0007 gives
    the first page in order, without sorting the catalog."""
    plan = _plan(search_cards("").queryset[:60])
    assert "cards_card_name_order" in plan and "Sort" not in plan


@pytest.mark.parametrize("query", ['o:"end of turn"', 'o:"this unit"', '"of the"', 'name:"the a"'])
def test_phrase_searches_read_the_stored_vectors_and_never_compute_one(query):
    """Whichever index the planner takes, rechecking a row reads its stored vector."""
    plan = _plan(search_cards(query).queryset.order_by())
    assert "_fts @@ " in plan and "to_tsvector" not in plan


@pytest.mark.parametrize(("column", "index"), [("name", "cards_card_name_fts"), ("text", "cards_card_text_fts")])
def test_the_full_text_lookup_reads_the_indexed_column(column, index):
    """Whatever the planner prefers for a given phrase, it can use the index for the lookup."""
    queryset = Card.objects.filter(**{f"{column}__fts": "of & the:*"})
    assert f'"cards_card"."{column}_fts" @@ to_tsquery(' in str(queryset.query)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
    assert index in _plan(queryset)


def test_the_full_text_lookup_follows_its_table_into_a_subquery():
    inner = Card.objects.filter(text__fts="end:* & of & turn:*", text__icontains="end of turn").order_by("name")
    outer = Card.objects.filter(pk__in=inner.values("pk")[:5])
    assert 'U0."text_fts" @@ ' in str(outer.query)
    assert list(outer.order_by("name")) == list(inner[:5])


def test_writes_fill_the_full_text_columns():
    """Django neither selects nor writes the columns; PostgreSQL computes them on insert and update."""
    def words():
        return set(Card.objects.filter(text__fts="tstashen & tstlanterns:*"))

    card = make_card(text="Light the tstashen tstlanterns.")
    new = Card(name="Tst Tstashen Tstlantern", collector_number="TST-BULK", craft="divine", type=CardType.ITEM,
               text="Carry the tstashen tstlanterns.", catalog_version="test")
    [bulk] = Card.objects.bulk_create([new])
    assert words() == {card, bulk}
    Card.objects.filter(pk=card.pk).update(text="Put out the tstlanterns.")
    bulk.text = "The tstlanterns, unlit."
    bulk.save()
    assert words() == set()
    card.text = "Tstashen tstlanterns again."
    Card.objects.bulk_update([card], ["text"])
    assert words() == {card}
    assert list(Card.objects.filter(name__fts="tstashen & tstlantern:*")) == [bulk]
