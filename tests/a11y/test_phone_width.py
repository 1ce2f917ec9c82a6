"""On a phone no page scrolls sideways, down to 320 CSS pixels (WCAG's reflow width: a 1280 px screen zoomed to
400%): a wide table scrolls in its own region, a long word, path or version in running text wraps."""

import pytest
from django.contrib.auth import get_user_model

from decks.models import Deck
from decks.services import deck_copy
from playtest.jobs import services as runs
from playtest.models import RunStatus
from tests.support import live_db

pytestmark = [pytest.mark.browser, live_db]

WIDTH = 320
PAGES = ["/", "/cards/", "/cards/?q=t:legend", "/cards/X-GATE/", "/cards/help/", "/decks/", "/decks/public/",
         "/playtest/", "/dread-draw/", "/rules/", "/accounts/", "/decks/import/"]


def sideways(page, path: str) -> int:
    response = page.goto(path)
    assert response.status < 400, (path, response.status)
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.fixture
def signed_in_phone(page, login):
    page.set_viewport_size({"width": WIDTH, "height": 740})
    return login(get_user_model().objects.create_user("phone-owner", password="a-long-passphrase-7"))


@pytest.mark.parametrize("path", PAGES)
def test_a_page_does_not_scroll_sideways_on_a_phone(page, signed_in_phone, path):
    assert sideways(page, path) == 0


LONG_NAME = "Unbreakable" + "x" * 60  # a player's name for a deck, one word wider than a phone


def a_deck(owner):
    return deck_copy(deck=Deck.objects.filter(is_starter=True).order_by("pk").first(), owner=owner, name=LONG_NAME)


def test_a_deck_named_with_one_long_word_and_the_pages_naming_it_do_not_scroll_sideways(page, signed_in_phone):
    """Its owner's history has a column more than a visitor's (revert); the playtest page labels fields with it."""
    deck = a_deck(signed_in_phone)
    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    for path in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/?view=text", f"/decks/{deck.pk}/edit/",
                 f"/decks/{deck.pk}/history/", "/decks/", f"/playtest/new/?deck={deck.pk}",
                 f"/decks/compare/?a={deck.pk}&b={starter.pk}", f"/decks/compare/?a={deck.pk}"):
        assert sideways(page, path) == 0, path


def finished(run):
    for index in run.chunks.values_list("index", flat=True):
        runs.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE, run.error
    return run


def test_the_reports_of_a_playtest_run_and_a_tournament_do_not_scroll_sideways_on_a_phone(page, signed_in_phone):
    """Their tables (a card's use, the bots' win rates) are wider than a phone: each scrolls in its own region; the
    deck's name among the run's facts wraps."""
    deck = a_deck(signed_in_phone)
    playtest = finished(runs.run_submit(owner=signed_in_phone, kind="dreadgate_playtest", games=10, seed=3,
                                        params={"deck": deck.pk, "mode": "goldfish"}))
    tournament = finished(runs.run_submit(owner=signed_in_phone, kind="dreaddraw_tournament", games=20, seed=4,
                                          params={"lineup": ["heuristic", "random"]}))
    for run in (playtest, tournament):
        assert sideways(page, f"/playtest/runs/{run.pk}/") == 0, run.kind


@pytest.mark.parametrize("path", ["/playtest/", "/dread-draw/", "/decks/"])
def test_on_a_360_px_phone_every_section_of_the_header_fits_its_row(page, login, path):
    """The current section is in bold, the widest: "Rules" was cut to "Rule" on the playtest pages."""
    page.set_viewport_size({"width": 360, "height": 740})
    login(get_user_model().objects.create_user("narrow-phone", password="a-long-passphrase-7"))
    page.goto(path)
    nav = page.locator(".site-nav ul:not(.account)")
    widths = nav.evaluate("n => [n.scrollWidth, n.clientWidth]")
    assert widths[0] <= widths[1], f"the last section is cut off at 360 px: {widths}"


def test_a_deck_named_with_one_long_word_leaves_every_column_of_my_decks_in_view_at_a_desk(page, login):
    owner = login(get_user_model().objects.create_user("desk-owner", password="a-long-passphrase-7"))
    page.set_viewport_size({"width": 1366, "height": 768})
    deck_copy(deck=Deck.objects.filter(is_starter=True).order_by("pk").first(), owner=owner, name="W" * 100)
    page.goto("/decks/")
    table = page.locator(".deck-table")
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth"), "the columns past the name scroll out of view"
