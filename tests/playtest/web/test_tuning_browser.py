"""Deck tuning in headless Chromium: from the deck's page to the suggestions on a worker, applying one as a new
version of the deck; axe-clean."""

import re

import pytest

from decks.models import Deck
from playtest.models import Run
from playtest.simulation.tuning_kind import TUNING
from tests.a11y.test_axe import axe_violations
from tests.playtest.dreadgate_decks import starter_deck
from tests.support import live_db

pytestmark = [pytest.mark.browser, live_db]


def test_suggest_changes_from_the_deck_page_and_apply_one_as_a_new_version(page, login, alice, celery_worker):
    deck = starter_deck(alice, craft="sorcery", name="Night study")
    login(alice)
    page.goto(f"/decks/{deck.pk}/")
    page.get_by_role("link", name="Suggest changes").click()
    page.get_by_role("heading", name="Suggest changes to “Night study”").wait_for()
    assert axe_violations(page) == []
    page.get_by_label("Quick").check()
    page.get_by_label("Budget (games)").fill("200")
    page.get_by_label("Budget (games)").press("Tab")  # the change updates the estimate
    page.get_by_text("200 games").wait_for()
    assert "Estimated time" in page.get_by_role("status").first.inner_text()
    # No Quick run has been timed: the worker times the AI, and the line updates itself once it has.
    page.get_by_text(re.compile(r"Estimated time: (about \d|under a second)")).wait_for(timeout=60_000)
    assert "200 games" in page.get_by_role("status").first.inner_text()
    with page.expect_navigation(timeout=60_000):
        page.get_by_role("button", name="Suggest changes").click(no_wait_after=True)
    page.get_by_role("heading", name="Report").wait_for(timeout=180_000)
    run = Run.objects.get(owner=alice, kind=TUNING)
    assert run.status == "done" and run.games_done <= 200
    assert page.get_by_role("heading", name="Best swaps").is_visible()
    assert "as good as the AI" in page.get_by_role("note").first.inner_text()
    assert axe_violations(page) == []

    # The best swaps' table (a run that confirmed a plan shows the plan's table, without Apply buttons, first)
    first = page.get_by_role("table", name="Best swaps").get_by_role("button", name="Apply").first
    label = first.get_attribute("aria-label")
    first.focus()
    page.keyboard.press("Enter")  # by keyboard
    page.get_by_text("Applied: version 2").wait_for()
    assert Deck.objects.get(pk=deck.pk).version == 2
    cut_name = label.removeprefix("Apply: ").split(" out, ")[0]
    page.goto(f"/decks/{deck.pk}/history/")
    assert f"Tuning: {cut_name} out" in page.content()
