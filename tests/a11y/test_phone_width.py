"""On a phone no page scrolls sideways, down to 320 CSS pixels (WCAG's reflow width: a 1280 px screen zoomed to
400%): a wide table scrolls in its own region, a long word, path or version in running text wraps."""

import pytest
from django.contrib.auth import get_user_model

from decks.models import Deck
from decks.services import deck_copy
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


def test_a_deck_and_its_history_do_not_scroll_sideways_on_a_phone_for_their_owner(page, signed_in_phone):
    """The owner's history has a column more than a visitor's (revert), the widest of the deck's pages."""
    deck = deck_copy(deck=Deck.objects.filter(is_starter=True).order_by("pk").first(), owner=signed_in_phone,
                     name="A deck with a rather long name for a phone")
    for path in (f"/decks/{deck.pk}/", f"/decks/{deck.pk}/edit/", f"/decks/{deck.pk}/history/"):
        assert sideways(page, path) == 0, path
