"""A Dread Draw tournament started from its page, played by a real Celery worker, watched to its report."""

import pytest
from django.contrib.auth import get_user_model

from playtest.models import Run
from tests.support import live_db

pytestmark = [pytest.mark.browser, pytest.mark.worker, live_db]


def test_start_a_tournament_and_watch_the_progress_bar_reach_the_win_rates(page, login, celery_worker):
    alice = get_user_model().objects.create_user("alice", password="x" * 12)
    login(alice)
    page.goto("/dread-draw/")
    form = page.get_by_role("region", name="Bot tournament")
    form.get_by_label("Games").fill("1500")
    form.get_by_label("Players").select_option("2")
    form.get_by_label("Seat 1").select_option("heuristic")
    form.get_by_label("Seat 2").select_option("random")
    form.get_by_role("button", name="Start the tournament").click()
    page.locator("progress").wait_for()
    page.get_by_role("heading", name="Report").wait_for(timeout=120_000)
    run = Run.objects.get(owner=alice)
    assert run.kind == "dreaddraw_tournament" and run.status == "done" and run.games_done == 1500
    assert run.chunks.count() == 3
    table = page.get_by_role("table", name="Win rates with 95% Wilson intervals")
    assert "Heuristic" in table.inner_text() and "Random" in table.inner_text()
    assert page.get_by_text("Game length in rounds").first.is_visible()
