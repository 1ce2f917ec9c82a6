"""A whole Dread Draw game in headless Chromium: one person against a bot, to the fortune telling."""

import pytest
from django.contrib.auth import get_user_model

from dreaddraw.models import DreadDrawTable, TableStatus
from tests.conftest import live_db

pytestmark = [pytest.mark.browser, live_db]


def log_in(page, username="reader", password="a-long-passphrase-9"):
    get_user_model().objects.create_user(username, password=password)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


def current_turn(page) -> str:
    inputs = page.locator("#board input[name=turn]")
    return inputs.first.get_attribute("value") if inputs.count() else ""


def test_play_a_whole_game_against_a_bot_to_the_fortune(page):
    log_in(page)
    page.goto("/dread-draw/")
    form = page.get_by_role("region", name="Start a table")
    form.get_by_label("Players").select_option("2")
    form.get_by_label("Seat 2", exact=True).select_option("bot:random")
    form.get_by_label("Name for seat 1").fill("Marta")
    form.get_by_role("button", name="Start the table").click()
    page.get_by_role("heading", name="Dread Draw table").wait_for()
    table = DreadDrawTable.objects.get()
    assert page.url.endswith(f"/dread-draw/tables/{table.pk}/")

    # The chance of success is shown on request only.
    chance = page.locator("details.dd-chance")
    assert not chance.locator("p").is_visible()
    chance.locator("summary").click()
    assert "%" in chance.inner_text() or "top card" in chance.inner_text()

    for _ in range(400):
        if page.get_by_role("heading", name="Game over").count():
            break
        before = current_turn(page)
        assert "Your decision." in page.locator("#board").inner_text()
        page.locator("#board button[data-decision]").first.click()
        page.wait_for_function(
            "before => { const t = document.querySelector('#board input[name=turn]');"
            " return !t || t.value !== before || document.querySelector('.dd-over'); }",
            arg=before,
        )
    over = page.locator(".dd-over")
    over.wait_for()
    assert "wins the game" in page.locator(".dd-turn").inner_text()
    table.refresh_from_db()
    assert table.status == TableStatus.OVER
    fortune = page.locator(".dd-fortune")
    text = fortune.inner_text() if fortune.count() else ""  # told only when the winner has Life cards left
    assert not text or "PRESENT" in text.upper()

    page.reload()  # the game lives on the server: a reload shows the same ending
    over.wait_for()
    assert (fortune.inner_text() if fortune.count() else "") == text
    assert page.locator(".dd-log li").count() > 5

    over.get_by_role("button", name="Play again").click()  # the same seats at a new table
    page.get_by_role("heading", name="Dread Draw table").wait_for()
    again = DreadDrawTable.objects.exclude(pk=table.pk).get()
    assert page.url.endswith(f"/dread-draw/tables/{again.pk}/")
    assert [s.kind for s in again.seats.order_by("index")] == ["local", "bot"]


def test_a_table_fits_a_phone_and_plays_by_keyboard(phone_page):
    from dreaddraw.services import table_create

    page = phone_page
    log_in(page, "thumbs")
    user = get_user_model().objects.get(username="thumbs")
    table = table_create(owner=user, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"},
                                            {"kind": "bot", "bot": "probability"}], seed=12)
    page.goto(f"/dread-draw/tables/{table.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    before = current_turn(page)
    deck = page.get_by_role("button", name="Summon from the Draw Deck")
    deck.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("before => document.querySelector('#board input[name=turn]')?.value !== before"
                           " || !!document.querySelector('.dd-over')", arg=before)
    table.refresh_from_db()
    assert len(table.decisions) > int(before)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
