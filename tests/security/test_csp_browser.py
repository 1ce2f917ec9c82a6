"""The pages keep to the Content-Security-Policy: Chromium reports no refused inline style or script on the deck
editor (through a whole edit) and on the API's browsable pages, and no page asks for a missing favicon."""

import pytest
from django.contrib.auth import get_user_model

from decks.models import Deck
from decks.services import deck_copy
from tests.support import live_db

pytestmark = [pytest.mark.browser, live_db]

# Every refusal is also raised as an event in the page; the driver's script is not itself subject to the CSP.
RECORD_VIOLATIONS = """window.cspViolations = [];
document.addEventListener("securitypolicyviolation",
  e => window.cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "") + " " + (e.sample || "")));"""


def watch(page) -> list[str]:
    """Console errors (a CSP refusal, a failed load such as a missing favicon) and CSP violations, as they come."""
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.add_init_script(RECORD_VIOLATIONS)
    return problems


def violations(page) -> list[str]:
    return page.evaluate("window.cspViolations || []")


@pytest.fixture
def deck(login):
    user = login(get_user_model().objects.create_user("csp", password="a-long-passphrase-9"))
    return deck_copy(deck=Deck.objects.filter(is_starter=True).order_by("pk").first(), owner=user, name="CSP deck")


def test_the_deck_editor_keeps_to_the_csp_through_an_edit(page, deck):
    problems = watch(page)
    page.goto(f"/decks/{deck.pk}/edit/")
    page.wait_for_function("() => window.htmx !== undefined")
    page.get_by_label("Search cards").fill("t:unit")
    page.locator("#results button.add-card").first.click()
    page.locator("#save-status").filter(has_text=f"version {deck.version + 1})").wait_for()
    page.get_by_role("link", name="Piles").click()
    page.locator("#piles").wait_for()  # the panel in the new view (the view's input changes at the click)
    page.locator("#odds-form input[name=turns]").fill("6")  # the draw odds recalculate
    page.locator("#odds-form input[name=turns]").dispatch_event("change")
    page.locator("#stats").filter(has_text="By turn 6").wait_for()
    page.get_by_label("Visibility").select_option("public")  # the deck's settings save
    page.locator("#save-status").filter(has_text=f"version {deck.version + 2})").wait_for()
    assert violations(page) == []
    assert problems == []


def test_the_browsable_api_keeps_to_the_csp(page, deck):
    """A list with its filters button, a deck with its edit forms, a view with its extra actions menu."""
    problems = watch(page)
    for path in ("/api/cards/?q=t:unit", f"/api/decks/{deck.pk}/", "/api/metagames/budget/"):
        page.goto(path, wait_until="load")
        page.locator(".response-info").wait_for()
        assert violations(page) == [], path
        assert problems == [], path
