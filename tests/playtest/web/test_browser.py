"""Playtesting in headless Chromium: a goldfish turn by clicking, and a run watched to its report."""

import pytest

from cards.models import Card
from decks.cardinfo import Entry
from decks.models import Deck
from decks.selectors import card_info
from decks.services import deck_create
from playtest.models import Run
from tests.playtest.dreadgate_decks import starter_deck
from tests.support import live_db

pytestmark = [pytest.mark.browser, live_db]

NORTH_BIT = 1



def runner_deck(owner):
    """36 cheap grounded units that move two cells straight forward: from the back rank to the Gateway."""
    runners = [c for c in Card.objects.filter(type="unit", vitality=1, maneuver=2).prefetch_related("keywords")
               .order_by("collector_number")
               if c.maneuver_directions & NORTH_BIT and not any(k.slug == "aviation" for k in c.keywords.all())][:9]
    assert len(runners) == 9
    return deck_create(owner=owner, name="Runners", entries=[Entry(card_info(c), 4) for c in runners])


def test_play_a_goldfish_turn_by_clicking_deploy_move_and_pass_the_gateway(page, login, alice):
    login(alice)
    deck = runner_deck(alice)
    page.goto(f"/playtest/new/?deck={deck.pk}")
    page.get_by_role("button", name="Open a goldfish table").click()
    page.get_by_role("heading", name="Goldfish table: Runners").wait_for()
    keep = page.get_by_role("button", name="Keep your hand", exact=True)
    if keep.count():
        keep.click()
        page.get_by_text("action points left").wait_for()
    south = "you are South" in page.locator(".status-line").inner_text()
    home = "c1" if south else "c5"

    page.locator(".hand a.hand-card").first.click()  # select a unit in hand
    page.locator(f'[data-cell="{home}"] .cell-target').click()  # deploy it on the back rank
    page.locator(f'[data-cell="{home}"] .unit-tile').wait_for()
    page.get_by_role("button", name="End your turn", exact=True).click()  # the training opponent passes
    page.locator(f'[data-cell="{home}"] a.unit-face').wait_for()

    page.locator(f'[data-cell="{home}"] a.unit-face').click()  # select the unit
    page.locator('[data-cell="c3"] .cell-target').click()  # and maneuver onto the Gateway
    page.locator(f'[data-cell="{home}"] .unit-tile').wait_for(state="detached")
    mine = page.locator(".zone-player.mine")
    assert "Beyond 1" in mine.inner_text()


def test_submit_a_run_and_watch_the_progress_bar_reach_the_report(page, login, alice, celery_worker):
    login(alice)
    deck = starter_deck(alice)
    tactical = Deck.objects.filter(is_starter=True, format="tactical").first()
    page.goto("/playtest/")
    # The opponents follow the deck chosen on the page: a Tactical deck's games take only Tactical decks (DC-8).
    offered = """pk => { const o = document.querySelector(`#opponent option[value="${pk}"]`);
                         return !o.hidden && !o.disabled; }"""
    assert page.locator("#sim-deck").input_value() == str(deck.pk)
    assert not page.evaluate(offered, tactical.pk) and page.evaluate(offered, deck.pk)
    page.locator("#sim-deck").select_option(str(tactical.pk))
    assert page.evaluate(offered, tactical.pk) and not page.evaluate(offered, deck.pk)
    page.locator("#sim-deck").select_option(str(deck.pk))
    assert not page.evaluate(offered, tactical.pk)
    page.get_by_label("Games").fill("1000")
    page.get_by_role("button", name="Start the run").click()
    page.locator("progress").wait_for()
    assert Run.objects.filter(owner=alice).count() == 1
    page.get_by_role("heading", name="Report").wait_for(timeout=120_000)
    run = Run.objects.get(owner=alice)
    assert run.status == "done" and run.games_done == 1000
    assert "Turns to win" in page.content()

