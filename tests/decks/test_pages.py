"""Deck pages: lists, deck page, editor changes, import, export, delete, print, history."""

import html
import itertools
import re

import pytest

from decks import selectors, services
from decks.models import Deck, Visibility
from decks.selectors import deck_list_public
from decks.services import deck_create

from .factories import entries_of, legal_pool, make_card, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return make_user("pageowner")


def make_deck(owner, visibility=Visibility.PRIVATE, **kwargs):
    pool = legal_pool(9)
    return deck_create(owner=owner, name="Page deck", visibility=visibility,
                       entries=entries_of(*[(c, 4) for c in pool]), **kwargs)


def test_my_decks_and_public_decks(logged_in, owner, client):
    make_deck(owner)
    other = make_user()
    deck_create(owner=other, name="Shared Hinter", visibility=Visibility.PUBLIC,
                entries=entries_of((make_card(craft="hinter"), 4)))
    mine = logged_in.get("/decks/").content.decode()
    assert "Page deck" in mine and "Shared Hinter" not in mine
    public = logged_in.get("/decks/public/?craft=hinter").content.decode()
    assert "Shared Hinter" in public and "Page deck" not in public
    assert "Shared Hinter" not in logged_in.get("/decks/public/?craft=sorcery").content.decode()


def test_my_decks_are_found_by_name_card_craft_and_format_and_sorted_as_asked(logged_in, owner):
    """As the public list finds decks; the last edited first unless sorted by name or format."""
    pike = make_card(name="Zz Finder Pike", craft="hinter")
    deck_create(owner=owner, name="Beta ramp", entries=entries_of((pike, 4)))
    deck_create(owner=owner, name="Alpha aggro", format="quick", description="fast and ramp-free", entries=[])
    deck_create(owner=owner, name="Gamma control", entries=[])

    def listed(query):
        page = logged_in.get(f"/decks/?{query}")
        assert page.status_code == 200
        return re.findall(r'<td><a href="/decks/\d+/">([^<]+)</a>', page.content.decode())

    assert listed("") == ["Gamma control", "Alpha aggro", "Beta ramp"]  # the last edited first
    assert listed("order=name") == ["Alpha aggro", "Beta ramp", "Gamma control"]
    assert listed("order=format") == ["Alpha aggro", "Beta ramp", "Gamma control"]  # quick, then standard
    assert listed("q=ramp&order=name") == ["Alpha aggro", "Beta ramp"]  # a name or a description
    assert listed("card=finder pike") == ["Beta ramp"] and listed("craft=hinter") == ["Beta ramp"]
    assert listed("format=quick") == ["Alpha aggro"]
    assert "None of your decks matches" in logged_in.get("/decks/?q=nothing-like-it").content.decode()
    refused = logged_in.get("/decks/?order=colour")
    assert refused.status_code == 400 and "order: “colour” is not one of updated, name, format" in \
        refused.content.decode()


@pytest.mark.parametrize("query, words", [
    ("craft=hinters", "craft: “hinters” is not one of artifice, champion, divine, engineering, hinter, sorcery"),
    ("format=modern", "format: “modern” is not one of standard, quick, tactical"),
])
def test_public_decks_refuse_a_filter_they_do_not_know_rather_than_list_nothing(client, query, words):
    response = client.get(f"/decks/public/?{query}")
    assert response.status_code == 400 and words in response.content.decode()


def test_the_deck_api_refuses_a_craft_it_does_not_know_as_the_page_does(client):
    response = client.get("/api/decks/", {"craft": "pink"})
    assert response.status_code == 400 and response.json()["error"]["details"]["parameter"] == "craft"
    assert client.get("/api/decks/", {"craft": "hinter"}).status_code == 200


def test_deck_page_shows_badge_stats_odds_and_actions(logged_in, owner):
    deck = make_deck(owner)
    html = logged_in.get(f"/decks/{deck.pk}/").content.decode()
    assert 'data-legal="true"' in html and "Legal · Standard · 36 cards" in html
    assert "<svg" in html and "Vitality curve" in html
    assert "N = 36" in html and "K = 36" in html  # all units: every category hit is certain
    assert f"/playtest/new/?deck={deck.pk}" in html
    assert "Clone" in html and "Edit" in html
    visual = logged_in.get(f"/decks/{deck.pk}/?view=visual").content.decode()
    assert visual.count("<img") == 9 and 'alt="Zz Test Unit' in visual


@pytest.mark.parametrize("view", ["", "?view=visual", "?view=text"])
def test_the_deck_pages_headings_skip_no_level(client, owner, view):
    deck = make_deck(owner, Visibility.PUBLIC)
    html = client.get(f"/decks/{deck.pk}/{view}").content.decode()
    main = html.split("<main", 1)[1]
    levels = [int(n) for n in re.findall(r"<h([1-6])\b", main)]
    assert levels[0] == 1 and all(b <= a + 1 for a, b in itertools.pairwise(levels)), levels


def test_odds_panel_recalculates(logged_in, owner):
    deck = make_deck(owner)
    html = logged_in.get(f"/decks/{deck.pk}/stats/?category=vit:2&hand=6&draws=1&turns=2").content.decode()
    assert "K = 0" in html and "0.0%" in html


def test_odds_asked_out_of_range_are_said_so_beside_the_odds_of_the_values_used(logged_in, owner):
    """They were moved into range, or to the defaults, unsaid: the box kept 99 beside the odds of an opening hand
    of 20 (or, from the page, of the value before)."""
    deck = make_deck(owner)
    response = logged_in.get(f"/decks/{deck.pk}/stats/", {"hand": "99", "draws": "-1", "turns": "0",
                                                          "category": "nope"})
    html = response.content.decode()
    assert response.status_code == 400
    for words in ("Opening hand: “99” is not a whole number from 0 to 20; the odds below use 6.",
                  "Draws per turn: “-1” is not a whole number from 0 to 10; the odds below use 1.",
                  "Turns: “0” is not a whole number from 1 to 15; the odds below use 4.",
                  "At least one of: this deck has no category “nope”; the odds below are for"):
        assert words in html
    assert 'id="odds-hand" type="number" name="hand" value="6"' in html and html.count('aria-invalid="true"') == 4
    assert "By turn 4" in html and "By turn 5" not in html
    fine = logged_in.get(f"/decks/{deck.pk}/stats/", {"hand": "", "turns": "3"})  # an emptied box: the default
    assert fine.status_code == 200 and "odds-problems" not in fine.content.decode()


def test_editor_adds_changes_and_removes_cards_with_autosave(logged_in, owner):
    deck = deck_create(owner=owner, name="Empty", entries=[])
    card = make_card(name="Zz Editor Pike")
    url = f"/decks/{deck.pk}/edit/change/"
    html = logged_in.post(url, {"card": card.collector_number, "delta": "1", "version": "1"},
                          HTTP_HX_REQUEST="true").content.decode()
    assert "Saved (version 2)" in html and "Zz Editor Pike" in html and 'data-legal="false"' in html
    html = logged_in.post(url, {"card": card.collector_number, "count": "4", "version": "2"}).content.decode()
    assert Deck.objects.get(pk=deck.pk).entries.get().count == 4
    stale = logged_in.post(url, {"card": card.collector_number, "count": "1", "version": "2"})
    assert stale.status_code == 409 and "changed in another window" in stale.content.decode()
    assert Deck.objects.get(pk=deck.pk).entries.get().count == 4
    logged_in.post(url, {"card": card.collector_number, "delta": "-4", "version": "3"})
    assert not Deck.objects.get(pk=deck.pk).entries.exists()
    logged_in.post(url, {"name": "Renamed", "format": "tactical", "version": "4"})
    deck.refresh_from_db()
    assert deck.name == "Renamed" and deck.format == "tactical" and deck.version == 5


def test_editor_refuses_a_change_that_names_nothing_or_no_version(logged_in, owner):
    deck = deck_create(owner=owner, name="Empty", entries=[])
    card = make_card(name="Zz Editor Pike")
    url = f"/decks/{deck.pk}/edit/change/"
    empty = logged_in.post(url, {"version": "1"})
    assert empty.status_code == 400 and "named no card and no detail" in empty.content.decode()
    unversioned = logged_in.post(url, {"card": card.collector_number, "count": "3"})
    html = unversioned.content.decode()
    assert unversioned.status_code == 400 and "did not say which version" in html
    assert "another window" not in html
    unknown = logged_in.post(url, {"card": "9" * 60, "delta": "1", "version": "1"})
    assert unknown.status_code == 400 and f"No card “{'9' * 20}…”" in unknown.content.decode()
    deck.refresh_from_db()
    assert deck.version == 1 and not deck.entries.exists()


def test_editor_says_a_removal_past_the_last_copy_took_nothing_out(logged_in, owner):
    card = make_card(name="Zz Editor Pike")
    deck = deck_create(owner=owner, name="One", entries=[])
    url = f"/decks/{deck.pk}/edit/change/"
    assert logged_in.post(url, {"card": card.collector_number, "delta": "1", "version": "1"}).status_code == 200
    last = logged_in.post(url, {"card": card.collector_number, "delta": "-1", "version": "2"}).content.decode()
    assert "Saved (version 3): Zz Editor Pike: 1 → 0." in last
    past = logged_in.post(url, {"card": card.collector_number, "delta": "-1", "version": "3"})
    assert past.status_code == 400 and "Zz Editor Pike: none in the deck, so none taken out." in past.content.decode()
    deck.refresh_from_db()
    assert deck.version == 3


def test_quick_add_of_the_decks_own_gateway_card_says_it_comes_with_the_deck(logged_in, owner):
    from decks.services import deck_copy

    deck = deck_copy(deck=Deck.objects.filter(is_starter=True, gateway__isnull=False).first(), owner=owner)
    response = logged_in.post(f"/decks/{deck.pk}/edit/quick/", {"lines": f"1 {deck.gateway.name}"})
    assert response.status_code == 400  # it said "Type a card", to one who had typed one
    said = html.unescape(response.content.decode())
    assert f"{deck.gateway.name} is this deck's gateway card: it comes with the deck" in said


def test_editor_search_uses_the_search_language(logged_in, owner):
    deck = deck_create(owner=owner, name="Empty", entries=[])
    make_card(name="Zz Searchable Pike")
    html = logged_in.get(f"/decks/{deck.pk}/edit/search/?q=Zz+Searchable").content.decode()
    assert "Zz Searchable Pike" in html and "add-card" in html
    assert 'id="results"' in html and "<html" not in html
    bad = logged_in.get(f"/decks/{deck.pk}/edit/search/?q=atk>>").content.decode()
    assert "Search problem at column 5:" in bad  # one position, the column (1-based), as the catalog page
    assert "position" not in bad and bad.count("column") == 1
    # The whole query is searched, as the catalog searches it: a word past the 300th character counts...
    make_card(name="Zz Searchable Lance")
    far = logged_in.get(f"/decks/{deck.pk}/edit/search/", {"q": "Zz" + " " * 300 + "Lance"}).content.decode()
    assert "Zz Searchable Lance" in far and "Zz Searchable Pike" not in far
    # ... and one past the length limit is refused as the catalog refuses it, not cut short and searched.
    long = logged_in.get(f"/decks/{deck.pk}/edit/search/", {"q": "a" * 1001}).content.decode()
    assert "longer than 1000 characters" in long and "No cards match" not in long


def test_enter_on_a_search_that_finds_nothing_or_is_wrong_says_so_shortly_with_its_column(logged_in, owner):
    """What Enter adds (the first result of the query) is refused in the editor's status bar, a line on a phone."""
    deck = deck_create(owner=owner, name="Empty", entries=[])
    url = f"/decks/{deck.pk}/edit/change/"
    html = logged_in.post(url, {"first_of": "zq" * 150, "delta": "1"}).content.decode()
    assert f"No cards match “{'zq' * 20}…”." in html and "zq" * 21 not in html
    html = logged_in.post(url, {"first_of": "atk>>", "delta": "1"}).content.decode()
    assert "Search problem at column 5:" in html


@pytest.mark.parametrize("engine", ["index", "sql"])
def test_the_editor_search_puts_the_name_typed_first_then_names_starting_with_it(logged_in, owner, settings, engine):
    """A deck builder's search box: the card of the very name typed, then the names that start with it, then those
    with a later word that starts with it, then the rest, each in name order; Enter adds the first of them. A query
    with a field or an order of its own keeps the search's order."""
    settings.SEARCH_ENGINE = engine
    deck = deck_create(owner=owner, name="Empty", entries=[])
    for name in ("Aa Of Qxembers", "Ab Hidden-qxember Blade", "Qxembers Call", "Qxember Storm", "Qxember"):
        make_card(name=name)

    def shown(query):
        page = logged_in.get(f"/decks/{deck.pk}/edit/search/", {"q": query}).content.decode()
        return re.findall(r'class="card-name"[^>]*>([^<]+)</a>', page)

    assert shown("qxember") == ["Qxember", "Qxember Storm", "Qxembers Call", "Aa Of Qxembers",
                                "Ab Hidden-qxember Blade"]
    assert shown("QXEMBERS") == ["Qxembers Call", "Aa Of Qxembers"]
    assert shown("qxember t:unit") == ["Aa Of Qxembers", "Ab Hidden-qxember Blade", "Qxember", "Qxember Storm",
                                       "Qxembers Call"]
    logged_in.post(f"/decks/{deck.pk}/edit/change/", {"first_of": "qxembers", "delta": "1"})
    assert [e.card.name for e in deck.entries.all()] == ["Qxembers Call"]


def test_editor_search_says_when_more_cards_match_than_it_shows(logged_in, owner):
    from decks.editor_views import SEARCH_LIMIT

    deck = deck_create(owner=owner, name="Empty", entries=[])
    for i in range(SEARCH_LIMIT + 1):
        make_card(name=f"Zz Many Pike {i:02}")
    html = logged_in.get(f"/decks/{deck.pk}/edit/search/?q=Zz+Many+Pike").content.decode()
    assert html.count('class="add-card"') == SEARCH_LIMIT
    assert f"The first {SEARCH_LIMIT} matches are shown and more cards match" in html
    assert 'href="/cards/?q=Zz%20Many%20Pike"' in html
    make_card(name="Zz Few Pike")
    assert "more cards match" not in logged_in.get(f"/decks/{deck.pk}/edit/search/?q=Zz+Few").content.decode()


def test_new_deck_with_a_starting_card(logged_in):
    card = make_card(name="Zz Starter Card")
    form = logged_in.get(f"/decks/new/?card={card.collector_number}")
    assert "Zz Starter Card" in form.content.decode()
    response = logged_in.post(f"/decks/new/?card={card.collector_number}", {"name": "From a card",
                                                                          "format": "quick"})
    deck = Deck.objects.get(name="From a card")
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/edit/"
    assert deck.format == "quick" and deck.entries.get().card == card


def test_import_page_reports_every_bad_line_and_saves_nothing(logged_in, owner):
    card = make_card(name="Zz Import Page Pike")
    response = logged_in.post("/decks/import/", {"list": f"4 {card.name}\n7 {card.name}\nbanana\n2 Zz Imprt Page Pike"})
    html = response.content.decode()
    assert response.status_code == 400
    assert 'data-line="2"' in html and 'data-line="3"' in html and 'data-line="4"' in html
    assert "Did you mean Zz Import Page Pike" in html
    for n in (2, 3, 4):
        assert html.count(f"Line {n}") == 1  # each line said once
    assert not Deck.objects.filter(owner=owner).exists()
    ok = logged_in.post("/decks/import/", {"list": f"4 {card.name}", "name": "Good"})
    assert ok.status_code == 302 and Deck.objects.get(owner=owner).name == "Good"
    exported = logged_in.get(f"/decks/{Deck.objects.get(owner=owner).pk}/export.json").content.decode()
    from_json = logged_in.post("/decks/import/", {"list": exported.replace('"Good"', '"From JSON"')})
    assert from_json.status_code == 302 and Deck.objects.get(name="From JSON").card_count == 4
    broken = logged_in.post("/decks/import/", {"list": '{"cards": [}'})
    assert broken.status_code == 400 and "line 1, column" in broken.content.decode()


@pytest.mark.parametrize("form, said", [
    ({"list": "   \n "}, "Nothing to import"),
    ({"list": "4 Zz Import Both", "code": "DG1-anything"}, "not a deck list and a deck code"),
    ({"list": '{"cards": [{"card": "Zz Import Both", "count": 4}], "format": "zzz"}'}, '"format" is one of'),
    ({"list": '{"cards": [{"card": "Zz Import Both", "count": 4}], "name": 7}'}, '"name" is text'),
    ({"list": '{"cards": [{"card": "Zz Import Both", "count": 4}], "description": ["x"]}'}, '"description" is text'),
    ({"list": "4 Zz Import Both", "name": "Tab\there"}, "cannot hold control characters"),
    ({"list": "4 Zz Import Both", "name": "N" * 101}, "A deck name is at most 100 characters"),
    ({"list": "# name: Long\n# format: bogus\n4 Zz Import Both"}, "“# format: bogus” names no format"),
    ({"list": "# name: Only comments\n// nothing else\nUnits (0)"}, "Nothing to import: the list holds no card"),
    ({"list": "4 Zz Import Both (T-99999)"}, 'No card is numbered "T-99999"; Zz Import Both is'),
])
def test_the_import_page_refuses_what_it_cannot_import_as_given_and_saves_nothing(logged_in, owner, form, said):
    make_card(name="Zz Import Both")
    response = logged_in.post("/decks/import/", form)
    assert response.status_code == 400 and said in response.content.decode().replace("&quot;", '"')
    assert not Deck.objects.filter(owner=owner).exists()


def test_dc9_the_import_page_says_how_many_sideboard_cards_went_to_the_considering_list(logged_in, owner):
    from django.contrib.messages import get_messages

    pike, spear = make_card(name="Zz Import Page Main"), make_card(name="Zz Import Page Side")
    response = logged_in.post("/decks/import/", {"list": f"4 {pike.name}\n// Sideboard\n3 {spear.name}"})
    assert response.status_code == 302
    deck = Deck.objects.get(owner=owner)
    assert deck.card_count == 4 and deck.considering.get().count == 3
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        f"Imported “{deck.name}” (4 cards; 3 on the considering list)."]


def test_exports_print_history_and_delete(logged_in, owner):
    deck = make_deck(owner)
    text = logged_in.get(f"/decks/{deck.pk}/export.txt").content.decode()
    assert text.startswith("# name: Page deck") and "Units (36)" in text
    assert logged_in.get(f"/decks/{deck.pk}/export.json").json()["code"]
    everything = logged_in.get("/decks/export/").json()
    assert [d["name"] for d in everything["decks"]] == ["Page deck"]
    assert "Page deck" in logged_in.get("/decks/export/?as=txt").content.decode()
    assert "Units (36)" in logged_in.get(f"/decks/{deck.pk}/print/").content.decode()
    logged_in.post(f"/decks/{deck.pk}/edit/change/", {"name": "Second", "version": "1"})
    history = logged_in.get(f"/decks/{deck.pk}/history/?from=1&to=2").content.decode()
    assert "“Page deck” → “Second”" in history
    # Opened without a comparison, the form offers the latest change: version 1 with version 2, not 2 with 2.
    history = logged_in.get(f"/decks/{deck.pk}/history/").content.decode()
    assert re.search(r'name="from" [^>]*value="1"', history) and re.search(r'name="to" [^>]*value="2"', history)
    assert "<td>36 (9 different)</td>" in history  # each version's size, every copy counted, beside its cards
    logged_in.post(f"/decks/{deck.pk}/revert/1/", {"version": "2"})
    assert Deck.objects.get(pk=deck.pk).name == "Page deck"
    assert "cannot be undone" in logged_in.get(f"/decks/{deck.pk}/delete/").content.decode()
    assert logged_in.post(f"/decks/{deck.pk}/delete/", {"version": "1"}).status_code == 302
    assert Deck.objects.filter(pk=deck.pk).exists()  # stale version: nothing deleted
    logged_in.post(f"/decks/{deck.pk}/delete/", {"version": "3"})
    assert not Deck.objects.filter(pk=deck.pk).exists()


def test_clone_and_staff_unpublish(client, owner):
    deck = make_deck(owner, Visibility.PUBLIC)
    me = make_user()
    client.force_login(me)
    response = client.post(f"/decks/{deck.pk}/copy/")
    copy = Deck.objects.get(owner=me)
    assert response["Location"] == f"/decks/{copy.pk}/edit/" and copy.copied_from == deck
    assert client.post(f"/decks/{deck.pk}/unpublish/").status_code == 403
    client.force_login(make_user(staff=True))
    assert client.post(f"/decks/{deck.pk}/unpublish/").status_code == 302
    assert Deck.objects.get(pk=deck.pk).visibility == Visibility.PRIVATE


def test_editor_card_images_view_keeps_its_controls(logged_in, owner):
    deck = make_deck(owner)
    panel = logged_in.get(f"/decks/{deck.pk}/edit/?view=visual", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in panel and panel.count("<img") == 9 and 'value="visual"' in panel
    card = deck.entries.first().card
    html = logged_in.post(f"/decks/{deck.pk}/edit/change/", {"card": card.collector_number, "delta": "-1",
                                                             "version": "1", "view": "visual"},
                          HTTP_HX_REQUEST="true").content.decode()
    assert html.count("<img") == 9 and f"3× {card.name}" in html


def test_one_more_applies_to_the_latest_version_but_a_stale_count_is_refused(logged_in, owner):
    deck = deck_create(owner=owner, name="Two tabs", entries=[])
    a, b = make_card(name="Zz Tab A"), make_card(name="Zz Tab B")
    url = f"/decks/{deck.pk}/edit/change/"
    assert logged_in.post(url, {"card": a.collector_number, "delta": "1", "version": "1"}).status_code == 200
    # A second window still at version 1 adds another card: both edits are kept.
    html = logged_in.post(url, {"card": b.collector_number, "delta": "1", "version": "1"}).content.decode()
    assert "Saved (version 3)" in html
    assert sorted(Deck.objects.get(pk=deck.pk).entries.values_list("card__name", "count")) == [
        ("Zz Tab A", 1), ("Zz Tab B", 1)]
    # Setting a count from a stale page would overwrite what it did not see: refused.
    stale = logged_in.post(url, {"card": a.collector_number, "count": "3", "version": "2"})
    assert stale.status_code == 409
    assert Deck.objects.get(pk=deck.pk).entries.get(card=a).count == 1
    bad = logged_in.post(url, {"card": a.collector_number, "count": "three", "version": "3"})
    assert bad.status_code == 400 and "whole number" in bad.content.decode()


def test_deck_page_body_is_rendered_once_per_deck_version(logged_in, owner, settings,
                                                           django_assert_max_num_queries):
    from django.core.cache import cache

    from decks.services import deck_update

    settings.DECK_PAGE_CACHE_SECONDS = 60
    cache.clear()
    deck = make_deck(owner)
    first = logged_in.get(f"/decks/{deck.pk}/").content.decode()
    assert "36 cards" in first
    with django_assert_max_num_queries(4):  # session, user, deck; not the entries, not the catalog
        again = logged_in.get(f"/decks/{deck.pk}/").content.decode()
    def body(html):
        return html[html.index('<label for="deck-code">'):html.rindex("</section>")]

    assert body(again) == body(first) and "Vitality curve" in body(again)
    # Another view of the same version is its own rendering.
    assert logged_in.get(f"/decks/{deck.pk}/?view=visual").content.decode().count("<img") == 9
    # A save makes a new version: the page shows it at once.
    extra = make_card(craft="champion")
    deck_update(deck=deck, actor=owner, expected_version=deck.version,
                entries=entries_of(*[(e.card, e.count) for e in deck.entries.all()], (extra, 4)))
    changed = logged_in.get(f"/decks/{deck.pk}/").content.decode()
    assert "40 cards" in changed and extra.name in changed


def test_the_editor_list_shows_a_card_as_the_catalog_now_has_it(logged_in, owner):
    """The list's lines and the piles' faces are kept per process by their entry (decks/templatetags/deck_lines.py):
    a card renamed in the catalog, or a count changed, is another line, never the kept one."""
    deck = make_deck(owner)
    entry = deck.entries.select_related("card").first()
    card = entry.card
    url = f"/decks/{deck.pk}/edit/"

    def line(view: str = "list") -> str:  # the card's line in the list, or its face in the piles
        page = logged_in.get(f"{url}?view={view}").content.decode()
        found = page[page.index(f'data-card="{card.collector_number}" data-count'):]
        return found[:found.index("</li>")]

    assert f'data-name="{card.name}"' in line() and f'data-count="{entry.count}"' in line()
    assert f'alt="{card.name}"' in line("visual")
    card.name = "Zz Renamed Since"
    card.save()
    assert 'data-name="Zz Renamed Since"' in line() and "One more Zz Renamed Since" in line()
    assert 'alt="Zz Renamed Since"' in line("visual")
    logged_in.post(f"/decks/{deck.pk}/edit/change/", {"card": card.collector_number, "delta": "-1"})
    assert f'data-count="{entry.count - 1}"' in line() and f"×{entry.count - 1}" in line("visual")


def test_a_rule_broken_by_a_card_links_to_that_card_in_the_deck_on_the_deck_page_and_in_the_editor(logged_in, owner):
    talent = make_card("talent", name="Zz Linked Talent")
    deck = deck_create(owner=owner, name="Tactical talent", format="tactical", entries=entries_of((talent, 1)))
    for url in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/edit/", f"/decks/{deck.pk}/edit/?view=visual"):
        html = logged_in.get(url).content.decode()
        link = f'href="#deck-card-{talent.collector_number}"'
        assert link in html and html.count(f'id="deck-card-{talent.collector_number}"') == 1, url
        assert html.index("Zz Linked Talent is a") < html.index(link)  # beside the rule it breaks


@pytest.mark.parametrize("page", ["-1", "abc", ""])
def test_the_public_list_refuses_a_page_number_that_is_not_one(client, page):
    response = client.get("/decks/public/", {"page": page})
    if page:
        assert response.status_code == 400
        assert f"page: “{page}” is not a page number" in response.content.decode()
    else:
        assert response.status_code == 200  # no page asked for: the first


def test_the_deck_page_shows_the_tags_and_the_considering_list_read_only(client, owner):
    from decks.considering import deck_consider, deck_tag_card
    from decks.selectors import card_info

    pool = legal_pool(9)
    deck = deck_create(owner=owner, name="Beside", entries=entries_of(*[(c, 4) for c in pool[:8]]),
                       visibility=Visibility.PUBLIC)
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=card_info(pool[0]), tag="Early game")
    deck, _ = deck_consider(deck=deck, actor=owner, card=card_info(pool[8]), delta=2)
    html = client.get(f"/decks/{deck.pk}/").content.decode()  # a visitor, not the owner
    assert "tag: Early game" in html
    considering = html[html.index('id="considering"'):]
    assert "Considering" in considering and "2×</span> <a class=\"card-name\"" in considering
    assert pool[8].name in considering and "Into the deck" not in considering and 'draggable' not in considering


def test_a_long_history_is_shown_a_page_at_a_time_and_any_two_versions_compared(logged_in, owner, settings):
    """The editor saves a version per change: a deck worked on for an evening has hundreds, and the page showed them
    all (with every version twice more in the comparison's lists)."""
    from decks import views

    settings.DECK_PAGE_CACHE_SECONDS = 0
    deck = deck_create(owner=owner, name="Long history", entries=entries_of(*((c, 4) for c in legal_pool(9))))
    for n in range(views.VERSIONS_PER_PAGE + 5):
        deck = services.deck_update(deck=deck, actor=owner, expected_version=deck.version, description=f"Take {n}")
    path = f"/decks/{deck.pk}/history/"
    first = logged_in.get(path).content.decode()
    shown = [int(n) for n in re.findall(r"<tr><td>(\d+)</td>", first)]
    assert shown == list(range(deck.version, deck.version - views.VERSIONS_PER_PAGE, -1))
    assert 'rel="next"' in first and "Page 1 of 2" in first
    second = logged_in.get(f"{path}?page=2").content.decode()
    assert [int(n) for n in re.findall(r"<tr><td>(\d+)</td>", second)] == list(range(deck.version - 50, 0, -1))
    # Each revert button names its version, so that a list of the page's buttons tells them apart.
    assert re.findall(r"Revert to this<span class=\"visually-hidden\"> version, (\d+)</span>", second) == [
        str(n) for n in range(deck.version - 50, 0, -1)]
    # Versions on different pages are compared all the same.
    compared = logged_in.get(f"{path}?from=1&to={deck.version}").content.decode()
    assert "From version 1 to" in compared and f"“Take {views.VERSIONS_PER_PAGE + 4}”" in compared


@pytest.mark.parametrize(("query", "status", "words"), [
    ("from=x&to=2", 400, "from: “x” is not a version number"),
    ("from=1&to=999", 404, "No version 999 of this deck is kept"),
    ("page=0", 400, "page: “0” is not a page number"),
])
def test_a_comparison_or_page_of_the_history_that_names_nothing_says_so(logged_in, owner, query, status, words):
    deck = deck_create(owner=owner, name="Short history", entries=entries_of(*((c, 4) for c in legal_pool(9))))
    deck = services.deck_update(deck=deck, actor=owner, expected_version=deck.version, description="Second")
    answer = logged_in.get(f"/decks/{deck.pk}/history/?{query}")
    assert answer.status_code == status and words in answer.content.decode()


def test_a_card_page_lists_the_public_decks_that_hold_that_card(client, owner, django_assert_max_num_queries):
    """By the card itself: not a private deck with it, nor a public deck holding only a card whose name has the
    number in it (the deck list's search reads a name too; the card's page means this card), each deck once, and
    the list read in one query however many decks it names."""
    card = make_card(name="Tst Holder Golem")
    namesake = make_card(name=f"Tst {card.collector_number} Namesake")
    owner_name = owner.username
    deck_create(owner=owner, name="Public holder", visibility=Visibility.PUBLIC, entries=entries_of((card, 2)))
    deck_create(owner=owner, name="Private holder", visibility=Visibility.PRIVATE, entries=entries_of((card, 1)))
    deck_create(owner=owner, name="Namesake holder", visibility=Visibility.PUBLIC, entries=entries_of((namesake, 1)))

    def listed() -> list[str]:
        html = client.get(f"/cards/{card.collector_number}/").content.decode()
        section = html.split('id="decks-h"', 1)[1].split("</section>", 1)[0]
        return re.findall(r'<a href="/decks/\d+/">([^<]+)</a>', section)

    assert listed() == ["Public holder"]
    assert f"by {owner_name}" in client.get(f"/cards/{card.collector_number}/").content.decode()
    for n in range(3):
        deck_create(owner=owner, name=f"Another holder {n}", visibility=Visibility.PUBLIC,
                    entries=entries_of((card, 1), (namesake, 1)))
    with django_assert_max_num_queries(3):  # the same as with one deck (the card page's budget is fixed elsewhere)
        assert sorted(listed()) == ["Another holder 0", "Another holder 1", "Another holder 2", "Public holder"]


def test_the_public_deck_list_finds_a_card_by_number_or_name_and_names_each_deck_once(owner):
    first, second = make_card(name="Tst Twinned Wolf"), make_card(name="Tst Twinned Hound")
    deck_create(owner=owner, name="Twins", visibility=Visibility.PUBLIC, entries=entries_of((first, 2), (second, 2)))
    deck_create(owner=owner, name="Hidden twins", visibility=Visibility.PRIVATE, entries=entries_of((first, 2)))
    assert [d.name for d in deck_list_public(card="twinned")] == ["Twins"]  # two cards of it match: listed once
    assert [d.name for d in deck_list_public(card=second.collector_number.lower())] == ["Twins"]
    assert list(deck_list_public(card="Tst Nowhere")) == []


def test_editor_says_a_removal_past_the_last_considered_copy_took_nothing_out(logged_in, owner):
    """Five fast "−" on a card considered once ended on a bare "Saved": the four past the last answered as saves
    that changed nothing, with no word, where the main deck says why."""
    card = make_card(name="Zz Editor Maybe")
    deck = deck_create(owner=owner, name="One", entries=[])
    url = f"/decks/{deck.pk}/edit/consider/"
    assert logged_in.post(url, {"card": card.collector_number, "delta": "1"}).status_code == 200
    last = logged_in.post(url, {"card": card.collector_number, "delta": "-1"}).content.decode()
    assert "Zz Editor Maybe: 1 → 0" in last
    past = logged_in.post(url, {"card": card.collector_number, "delta": "-1"})
    html = past.content.decode()
    assert past.status_code == 400 and "Zz Editor Maybe: none on the considering list, so none taken out." in html
    deck.refresh_from_db()
    assert deck.version == 3


def test_the_name_and_description_boxes_take_no_more_than_a_deck_holds(logged_in, owner):
    from decks.models import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH

    deck = make_deck(owner)
    for page in (logged_in.get(f"/decks/{deck.pk}/edit/"), logged_in.get("/decks/new/")):
        html = page.content.decode()
        assert re.search(rf'name="name"[^>]*maxlength="{MAX_NAME_LENGTH}"', html)
        assert re.search(rf'name="description"[^>]*maxlength="{MAX_DESCRIPTION_LENGTH}"', html)
        assert f"(at most {MAX_DESCRIPTION_LENGTH} characters;" in html


def test_a_deck_of_one_card_is_said_in_the_singular_on_its_print_page_and_its_cards_page(logged_in, owner):
    card = make_card(name="Zz Lonely Pike")
    deck = deck_create(owner=owner, name="Lonely", visibility=Visibility.PUBLIC, entries=entries_of((card, 1)))
    printed = logged_in.get(f"/decks/{deck.pk}/print/").content.decode()
    assert " · 1 card · " in printed and "1 cards" not in printed
    listed = logged_in.get(f"/cards/{card.collector_number}/").content.decode()
    assert "Lonely</a> <small>by " in listed and " · 1 card</small>" in listed


def test_the_deck_page_is_grouped_and_sorted_as_asked_its_links_keeping_the_view_and_the_share_key(client, settings):
    settings.DECK_PAGE_CACHE_SECONDS = 60  # kept per grouping and order: none is served another's rendering
    owner = make_user()
    cheap = make_card(name="Zz Cheap", vitality=1, craft="hinter")
    dear = make_card(name="Aa Dear", vitality=6, craft="sorcery")
    glyph = make_card("glyph", name="Mm Glyph", craft="hinter")
    deck = deck_create(owner=owner, name="Shared deck", visibility=Visibility.UNLISTED,
                       entries=entries_of((cheap, 1), (dear, 2), (glyph, 4)))
    key = deck.share_token

    def shown(query: str) -> tuple[list[str], list[str]]:
        page = client.get(f"/decks/{deck.pk}/?key={key}&{query}").content.decode()
        body = page[page.index('id="deck-cards-title"'):page.index('id="stats"')]
        headings = [html.unescape(re.sub(r"<[^>]+>|\s*\(\d+\)", "", h)).strip()
                    for h in re.findall(r"<h3[^>]*>(.*?)</h3>", body, re.S)]
        names = re.findall(r'class="card-name"[^>]*>([^<]+)</a>', body)
        return headings, names

    assert shown("") == (["Units", "Glyphs"], ["Aa Dear", "Zz Cheap", "Mm Glyph"])  # by type, then name
    assert shown("sort=vitality") == (["Units", "Glyphs"], ["Zz Cheap", "Aa Dear", "Mm Glyph"])
    assert shown("group=craft&sort=copies") == (["Hinter", "Sorcery"], ["Mm Glyph", "Zz Cheap", "Aa Dear"])
    page = html.unescape(client.get(f"/decks/{deck.pk}/?key={key}&view=visual&group=craft").content.decode())
    assert f'href="?view=visual&group=craft&sort=copies&key={key}"' in page  # a sort keeps the view and grouping
    assert f'href="?group=craft&key={key}"' in page  # List keeps the grouping, and the key of an unlisted deck


def test_a_decks_description_is_shown_as_markdown_its_html_escaped(client):
    deck = deck_create(owner=make_user(), name="Primer deck", visibility=Visibility.PUBLIC,
                       description="**Plan**: race.\n\n- Mulligan slow hands\n\n<script>alert(1)</script>",
                       entries=entries_of((make_card(), 4)))
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "<strong>Plan</strong>: race." in page and "<li>Mulligan slow hands</li>" in page
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_deck_page_shows_its_list_as_text_to_copy_whole_read_back_by_an_import(client, logged_in, owner):
    deck = deck_create(owner=owner, name="Text deck", visibility=Visibility.PUBLIC,
                       entries=entries_of((make_card(name="Zz Texted"), 3)),
                       considering=entries_of((make_card(name="Zz Maybe"), 1)))
    page = html.unescape(client.get(f"/decks/{deck.pk}/?view=text").content.decode())
    text = re.search(r'<textarea id="deck-text"[^>]*>(.*?)</textarea>', page, re.S)[1]
    assert text.strip() == selectors.deck_export_text(deck).strip()
    assert "3 Zz Texted" in text and "Considering" in text and "Zz Maybe" in text
    assert re.search(r'<a href="\?view=text" aria-current="page">Text</a>', page)
    assert "Group by:" not in page  # the text is written one way
    imported = logged_in.post("/api/decks/import/", {"list": text}, content_type="application/json")
    assert imported.status_code == 201, imported.content
    again = Deck.objects.get(pk=imported.json()["id"])
    assert [(e.card.name, e.count) for e in selectors.deck_entries(again)] == [("Zz Texted", 3)]
    assert [(e.card.name, e.count) for e in selectors.deck_considering(again)] == [("Zz Maybe", 1)]


def test_the_text_shows_a_new_name_at_once_though_the_list_is_kept(client, owner, settings):
    settings.DECK_PAGE_CACHE_SECONDS = 600
    deck = deck_create(owner=owner, name="Before", visibility=Visibility.PUBLIC,
                       entries=entries_of((make_card(), 3)))
    assert "Before" in html.unescape(client.get(f"/decks/{deck.pk}/?view=text").content.decode())
    services.deck_update(deck=deck, actor=owner, expected_version=deck.version, name="After")
    text = html.unescape(client.get(f"/decks/{deck.pk}/?view=text").content.decode())
    assert "After" in text.split('id="deck-text"')[1]
