"""Catalog, card and help pages: the same search language, htmx partial updates, no inline script."""

import re

import pytest

from cards.models import CardType
from tests.cards.search_factories import dirs, make_card

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, params=["index", "sql"])
def engine(request, settings):
    """Every test of the catalog pages runs on both search paths: the in-process index and the database."""
    settings.SEARCH_ENGINE = request.param
    return request.param


@pytest.fixture
def cards():
    make_card("Tst Page Golem", craft="engineering", vitality=26, attack=5, defense=7, range=4, maneuver=1,
              attack_directions=dirs("n", "ne"), maneuver_directions=dirs("s"), keywords=("subdue",),
              collector_number="TST-P1", text="Draw a card.")
    make_card("Tst Page Lancer", craft="divine", vitality=23, attack=4, defense=1, range=5, maneuver=2,
              flying_maneuver=3, collector_number="TST-P2")
    make_card("Tst Page Ward", craft="sorcery", type=CardType.TALENT, subtype="spell talent", cost=1,
              collector_number="TST-P3")


def assert_no_inline_script_or_style(html):
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, tag
    assert " style=" not in html


def test_catalog_page_searches_with_the_query_in_the_url(client, cards):
    html = client.get("/cards/", {"q": "tst page t:unit"}).content.decode()
    assert "2 cards" in html
    assert "/cards/TST-P1.svg" in html and "/cards/TST-P2.svg" in html and "TST-P3.svg" not in html
    assert 'value="tst page t:unit"' in html
    assert_no_inline_script_or_style(html)
    assert "/static/js/card-search.js" in html


def test_table_view_sorts_and_header_links_toggle_direction(client, cards):
    html = client.get("/cards/", {"q": "tst page t:unit", "view": "table", "order": "atk"}).content.decode()
    assert html.index("Tst Page Lancer") < html.index("Tst Page Golem")
    assert 'aria-sort="ascending"' in html
    assert '<option value="atk" selected>Attack</option>' in html  # the sort control says it in words
    assert "order=atk&amp;direction=desc" in html
    html = client.get("/cards/", {"q": "tst page t:unit", "view": "table", "order": "atk",
                                  "direction": "desc"}).content.decode()
    assert html.index("Tst Page Golem") < html.index("Tst Page Lancer")


def test_htmx_request_gets_only_the_results_and_the_sort_controls(client, cards):
    html = client.get("/cards/", {"q": "tst page"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in html and "3 cards" in html
    assert 'id="view-controls"' in html and 'hx-swap-oob="innerHTML"' in html


def _shown(html):
    """The grid's card names in order, and what the sort controls and the status say."""
    order = re.search(r'<select id="order".*?</select>', html, re.S).group(0)
    direction = re.search(r'<select id="direction".*?</select>', html, re.S).group(0)
    return (re.findall(r'class="card-caption"><strong>(Tst Page \w+)<', html),
            re.search(r'<option value="(\w+)" selected>', order).group(1),
            re.search(r'<option value="(\w+)" selected>', direction).group(1),
            re.search(r"sorted by (\w+ \w+)\.", html).group(1))


def test_the_form_unchanged_leaves_the_sort_to_the_query_and_shows_it(client, cards):
    # What the form sends when the player typed order:atk direction:desc and left the controls alone.
    html = client.get("/cards/", {"q": "tst page t:unit order:atk direction:desc", "order": "name",
                                  "direction": "asc", "query_order": "name", "query_direction": "asc"}).content.decode()
    assert _shown(html) == (["Tst Page Golem", "Tst Page Lancer"], "atk", "desc", "attack descending")
    assert "search-warnings" not in html
    assert 'name="query_order" value="atk"' in html and 'name="query_direction" value="desc"' in html


def test_a_changed_control_overrides_the_query_with_a_warning(client, cards):
    html = client.get("/cards/", {"q": "tst page t:unit order:atk", "order": "vit", "direction": "asc",
                                  "query_order": "atk", "query_direction": "asc"}).content.decode()
    assert _shown(html) == (["Tst Page Lancer", "Tst Page Golem"], "vit", "asc", "vitality ascending")
    assert "takes precedence" in html and "(column 17)" in html
    assert 'name="query_order" value="atk"' in html  # still what the query alone chooses


def test_sort_parameters_without_the_forms_fields_still_take_precedence(client, cards):
    html = client.get("/cards/", {"q": "tst page t:unit order:atk", "order": "name"}).content.decode()
    assert _shown(html)[1:] == ("name", "asc", "name ascending") and "takes precedence" in html


def test_table_headings_sort_explicitly(client, cards):
    html = client.get("/cards/", {"q": "tst page t:unit order:atk", "view": "table", "query_order": "atk",
                                  "query_direction": "asc"}).content.decode()
    link = re.search(r'href="\?([^"]*)" data-sort="atk"', html).group(1)
    assert "direction=desc" in link and "query_order" not in link and "query_direction" not in link


def test_pagination_keeps_the_query(client):
    for i in range(61):
        make_card(f"Tst Paged {i:02d}")
    html = client.get("/cards/", {"q": "tst paged"}).content.decode()
    assert "page 1 of 2" in html
    assert "q=tst+paged&amp;page=2" in html
    second = client.get("/cards/", {"q": "tst paged", "page": 2}).content.decode()
    assert "Tst Paged 60" in second and "Tst Paged 00" not in second


def test_unparsable_query_shows_the_position_and_expectation_not_an_error_page(client):
    response = client.get("/cards/", {"q": "atk>=5 (c:red"})
    html = response.content.decode()
    assert response.status_code == 200
    assert 'role="alert"' in html and "never closed" in html and "At column 14, expected &#x27;)&#x27;" in html


def test_the_caret_under_a_query_counts_wide_characters_as_two_cells(client):
    html = client.get("/cards/", {"q": "龍龍龍 c:pink"}).content.decode()
    line = html.split('<pre class="caret" aria-hidden="true">')[1].split("</pre>")[0].split("\n")[1]
    assert line == " " * 9 + "^"  # under "p": three wide characters (six cells), a space, "c:"


def test_warnings_are_shown(client, cards):
    html = client.get("/cards/", {"q": "tst page hue:red"}).content.decode()
    assert "Unknown field" in html and "(column 10)" in html


def test_filter_controls_write_query_terms(client):
    html = client.get("/cards/").content.decode()
    assert 'data-term-field="c"' in html and 'data-term="is:unique"' in html and 'data-term-field="adir"' in html
    assert "data-filters hidden" in html  # shown by the script, which is what makes them work


def test_card_page_shows_every_field_and_explains_the_direction_indicator(client, cards):
    response = client.get("/cards/TST-P1/")
    html = response.content.decode()
    assert response.status_code == 200
    for text in ("Tst Page Golem", "Unit — Engineering", "TST-P1", "Vitality", "26", "Attack", "Defense", "Range",
                 "Maneuver", "Subdue", "Draw a card.", "outer ring", "inner ring",
                 "Attacks toward: north (forward), north-east.", "Maneuvers toward: south (back)."):
        assert text in html, text
    assert '<img src="/cards/TST-P1.svg" alt="Card face of Tst Page Golem' in html
    assert 'href="/decks/new/?card=TST-P1"' in html
    assert "Public decks with this card" in html
    assert_no_inline_script_or_style(html)


def test_card_page_for_a_talent_has_no_stats(client, cards):
    html = client.get("/cards/TST-P3/").content.decode()
    assert "Spell Talent" in html and "Direction indicator" not in html and "Cost" in html


def test_an_abilitys_cost_says_what_pays_it(client):
    """A glyph costs action points to play, and its instant ability talent points: "cost 3" beside "Cost 2" read as
    a contradiction."""
    make_card("Tst Binding", type=CardType.GLYPH, cost=2, collector_number="TST-P9", abilities=[
        {"name": "Binding", "trigger": "instant", "cost": 3, "text": "Stun a chosen enemy unit."},
        {"name": "Ward", "trigger": "activated", "cost": 1, "text": "Heal 1."}])
    html = client.get("/cards/TST-P9/").content.decode()
    assert "(instant, 3 talent points)" in html and "(activated, 1 action point)" in html


def test_card_page_lists_public_decks_using_the_card(client, cards):
    from cards.models import Card
    from decks.models import Deck, DeckEntry, Visibility

    card = Card.objects.get(collector_number="TST-P1")
    public = Deck.objects.create(name="Tst Public Deck", visibility=Visibility.PUBLIC)
    private = Deck.objects.create(name="Tst Private Deck", visibility=Visibility.PRIVATE)
    for deck in (public, private):
        DeckEntry.objects.create(deck=deck, card=card, count=1)
    html = client.get("/cards/TST-P1/").content.decode()
    assert "Tst Public Deck" in html and "Tst Private Deck" not in html


def test_unknown_card_page_is_404(client):
    assert client.get("/cards/NOPE-1/").status_code == 404


def test_help_page_documents_every_field_with_runnable_examples(client):
    html = client.get("/cards/help/").content.decode()
    for field in ("name:", "c:", "t:", "sub:", "vit", "atk", "def", "rng", "man", "adir:", "mdir:", "kw:", "is:",
                  "o:", "cn:", "order:", "direction:"):
        assert f"<code>{field}" in html, field
    assert 'href="/cards/?q=sub%3A%22relic+weapon%22"' in html
    assert 'href="/cards/?q=%21fireball"' in html and "is the exact name" in html  # Scryfall's reading of !word
    assert_no_inline_script_or_style(html)


def test_catalog_page_queries_do_not_grow_with_the_number_of_cards_shown(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for i in range(60):
        make_card(f"Tst Counted {i:02d}", keywords=("subdue",))
    client.get("/cards/", {"q": "tst counted"})  # the search index is built once for the cards as they now are
    counts = []
    for query in ("tst counted 07", "tst counted"):  # 1 card, then a full page of 60
        for view in ("grid", "table"):
            with CaptureQueriesContext(connection) as queries:
                html = client.get("/cards/", {"q": query, "view": view}).content.decode()
            assert ("60 cards" in html) == (query == "tst counted")
            counts.append((view, len(queries)))
    assert counts[:2] == counts[2:]


def test_a_search_that_finds_nothing_suggests_close_names(client):
    make_card("Tst Quixotic Warden", collector_number="TST-Q1")
    html = client.get("/cards/", {"q": "quixotik"}).content.decode()
    assert "0 cards" in html and "Did you mean" in html
    assert '<a href="/cards/TST-Q1/">Tst Quixotic Warden</a>' in html


def test_no_suggestions_when_something_matches_or_for_fields_only(client):
    make_card("Tst Quixotic Warden", collector_number="TST-Q1")
    assert "Did you mean" not in client.get("/cards/", {"q": "quixotic"}).content.decode()
    # A field term close to the card's name is not a name: it suggests nothing.
    assert "Did you mean" not in client.get("/cards/", {"q": "o:quixotik"}).content.decode()


@pytest.mark.parametrize("page", ["-1", "0", "abc", "2.5", "٣", "99999999999"])
def test_a_page_number_that_is_not_one_is_refused_with_its_words(client, page):
    response = client.get("/cards/", {"q": "", "page": page})
    assert response.status_code == 400
    assert f"page: “{page[:20]}” is not a page number" in response.content.decode()


def test_a_page_past_the_last_shows_the_last_page(client, cards):
    response = client.get("/cards/", {"q": "Tst Page", "page": "40"})
    assert response.status_code == 200 and "Tst Page Golem" in response.content.decode()
