"""The goldfish table at the strong level in headless Chromium: after the person ends the turn the page says the AI
is thinking and offers nothing to do, then, as the worker plays, shows the AI's actions, and gives the decision
back without a reload."""

import pytest

from playtest.goldfish import services as tables
from playtest.models import GoldfishTable
from tests.playtest.goldfish.test_table_strong import log_lines, your_turn_table
from tests.support import live_db, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.worker, live_db]


def test_the_page_waits_for_the_strong_ai_and_then_shows_its_turn(page, login, alice, celery_worker):
    table = your_turn_table(alice)
    before = len(table.actions)
    login(alice)
    page.goto(f"/playtest/tables/{table.pk}/")
    page.evaluate("localStorage.setItem('dreadgate.table.speed', '0')")
    page.locator("button.bar-action[value='0,0,0']").click()  # end the turn
    page.get_by_text("is thinking about its move").wait_for()
    assert page.locator("button.bar-action").count() == 0  # nothing to act on while it thinks
    done = wait_for(lambda: not tables.table_thinking(GoldfishTable.objects.get(pk=table.pk))
                    and GoldfishTable.objects.get(pk=table.pk), timeout=120, message="the AI's turn on the worker")
    page.get_by_text("is thinking about its move").wait_for(state="detached", timeout=15_000)
    page.locator("button.bar-action[value='0,0,0']").wait_for()  # the person's decision again
    assert len(done.actions) > before + 1
    assert log_lines(page.content()) == len(done.actions)
