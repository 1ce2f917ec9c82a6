"""The deck page's list as text, and its deck code, copied whole by their Copy buttons in headless Chromium."""

from __future__ import annotations

import pytest

from decks import selectors
from decks.models import Deck, Visibility
from decks.services import deck_copy
from tests.support import live_db

from .factories import make_user

pytestmark = [pytest.mark.browser, live_db]


@pytest.fixture
def shown_deck():
    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    deck = deck_copy(deck=starter, owner=make_user(), name="Copied whole")
    Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PUBLIC)
    return Deck.objects.get(pk=deck.pk)


def clipboard(page) -> str:
    return page.evaluate("() => navigator.clipboard.readText()")


def test_the_list_as_text_and_the_deck_code_are_copied_by_their_buttons(page, live_server, shown_deck):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto(f"/decks/{shown_deck.pk}/")
    page.get_by_role("navigation", name="Deck view").get_by_role("link", name="Text").click()
    page.get_by_role("button", name="Copy the list").click()
    page.get_by_text("Copied.").wait_for()
    assert clipboard(page).strip() == selectors.deck_export_text(shown_deck).strip()
    page.get_by_role("button", name="Copy the deck code").click()
    assert clipboard(page) == selectors.deck_export_code(shown_deck)


def test_where_the_clipboard_is_refused_the_text_is_selected_to_copy_by_hand(page, shown_deck):
    page.goto(f"/decks/{shown_deck.pk}/?view=text")
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); }")
    page.get_by_role("button", name="Copy the list").click()
    page.get_by_text("Selected: press Ctrl+C").wait_for()
    selected = page.evaluate("() => { const t = document.getElementById('deck-text');"
                             " return t.value.slice(t.selectionStart, t.selectionEnd); }")
    assert selected.strip() == selectors.deck_export_text(shown_deck).strip()
