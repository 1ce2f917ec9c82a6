"""An invited player in headless Chromium: the host starts a table with a seat for a person joining by link; in a
second browser, logged out, the guest opens the link, signs up, takes the seat, and the two play to the end."""

import time
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model

from dreaddraw.engine import Game, to_notation
from dreaddraw.engine.fairness import game_seed
from dreaddraw.models import DreadDrawTable, TableStatus
from dreaddraw.services import table_game
from tests.support import live_db

pytestmark = [pytest.mark.browser, live_db]

# A table's seed and nonce that make a short game when each seat takes its first legal decision: 19 decisions
# (found by playing seeds 0-399 with the engine; the shortest).
SEED, NONCE = 125, "5eed" * 16


def short_game() -> list[tuple[int, str]]:
    game = Game(2, game_seed(SEED, NONCE))
    plan = []
    while not game.over:
        decision = game.legal()[0]
        plan.append((game.to_move(), to_notation(decision)))
        game.play(decision)
    return plan


def test_an_invited_player_signs_up_from_the_link_joins_and_plays_the_game_to_its_end(
        page, login, browser, live_server, monkeypatch):
    monkeypatch.setattr("dreaddraw.services.new_nonce", lambda: NONCE)
    monkeypatch.setattr("dreaddraw.services.random",
                        SimpleNamespace(SystemRandom=lambda: SimpleNamespace(randrange=lambda _: SEED)))
    host = page
    login(get_user_model().objects.create_user("host", password="a-long-passphrase-9"))
    host.goto("/dread-draw/")
    form = host.get_by_role("region", name="Start a table")
    form.get_by_label("Players").select_option("2")
    form.get_by_label("Seat 2", exact=True).select_option("invite")
    form.get_by_label("Name for seat 1").fill("Hana")
    form.get_by_role("button", name="Start the table").click()
    host.get_by_role("heading", name="Open seats").wait_for()
    table = DreadDrawTable.objects.get()
    assert table.status == TableStatus.WAITING and (table.seed, table.nonce) == (SEED, NONCE)
    invite = host.url  # the invite link is the table's address
    assert "Share this page's address" in host.get_by_role("region", name="Open seats").inner_text()
    log = host.get_by_role("region", name="Log").inner_text()  # no one is to move before every seat is taken
    assert "The log starts when every seat is taken." in log and "to summon" not in log

    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    guest = context.new_page()
    try:
        guest.goto(invite)  # logged out: the log-in page, which offers to sign up and comes back to the table
        guest.locator("#main").get_by_role("link", name="Sign up").click()  # the one that keeps the way back
        guest.get_by_label("Username").fill("guest")
        guest.get_by_label("Password:", exact=True).fill("another-long-passphrase-7")
        guest.get_by_label("Password confirmation:").fill("another-long-passphrase-7")
        guest.get_by_role("button", name="Create account").click()
        guest.wait_for_url(invite)
        guest.get_by_role("button", name="Take a seat").click()
        guest.locator("#board").wait_for()
        table.refresh_from_db()
        assert table.status == TableStatus.PLAYING
        assert table.seats.get(index=1).user.username == "guest"
        # The host's page, polling its board, takes the started table whole: no open seats said left any more.
        host.get_by_role("heading", name="Open seats").wait_for(state="detached", timeout=8_000)

        pages, last = (host, guest), None
        for step, (seat, notation) in enumerate(short_game()):
            assert table_game(DreadDrawTable.objects.get()).to_move() == seat
            player = pages[seat]
            if seat != last:
                player.reload()  # the other screen polls every 2 s; a reload shows the move at once
            # the board the player acts on is the one after the last decision (its forms carry the turn)
            player.locator(f'#board input[name=turn][value="{step}"]').first.wait_for(state="attached")
            player.locator(f'#board button[data-decision="{notation}"]').click()
            last = seat
            for _ in range(100):
                if len(DreadDrawTable.objects.get().decisions) > step:
                    break
                time.sleep(0.1)
        for player in pages:
            player.reload()
            player.locator(".dd-over").wait_for()
            assert "wins the game" in player.locator(".dd-turn").inner_text()
        assert DreadDrawTable.objects.get().status == TableStatus.OVER
    finally:
        context.close()
