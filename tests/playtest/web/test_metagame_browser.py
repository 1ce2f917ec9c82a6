"""The metagame table in headless Chromium: the form to the heat map on a worker, by keyboard, on a phone, axe-clean."""

import pytest
from django.test import Client

from decks.selectors import starter_deck_list
from playtest.jobs import services
from playtest.models import Run
from playtest.simulation.metagame_kind import METAGAME
from tests.a11y.test_axe import axe_violations
from tests.support import live_db

pytestmark = [pytest.mark.browser, live_db]

CAPTION = "Win rate of the row deck against the column deck"


def test_submit_a_table_watch_it_play_and_read_the_heat_map_by_keyboard(page, login, alice, celery_worker):
    login(alice)
    starters = list(starter_deck_list(format="standard"))
    page.goto("/playtest/metagame/")
    assert axe_violations(page) == []
    page.get_by_text("15 pairs × 400 games = 6000 games").wait_for()
    for deck in starters[3:]:
        page.get_by_label(deck.name).uncheck()
    page.get_by_label("Quick").check()
    page.get_by_label("Games a pair").fill("2")
    page.get_by_label("Games a pair").press("Tab")  # the change updates the budget
    page.get_by_text("3 pairs × 2 games = 6 games").wait_for()
    page.get_by_role("button", name="Start the table").click()
    page.get_by_role("heading", name="Report").wait_for(timeout=120_000)
    run = Run.objects.get(owner=alice)
    assert run.kind == METAGAME and run.status == "done" and run.games_done == 6

    heat_map = page.get_by_role("table", name=CAPTION)
    for deck in starters[:3]:
        assert heat_map.get_by_role("columnheader", name=deck.name).is_visible()
        assert heat_map.get_by_role("rowheader", name=deck.name).is_visible()
    cells = heat_map.locator("td.heat:not(.overall)")
    assert cells.count() == 6
    for text in cells.all_inner_texts():
        assert "%" in text and "–" in text, text  # the rate and its interval, as text
    assert axe_violations(page) == []

    region = page.get_by_role("region", name=CAPTION)
    region.focus()  # the scrolling table is reachable by keyboard
    page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement.closest('table.heatmap') !== null"
                            " && document.activeElement.tagName")
    assert focused == "A", "the first rate of the heat map takes the focus next"
    page.keyboard.press("Enter")
    page.get_by_role("heading", name="step-through replay").wait_for()
    assert "South (moves first)" in page.content()


def test_the_heat_map_reads_on_a_phone(browser, live_server, alice, settings):
    settings.PLAYTEST_QUEUE = "heat-map-test"  # played here, not by the session's worker (the test above starts it)
    decks = list(starter_deck_list(format="standard").values_list("pk", flat=True))
    run = services.run_submit(owner=alice, kind=METAGAME, seed=2,
                              params={"decks": decks, "games_per_pair": 2, "format": "quick"})
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    client = Client()
    client.force_login(alice)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 360, "height": 740},
                                  is_mobile=True, has_touch=True)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    phone = context.new_page()
    try:
        phone.goto(f"/playtest/runs/{run.pk}/")
        heat_map = phone.get_by_role("table", name=CAPTION)
        heat_map.wait_for()
        # The page itself does not scroll sideways: the table scrolls in its own region, row headers kept in view.
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360
        region = phone.get_by_role("region", name=CAPTION)
        assert region.evaluate("r => r.scrollWidth > r.clientWidth")
        region.evaluate("r => { r.scrollLeft = r.scrollWidth; }")
        header = heat_map.get_by_role("rowheader").first
        box, view = header.bounding_box(), region.bounding_box()
        assert box["x"] >= view["x"] - 1 and box["x"] + box["width"] <= view["x"] + view["width"] + 1
        assert axe_violations(phone) == []
    finally:
        context.close()
