"""The in-process index answers exactly what the SQL path answers: the same cards in the same order, the
same counts, warnings and errors, and the same bytes from the API; built once per catalog stamp.

The SQL path is the reference. Random query trees over every field and operator are run through both,
on the loaded catalog, with random sort orders and pages.
"""

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards import selectors
from cards.models import Card
from cards.search import ORDERS, SearchError, search_cards, search_indexed
from cards.search import index as index_module
from cards.search.compiler import ORDER_ALIASES
from cards.search.index import CatalogIndex, bitset, positions_of
from tests.cards.search_factories import make_card
from tests.cards.test_search_text_identity import CASES, _phrases, _substring_filter

pytestmark = pytest.mark.django_db

STATS = ["vit", "atk", "def", "rng", "man", "cost", "influence", "vitality", "attack"]
OPS = [":", "=", "!=", "<", "<=", ">", ">="]
WORDS = ["golem", "knight", "the", "of the", "war", "stone", "ard", "a", "x", "Priestess", "u-18211", "L-CHA-01",
         "Bold Spearhand", "spear", "of", "high altar", "zzz"]
TEXTS = ["draw", "end of turn", "attack", "friendly units within", "+2", "(1 AP)", "age", "t", "unit can't", "",
         "~", "~ (instant", "~ (instant, 1 talent point)"]
PATTERNS = ["draw (a|two) cards?", "^rally", "turn\\.$", "\\d+ attack", "[0-9] cells?", "^$", "golem|knight",
            "^[a-c]", "of the .*", "\\bend\\b"]

term = st.one_of(
    st.sampled_from(WORDS).map(lambda w: f'"{w}"' if " " in w else w),
    st.tuples(st.sampled_from(["name:", "name=", "name!="]), st.sampled_from(WORDS)).map(lambda t: f'{t[0]}"{t[1]}"'),
    st.tuples(st.sampled_from(["o:", "o!="]), st.sampled_from(TEXTS)).map(lambda t: f'{t[0]}"{t[1]}"'),
    st.tuples(st.sampled_from(["o:", "name:", "o!=", "name!="]), st.sampled_from(PATTERNS)).map(
        lambda t: f"{t[0]}/{t[1]}/"),
    st.tuples(st.sampled_from(["c:", "c!=", "colour="]), st.sampled_from(["blue", "champion", "red", "universal"])).map(
        "".join),
    st.tuples(st.sampled_from(["t:", "t!="]), st.sampled_from(["unit", "legend", "talent", "item", "weapon"])).map(
        "".join),
    st.tuples(st.sampled_from(["sub:", "sub!="]), st.sampled_from(['"spell talent"', "relic", "armor"])).map("".join),
    st.tuples(st.sampled_from(STATS), st.sampled_from(OPS), st.sampled_from(["0", "1", "3", "5", "9", "10"])).map(
        "".join),
    st.tuples(st.sampled_from(STATS), st.sampled_from([":", "!="]), st.sampled_from(["2-4", "0-1", "7-9"])).map(
        "".join),
    st.tuples(st.sampled_from(STATS), st.sampled_from(OPS), st.sampled_from(["def", "atk", "vit", "rng"])).map("".join),
    st.tuples(st.sampled_from(["adir:", "mdir:", "adir!=", "mdir!="]),
              st.sampled_from(["n", "ne", "e", "se", "s", "sw", "w", "nw"])).map("".join),
    st.tuples(st.sampled_from(["kw:", "kw!="]), st.sampled_from(["aviation", "subdue", "spectral", "execution"])).map(
        "".join),
    st.tuples(st.sampled_from(["is:", "is!="]), st.sampled_from(["unique", "flying", "instant", "consumable"])).map(
        "".join),
    st.sampled_from(["cn:U-9*", "cn:u-18211", "cn!=L-CHA-01", "cn:L-*", "cn:*", "order:atk", "direction:desc",
                     "order:cn", "foo:bar", "not t:unit", "!blink", "!Fireball", "!golem", "pow>=5", "id:red"]),
)


def _tree(children):
    return st.one_of(
        st.lists(children, min_size=2, max_size=3).map(" ".join),
        st.lists(children, min_size=2, max_size=3).map(" or ".join),
        children.map(lambda c: f"-({c})"),
        children.map(lambda c: f"({c})"),
    )


query_tree = st.recursive(term, _tree, max_leaves=6)


@pytest.fixture(scope="module")
def catalog_index(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        return CatalogIndex("test", "/cards/CN.svg")


def _sql(query, order, direction):
    try:
        result = search_cards(query, order, direction)
        return list(result.queryset.values_list("id", flat=True)), result
    except SearchError as error:
        return None, error


def _indexed(index, query, order, direction):
    try:
        result = search_indexed(query, order, direction, index=index)
        count, positions = result.page(0, index.size)
        assert count == len(positions)
        return [index.ids[p] for p in positions], result
    except SearchError as error:
        return None, error


def assert_same_answer(index, query, order=None, direction=None, offset=0, limit=60):
    sql_ids, sql = _sql(query, order, direction)
    index_ids, indexed = _indexed(index, query, order, direction)
    if sql_ids is None or index_ids is None:
        assert (str(sql), getattr(sql, "expected", None)) == (str(indexed), getattr(indexed, "expected", None)), query
        return
    assert index_ids == sql_ids, query  # the same cards in the same order
    assert (indexed.order, indexed.direction, indexed.query_order, indexed.query_direction) == (
        sql.order, sql.direction, sql.query_order, sql.query_direction)
    assert [w.as_dict() for w in indexed.warnings] == [w.as_dict() for w in sql.warnings], query
    count, positions = indexed.page(offset, limit)
    assert count == len(sql_ids)
    assert [index.ids[p] for p in positions] == sql_ids[offset : offset + limit], (query, offset, limit)


ORDER_NAMES = [None, *ORDERS, *ORDER_ALIASES]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=query_tree, order=st.sampled_from(ORDER_NAMES), direction=st.sampled_from([None, "asc", "desc"]),
       offset=st.sampled_from([0, 0, 1, 59, 60, 127, 128, 129, 255, 256, 1000, 4000, 8200]),
       limit=st.sampled_from([1, 3, 60, 200]))
def test_random_query_trees_find_the_same_cards_in_the_same_order_on_both_paths(catalog_index, query, order,
                                                                                  direction, offset, limit):
    assert_same_answer(catalog_index, query, order, direction, offset, limit)


@pytest.mark.parametrize("query", [
    "", "golem", '"of the"', "t:legend", "t:unit c:champion", "c:blue or c:purple", "atk>=7 def>=5", "vit<=3 rng=3",
    "t:unit atk>def order:atk direction:desc", "kw:aviation man>=2", "is:flying adir:s", "adir:n adir:s -adir:e",
    "mdir:ne or mdir:nw", "(c:green or c:orange) vit>=6 -is:unique", "kw:subdue or kw:execution", "o:draw",
    'o:"end of turn"', "-t:unit", 'sub:"spell talent"', "t:item", "cn:U-9*", "is:unique t:unit order:vit",
    "name:the order:cn", "o:/draw (a|two) cards?/", "name:/^(bold|dim) /", "-o:/attack/ t:unit order:def", "o:~",
])
@pytest.mark.parametrize("direction", [None, "desc"])
def test_the_bench_mix_and_patterns_find_the_same_cards_on_both_paths(catalog_index, query, direction):
    for offset in (0, 60, 2940):
        assert_same_answer(catalog_index, query, None, direction, offset)


def test_every_sort_order_matches_the_databases_on_every_card(catalog_index):
    for order in ORDERS:
        for direction in ("asc", "desc"):
            assert_same_answer(catalog_index, "", order, direction, 0, catalog_index.size)


@pytest.mark.parametrize(("query", "plain"), CASES, ids=[c[0] for c in CASES])
def test_names_and_texts_are_found_as_the_plain_substring_filter_finds_them(catalog_index, query, plain):
    found = {catalog_index.ids[p] for p in _indexed(catalog_index, query, None, None)[1].page(0, 10**6)[1]}
    numbers = set(Card.objects.filter(pk__in=found).values_list("collector_number", flat=True))
    assert numbers == _substring_filter(plain) and numbers


def test_phrases_from_the_catalog_find_exactly_the_substring_matches(catalog_index):
    rows = list(Card.objects.order_by("id").values_list("id", "name", "text"))
    sample = rows[::240]
    phrases = sorted({("name", p) for _, name, _ in sample for p in _phrases(name)}
                     | {("o", p) for _, _, text in sample for p in _phrases(text)})
    column = {"name": 1, "o": 2}
    assert len(phrases) > 500
    for field, phrase in phrases:
        wanted = {row[0] for row in rows if phrase.lower() in row[column[field]].lower()}
        result = search_indexed(f'{field}:"{phrase}"', index=catalog_index)
        assert {catalog_index.ids[p] for p in result.page(0, 10**6)[1]} == wanted, phrase


@pytest.mark.parametrize("params", [
    {"q": "t:unit atk>def order:atk direction:desc", "page": "3"}, {"q": "kw:aviation"}, {"q": '"of the"'},
    {"q": "", "page": "120"}, {"q": "t:unit foo:bar", "page_size": "5"}, {"q": "o:draw", "format": "json"},
])
def test_the_api_answers_the_same_bytes_on_both_paths(client, settings, params):
    settings.SEARCH_ENGINE = "sql"
    sql = client.get("/api/cards/", params)
    settings.SEARCH_ENGINE = "index"
    indexed = client.get("/api/cards/", params)
    assert sql.status_code == indexed.status_code == 200
    assert indexed.content == sql.content
    assert indexed["Content-Type"] == sql["Content-Type"]


@pytest.mark.parametrize("fmt", ["csv", "text"])
def test_csv_and_text_answers_are_the_same_on_both_paths(client, settings, fmt):
    answers = []
    for engine in ("sql", "index"):
        settings.SEARCH_ENGINE = engine
        answers.append(client.get("/api/cards/", {"q": "kw:subdue order:atk", "format": fmt}).content)
    assert answers[0] == answers[1]


def test_an_indexed_api_search_runs_no_query_once_the_index_is_built(client, settings):
    settings.SEARCH_ENGINE = "index"
    client.get("/api/cards/", {"q": "golem"})
    with CaptureQueriesContext(connection) as queries:
        body = client.get("/api/cards/", {"q": "t:unit atk>=7 o:/attack/ order:def", "page": "2"}).json()
    assert body["count"] > 60
    assert all("cards_catalogrelease" in q["sql"] for q in queries.captured_queries)  # the stamp, every 2 s


def test_the_index_is_built_once_per_catalog_stamp_and_shared(monkeypatch):
    index_module.forget()
    builds = []
    real = index_module.CatalogIndex

    def counting(*args, **kwargs):
        builds.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(index_module, "CatalogIndex", counting)
    found = []
    threads = [threading.Thread(target=lambda: found.append(index_module.catalog_index("one", "/CN")))
               for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert builds == ["one"] and len({id(i) for i in found}) == 1
    assert index_module.catalog_index("one", "/CN") is found[0]
    assert index_module.catalog_index("two", "/CN") is not found[0] and builds == ["one", "two"]


def test_a_card_saved_in_the_process_is_found_at_once(client, settings):
    settings.SEARCH_ENGINE = "index"
    assert client.get("/api/cards/", {"q": "tst newly saved"}).json()["count"] == 0
    card = make_card("Tst Newly Saved")
    assert client.get("/api/cards/", {"q": "tst newly saved"}).json()["count"] == 1
    card.name = "Tst Renamed Card"
    card.save()
    assert client.get("/api/cards/", {"q": "tst newly saved"}).json()["count"] == 0


def test_a_new_catalog_stamp_rebuilds_the_index(settings):
    from cards.models import CatalogRelease

    settings.SEARCH_ENGINE = "index"
    selectors._version_memo = None
    first = selectors.search_index()
    assert selectors.search_index() is first
    CatalogRelease.objects.create(version="tst-next", digest="x", card_count=1)
    selectors._version_memo = None  # as if the two-second memo had run out
    assert selectors.search_index() is not first


def test_bitsets_and_positions_round_trip():
    for positions in ([], [0], [5, 64, 65, 8261], list(range(0, 300, 7))):
        bits = bitset(positions)
        assert positions_of(bits) == sorted(positions) and bits.bit_count() == len(positions)
