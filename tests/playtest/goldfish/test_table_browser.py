"""The goldfish table in headless Chromium: a whole Quick game won by the Beyond with clicks only, the same
moves by keyboard, a refusal with its rule, undo, the replay of the finished game, axe-core, and the layout at
1280 and 390 px: the whole game on one screen at 1280×720, 1366×768, 1280×800 and 1920×1080 (board, hand, status,
turn bar, both players' piles, the log and the command box), the person at the bottom whichever seat they have, the
controls the moment allows, and an answer in error that leaves the table in place."""

import itertools
import random
import time

import pytest

from playtest.dreadgate.actions import (
    ATTACK,
    DEFEND,
    DEPLOY,
    DRAW,
    END,
    EQUIP,
    INSTANT,
    KEEP,
    MOVE,
    PASS,
    PLAY,
    RECYCLE,
    STRIKE,
    TARGET_UNIT,
)  # fmt: skip
from playtest.dreadgate.board import cell_name
from playtest.dreadgate.state import MAIN_PHASE, RESPONSE_PHASE
from playtest.goldfish import services as tables
from playtest.goldfish.board import CardFaces
from playtest.goldfish.presenter import encode, table_view
from playtest.models import GoldfishTable
from tests.a11y.test_axe import axe_violations
from tests.playtest.dreadgate_decks import starter_deck
from tests.playtest.goldfish.quick_win import (
    advancing_step,
    attacking_step,
    dummy_cell,
    guarded_deck,
    kind_of_step,
    next_step,
    quick_deck,
    waiting_step,
)  # fmt: skip
from tests.support import live_db

pytestmark = [pytest.mark.browser, live_db]

SEED = 5  # the plan wins on turn 23 from this seed, the human seat South, taking every kind of step
BAR_KINDS = {KEEP, END, DRAW, STRIKE, PASS, INSTANT}
HAND_KINDS = {DEPLOY, EQUIP, PLAY}
UNIT_KINDS = {MOVE, ATTACK}
# Against the AI's hinter starter deck, the advancing plan from this seed is attacked by two units at once
# (the defence step, DG-10.8) right after the person's move at this index of the table's actions
GANG_SEED, GANG_LAST_MOVE = 18, 31
# The attacking plan with the Quick runners against the AI's guarded deck: the AI answers the strike at this
# index with an instant in its defence step (DG-10.8, DG-15.5)
ANSWERED_SEED, ANSWERED_STRIKE = 26, 46
# The champion starter deck from these seeds: after the keep and one draw, seven different cards in hand; the person
# sits South from the first, North (the second player, DG-4.3) from the second
SEVEN_SOUTH, SEVEN_NORTH = 9, 7
NORTH_SEED = 1  # the Quick runners: the person is the second player, North


@pytest.fixture(autouse=True)
def fixed_nonce(monkeypatch):
    """The seeds above were found on games set up from the seed alone: these tables are opened with an empty nonce,
    as tables opened before nonces were (DG-4.6), which keeps those games (this overrides the package's nonce)."""
    monkeypatch.setattr("playtest.goldfish.services.new_nonce", lambda: "")


def open_ai_table(page, login, alice, deck, speed: int):
    """A table against the AI (the champion starter, seed 1), its actions played out `speed` ms apart."""
    login(alice)
    opponent = starter_deck(alice, craft="champion", name="The AI's deck")
    table = tables.table_create(owner=alice, deck_id=deck.pk, seed=1, opponent_deck_id=opponent.pk)
    page.goto(f"/playtest/tables/{table.pk}/")
    page.evaluate(f"localStorage.setItem('dreadgate.table.speed', '{speed}')")
    return table


def open_table(page, owner, seed=SEED):
    table = tables.table_create(owner=owner, deck_id=quick_deck(owner).pk, seed=seed)
    state = tables.table_state(table)
    tables.table_place_dummy(table=table, cell=dummy_cell(tables.human_seat(state)))  # something to attack
    page.goto(f"/playtest/tables/{table.pk}/")
    page.locator("#table").wait_for()
    return GoldfishTable.objects.get(pk=table.pk)


def log_length(page) -> int:
    return page.locator(".log-lines li").count()


def wait_for_action(page, before: int) -> None:
    page.locator(".log-lines li").nth(before).wait_for(state="attached")  # the log has one more line
    settled(page)


def settled(page) -> None:
    """The table swapped in has settled: its focus is put back (htmx:afterSettle, which may move it) and nothing is
    on its way, so a key pressed next lands where the test put the focus, not where the settling moves it."""
    page.wait_for_function(
        "() => !document.querySelector('#table.htmx-settling, #table.htmx-swapping, .htmx-request')")


def click_step(page, state, action) -> None:
    """Play one action as a player does: on the board, the hand, the selection's menu or the turn bar."""
    kind, a, b = action
    value = encode(action)
    before = log_length(page)
    if kind in HAND_KINDS:
        page.locator(f'.hand a.hand-card[href="?sel=h{a}"]').click()
    elif kind in UNIT_KINDS:
        page.locator(f'[data-cell="{cell_name(state.units[a].cell)}"] a.unit-face').click()
    if kind in BAR_KINDS:
        page.locator(f'.turn-bar button[value="{value}"]').click()
    elif kind == PLAY:
        page.locator(f'.unit-menu button[value="{value}"]').click()
    elif kind in HAND_KINDS | UNIT_KINDS | {TARGET_UNIT, DEFEND}:
        page.locator(f'.board button[value="{value}"]').click()  # a lit cell, or the target unit itself
    else:
        raise AssertionError(f"the plan took a step this helper does not click: {action}")
    wait_for_action(page, before)


def keep(page, by_keyboard: bool = False):
    button = page.get_by_role("button", name="Keep your hand")
    if by_keyboard:
        button.focus()
        page.keyboard.press("Enter")
    else:
        button.click()
    page.locator(".log-lines li", has_text="You keep your hand").wait_for()
    # and the table swapped in is settled: a key pressed on a link htmx has not taken up yet is a page load
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def a_unit_in_hand(table) -> int:
    state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
    return next(a[1] for a in state.legal_actions() if a[0] == DEPLOY)


def open_seven(page, owner, seed):
    """A table of the champion starter deck, its hand kept, and a card drawn: seven different cards in hand."""
    table = tables.table_create(owner=owner, deck_id=starter_deck(owner).pk, seed=seed)
    page.goto(f"/playtest/tables/{table.pk}/")
    keep(page)
    draw = page.get_by_role("button", name="Draw a card", exact=True)
    if draw.count():
        draw.click()
    page.get_by_role("heading", name="Your hand (7 cards)").wait_for()
    assert page.locator(".hand .hand-tile").count() == 7, "no longer seven different cards from this seed"
    page.mouse.move(0, 0)  # no card's large view
    return GoldfishTable.objects.get(pk=table.pk)


def off_screen(page) -> list[str]:
    """What of the board, the hand, the status and the turn bar is not in full view with the page at its top, and
    hand cards whose name or stats are smaller than 12 px."""
    page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate("""() => {
      const problems = [];
      const [width, height] = [window.innerWidth, window.innerHeight];
      const parts = ['.board', '.status-line', '.turn-bar', '.hand .hand-tile'];
      for (const sel of parts) for (const e of document.querySelectorAll(`#table ${sel}`)) {
        const r = e.getBoundingClientRect();
        const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
        if (r.top < 0 || r.left < 0 || r.bottom > height + 0.5 || r.right > width + 0.5)
          problems.push(`${sel} at ${at}`);
      }
      for (const e of document.querySelectorAll('#table .hand .hand-name, #table .hand .hand-stats')) {
        const size = parseFloat(getComputedStyle(e).fontSize);
        if (size < 12) problems.push(`${e.className} in ${size} px: ${e.textContent.trim()}`);
      }
      if (!document.querySelector('#table .board')) problems.push('no board');
      if (!document.querySelector('#table .status-line')) problems.push('no status');
      return problems;
    }""")


def board_box(page) -> dict:
    return page.evaluate("""() => { const r = document.querySelector('#table .board').getBoundingClientRect();
      return {top: Math.round(r.top), left: Math.round(r.left), size: Math.round(r.width),
              scroll: window.scrollY}; }""")


def board_units(page) -> list[tuple[str, str]]:
    return page.eval_on_selector_all(
        ".board [data-cell]", "cells => cells.filter(c => c.querySelector('.unit-tile'))"
        ".map(c => [c.dataset.cell, c.querySelector('.card-zoom strong').textContent])")


def test_a_quick_game_is_won_through_the_gateway_with_clicks_only_and_replayed_on_the_same_board(page, login, alice):
    login(alice)
    table = open_table(page, alice)
    me = tables.human_seat(tables.table_state(table))
    done: set[str] = set()
    for _ in range(80):
        state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
        if state.is_over():
            break
        action = next_step(state, me, done)
        done.add(kind_of_step(state, action))
        click_step(page, state, action)
    assert {"attack", "talent", "glyph", "item"} <= done
    over = page.locator(".game-over")
    assert "You won" in over.inner_text() and "beyond" in over.inner_text().lower()
    assert "Beyond 2" in page.locator(".score.mine").inner_text()  # 21 of 20: the Quick format's target
    finished = board_units(page)
    assert finished  # the lane unit and the dummy stay on the board
    log = page.locator(".log-lines")
    assert log.evaluate("l => l.scrollHeight > l.clientHeight && l.scrollTop + l.clientHeight >= l.scrollHeight - 2")

    page.get_by_role("link", name="Open the replay").click()
    page.get_by_text("Step 0 of").wait_for()
    page.get_by_role("link", name="End").click()
    last = GoldfishTable.objects.get(pk=table.pk).actions
    page.get_by_text(f"Step {len(last)} of {len(last)}").wait_for()
    assert board_units(page) == finished
    page.locator("#replay-step").fill("3")  # the scrubber
    page.get_by_text(f"Step 3 of {len(last)}").wait_for()
    assert "?step=3" in page.url  # a deep link to the step
    page.get_by_role("button", name="Play").focus()
    page.keyboard.press("Enter")
    page.get_by_text(f"Step 5 of {len(last)}").wait_for()  # it steps on by itself
    # The focus stayed on the button through the steps: the keyboard's Enter pauses it where it is.
    page.wait_for_function("() => document.activeElement.dataset.control === 'play'", timeout=3_000)
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Play").wait_for()
    # By keyboard: Enter on Next takes a step and leaves the focus on Next, so the next Enter takes the next one.
    step = int(page.locator("#replay").get_attribute("data-step"))
    page.get_by_role("link", name="Next").focus()
    for n in (1, 2):
        page.keyboard.press("Enter")
        page.locator(f'#replay[data-step="{step + n}"]').wait_for()
        page.wait_for_function("() => document.activeElement.dataset.control === 'next'")
    page.keyboard.press("Shift+Tab")  # Previous, then past the first step: the focus on Start
    assert page.evaluate("document.activeElement.dataset.control") == "prev"
    for n in range(step + 1, -1, -1):
        page.keyboard.press("Enter")
        page.locator(f'#replay[data-step="{n}"]').wait_for()
        page.wait_for_function(f"() => document.activeElement.dataset.control === '{'prev' if n else 'start'}'")


def test_deploy_select_and_cancel_by_keyboard_only(page, login, alice):
    login(alice)
    table = open_table(page, alice)
    keep(page, by_keyboard=True)
    state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
    deploy = next(a for a in state.legal_actions() if a[0] == DEPLOY and cell_name(a[2]) == "c1")
    page.locator(f'.hand a.hand-card[href="?sel=h{deploy[1]}"]').focus()
    page.keyboard.press("Enter")  # select the card: its cells light up and the first of them takes the focus
    page.locator(".cell-target:focus").wait_for()
    while page.evaluate("document.activeElement.value") != encode(deploy):
        page.keyboard.press("Tab")  # along the lit cells
    page.keyboard.press("Enter")
    page.locator('[data-cell="c1"] .unit-tile').wait_for()
    settled(page)
    chosen = page.locator(".hand a.hand-card").first.get_attribute("data-key")
    page.locator(".hand a.hand-card").first.focus()
    page.keyboard.press("Enter")
    page.locator(".selection").wait_for()
    page.keyboard.press("Escape")  # cancels the selection
    page.locator(".selection").wait_for(state="detached")
    assert not page.locator(".cell-target").count()
    wait_for_focus_in_table(page)  # back on the card, not on the turn's buttons where Enter would end the turn
    assert page.evaluate("document.activeElement.dataset.key") == chosen


def wait_for_focus_in_table(page) -> None:
    """The focus comes back into the table once its swap has settled (a swap removes what had it)."""
    page.locator("#table :focus").wait_for(timeout=5_000)


def test_a_turn_button_pressed_by_keyboard_leaves_the_focus_in_the_table(page, login, alice):
    """The turn bar's buttons replace the table with the next one: the focus goes to the same button if the table
    still has it, else to the first of its controls, never to the page's end (where the next Tab would start)."""
    login(alice)
    open_table(page, alice)
    keep(page, by_keyboard=True)  # the keep button is gone after it
    wait_for_focus_in_table(page)
    draw = page.get_by_role("button", name="Draw a card", exact=True)
    if draw.count():  # the first player does not draw on the first turn
        before = log_length(page)
        draw.focus()
        page.keyboard.press("Enter")
        wait_for_action(page, before)
        wait_for_focus_in_table(page)
    end = page.locator(".turn-bar .bar-action").last
    before = log_length(page)
    end.focus()
    page.keyboard.press("Enter")
    wait_for_action(page, before)
    wait_for_focus_in_table(page)


def tab_to(page, selector: str, limit: int = 300) -> None:
    """Press Tab until the element the selector names has the focus, as a keyboard user does."""
    for _ in range(limit):
        if page.evaluate("(sel) => document.activeElement?.matches(sel) ?? false", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def board_to(page, selector: str, limit: int = 120) -> None:
    """Reach a unit or cell of the board as a keyboard user does: Tab to the board (one stop of the Tab order, as a
    grid is), then the arrow keys."""
    tab_to(page, ".board a, .board button, .board [tabindex]")
    page.keyboard.press("Home")
    for _ in range(limit):
        if page.evaluate("(sel) => document.activeElement?.matches(sel) ?? false", selector):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"the arrows never reached {selector}")


def key_step(page, state, action, key: str) -> None:
    """Play one action by keyboard only: Tab to the card or unit and Enter, then Tab to its target and `key`."""
    kind, a, _ = action
    value = encode(action)
    before = log_length(page)
    if kind in HAND_KINDS:
        tab_to(page, f'.hand a.hand-card[href="?sel=h{a}"]')
    elif kind in UNIT_KINDS:
        board_to(page, f'[data-cell="{cell_name(state.units[a].cell)}"] a.unit-face')
    if kind in HAND_KINDS | UNIT_KINDS:
        page.keyboard.press("Enter")  # selected: the focus moves to its first lit cell or its menu
        page.locator(".selection").wait_for()
    where = ".turn-bar" if kind in BAR_KINDS else ".unit-menu" if kind == PLAY else ".board"
    tab_to(page, f'{where} button[value="{value}"]')
    page.keyboard.press(key)
    wait_for_action(page, before)


def with_units(table, count: int) -> GoldfishTable:
    """The hand kept, then the person's units deployed (turns ended when none can be) until `count` are on the board."""
    me = tables.human_seat(tables.table_state(table))
    for _ in range(80):
        state = tables.table_state(table)
        if sum(1 for unit in state.units.values() if unit.owner == me) >= count and state.active == me \
                and state.phase == MAIN_PHASE:
            return table
        legal = state.legal_actions()
        action = next((a for a in legal if a[0] in (KEEP, DEPLOY)), None) \
            or next((a for a in legal if a[0] in (END, PASS, DRAW)), legal[0])
        tables.table_act(table=table, action=action)
        table.refresh_from_db()
    raise AssertionError(f"no board of {count} units from this seed")


def focused(page, script: str):
    return page.evaluate(f"(() => {{ const el = document.activeElement; return {script}; }})()")


def test_the_board_is_one_tab_stop_and_the_arrow_keys_move_between_its_units(page, login, alice):
    """A board of a dozen units put some thirty Tabs between the hand and the turn's buttons. The board is one stop
    of the Tab order, as a grid is: the arrows move within it (Home and End to its first and last), Tab leaves it,
    and coming back finds the unit left; a selection's lit cells stay in the Tab order, as the choices of the
    moment."""
    login(alice)
    table = open_table(page, alice)
    with_units(table, 4)
    page.goto(f"/playtest/tables/{table.pk}/")
    units = page.locator(".board .unit-face").count()
    assert units >= 5  # four of the person's and the dummy
    page.locator(".hand .hand-card").first.focus()  # the board lies between the turn's buttons and the hand
    on_board = 0
    for _ in range(40):
        page.keyboard.press("Shift+Tab")
        on_board += focused(page, "Boolean(el.closest('.board'))")
        if focused(page, "el.closest('.turn-bar') !== null"):
            break
    else:
        raise AssertionError("Shift+Tab never went from the hand to the turn's buttons")
    assert on_board == 1, f"{on_board} stops on the board"
    page.keyboard.press("Tab")
    while not focused(page, "Boolean(el.closest('.board'))"):
        page.keyboard.press("Tab")
    page.keyboard.press("Home")
    first = focused(page, "el.closest('[data-cell]').dataset.cell")
    seen = [first]
    for _ in range(units + 5):
        page.keyboard.press("ArrowRight")
        seen.append(focused(page, "el.closest('[data-cell]').dataset.cell"))
    faces = page.eval_on_selector_all(".board .unit-face",
                                      "faces => faces.map(f => f.closest('[data-cell]').dataset.cell)")
    assert set(faces) <= set(seen), (faces, seen)  # every unit reached
    last = seen[-1]
    page.keyboard.press("Home")
    assert focused(page, "el.closest('[data-cell]').dataset.cell") == first
    page.keyboard.press("End")
    assert focused(page, "el.closest('[data-cell]').dataset.cell") == last
    rows = page.eval_on_selector_all(".board .unit-face", "faces => faces.map(f => f.closest('[role=row]'))"
                                     ".map(r => [...r.parentNode.children].indexOf(r))")
    if len(set(rows)) > 1:  # up and down reach another row
        row_of_focus = "[...el.closest('[role=row]').parentNode.children].indexOf(el.closest('[role=row]'))"
        before = focused(page, row_of_focus)
        page.keyboard.press("ArrowUp" if before == max(rows) else "ArrowDown")
        assert focused(page, row_of_focus) != before
    remembered = focused(page, "el.closest('[data-cell]').dataset.cell")
    page.keyboard.press("Shift+Tab")  # out of the board
    assert not focused(page, "Boolean(el.closest('.board'))")
    page.keyboard.press("Tab")  # and back: the unit left
    assert focused(page, "el.closest('[data-cell]').dataset.cell") == remembered
    page.locator(".hand a.hand-card").first.focus()  # a selection: its lit cells are each a stop of the Tab order
    page.keyboard.press("Enter")
    page.locator(".selection").wait_for()
    lit = page.locator(".board .cell-target, .board .unit-target").count()
    if lit > 1:
        page.locator(".cell-target:focus, .unit-target:focus").wait_for()
        page.keyboard.press("Tab")
        assert focused(page, "el.matches('.cell-target, .unit-target')")


def test_the_same_moves_by_keyboard_only_deploy_move_attack_and_play_a_talent_a_glyph_and_an_item(
        page, login, alice):
    login(alice)
    table = open_table(page, alice)
    me, done, played = tables.human_seat(tables.table_state(table)), set(), []
    for step in range(60):
        state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
        if {"attack", "talent", "glyph", "item"} <= done:
            break
        action = next_step(state, me, done)
        done.add(kind_of_step(state, action) or {DEPLOY: "deploy", MOVE: "move"}.get(action[0], ""))
        key_step(page, state, action, key=" " if step % 2 else "Enter")  # buttons answer Space and Enter
        played.append(action)
    assert {"deploy", "move", "attack", "talent", "glyph", "item"} <= done
    history = iter(state.history)
    assert all(action in history for action in played)  # each one taken, in this order


def test_a_card_dragged_from_the_hand_is_deployed_where_it_is_dropped(page, login, alice):
    login(alice)
    table = open_table(page, alice)
    keep(page)
    card = page.locator(f'.hand a.hand-card[href="?sel=h{a_unit_in_hand(table)}"]')
    assert "c1=" in card.get_attribute("data-drops")
    card.drag_to(page.locator('[data-cell="c1"]'))
    page.locator('[data-cell="c1"] .unit-tile').wait_for()
    assert "You deploy" in page.locator(".log-lines li").last.inner_text()


def test_an_item_dropped_on_a_unit_is_equipped_and_shows_large_in_place_of_its_bearer(page, login, alice):
    login(alice)
    table = open_table(page, alice)
    me, done = tables.human_seat(tables.table_state(table)), set()
    while True:  # the plan's first steps, through the service, up to its equip
        state = tables.table_state(table)
        action = next_step(state, me, done)
        if action[0] == EQUIP:
            break
        done.add(kind_of_step(state, action))
        tables.table_act(table=table, action=action)
        table.refresh_from_db()
    page.set_viewport_size({"width": 1280, "height": 1400})  # hand and board in view: no scrolling mid-drag
    page.reload()
    bearer_cell = cell_name(state.units[action[2]].cell)
    card = page.locator(f'.hand a.hand-card[data-key="h{action[1]}"]')
    card.click()  # selected: the unit it may equip is itself the thing clicked, nothing covers it
    bearer = page.locator(f'[data-cell="{bearer_cell}"] button.unit-target[value="{encode(action)}"]')
    bearer.wait_for()
    assert page.locator(f'[data-cell="{bearer_cell}"] .cell-actions').count() == 0
    assert bearer.locator(".face").is_visible() and "equip" in bearer.inner_text().lower()
    box = bearer.bounding_box()
    on_top = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('button')?.value",
                           [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert on_top == encode(action)  # the unit's own button is what a click at its centre reaches
    card.click()  # a second click on the selected card clears the selection
    page.locator(".selection").wait_for(state="detached")
    assert page.locator(".board .unit-target").count() == 0
    card.click()
    page.locator(".selection").wait_for()
    page.keyboard.press("Escape")  # and so does Escape
    page.locator(".selection").wait_for(state="detached")
    assert f"{bearer_cell}={encode(action)}" in card.get_attribute("data-drops")
    card.drag_to(page.locator(f'[data-cell="{bearer_cell}"]'))  # dropped on the unit: equipped
    page.locator(".log-lines li", has_text="You equip").wait_for()
    assert action in tables.table_state(GoldfishTable.objects.get(pk=table.pk)).history
    assert axe_violations(page) == []  # a focusable item inside its bearer's tile
    item = page.locator(".carried").first
    bearer_zoom = item.locator("xpath=ancestor::span[contains(@class, 'unit-tile')]/span[@class='card-zoom']")
    assert "carried by" in item.get_attribute("aria-label")
    item.hover()
    item_zoom = item.locator(".card-zoom")
    item_zoom.wait_for()
    assert "Repeating Crossbow" in item_zoom.inner_text() and not bearer_zoom.is_visible()
    page.mouse.move(0, 0)
    item.focus()  # by keyboard: the same large view
    item_zoom.wait_for()
    assert not bearer_zoom.is_visible()
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        assert overlaps_and_overflows(page) == []


def test_a_refused_action_says_its_rule_and_undo_restores_the_board(page, login, alice):
    login(alice)
    table = open_table(page, alice)
    keep(page)
    page.locator("#notation").fill("deploy U-31133 c3")  # the Gateway is no deploy cell
    page.locator(".command-box button").click()
    refusal = page.locator(".refusal")
    refusal.wait_for()
    assert "rule DG-" in refusal.inner_text()
    assert refusal.get_by_role("link").get_attribute("href").startswith("/rules/#DG-")
    before = board_units(page)
    page.locator(f'.hand a.hand-card[href="?sel=h{a_unit_in_hand(table)}"]').click()
    page.locator(".board button.cell-target").first.click()
    page.locator(".unit-tile").first.wait_for()
    assert board_units(page) != before
    page.get_by_role("button", name="Undo").click()
    page.locator(".board .unit-tile").first.wait_for(state="detached")
    assert board_units(page) == before


@pytest.mark.parametrize("refused", ["deploy U-31133 c3", "bogus"])  # the rules' refusal; notation that reads as none
def test_a_command_typed_keeps_the_focus_in_its_box_and_a_refused_one_stays_there_to_be_mended(
        page, login, alice, refused):
    login(alice)
    open_table(page, alice)
    keep(page)
    box = page.locator("#notation")
    box.focus()
    page.keyboard.type(refused)  # the Gateway is no deploy cell
    page.keyboard.press("Enter")
    page.locator(".refusal").wait_for()
    page.wait_for_function("() => document.activeElement.id === 'notation'", timeout=5_000)  # once settled
    # htmx gives the focus back to the box as it swaps; the table's script puts the command back once it settles
    page.wait_for_function("text => document.querySelector('#notation').value === text", arg=refused, timeout=5_000)
    box.fill("")
    page.keyboard.type("draw")
    page.keyboard.press("Enter")
    page.locator(".refusal").wait_for(state="detached")
    page.wait_for_function("() => document.activeElement.id === 'notation'", timeout=5_000)
    assert box.input_value() == ""  # played: the box is empty for the next command


def phone_login(phone_page, live_server, user) -> None:
    """The `login` fixture's session, handed to the phone's browser context."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    phone_page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                                     "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])


def refuse_a_long_command(page, command: str) -> dict:
    """The command typed and refused: the refusal's height and text, and what stays in the box."""
    before = page.evaluate("document.querySelector('#table-message .refusal')?.textContent || ''")
    page.locator("#notation").fill(command)
    page.locator("#notation").press("Enter")
    page.wait_for_function("""before => {  // this command's refusal, swapped in and settled (not the one before)
      const refusal = document.querySelector('#table-message .refusal');
      return refusal && refusal.textContent !== before
        && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling'); }""", arg=before)
    page.wait_for_function("text => document.querySelector('#notation').value === text", arg=command, timeout=5_000)
    return page.evaluate("""() => { const box = document.querySelector('#table-message .refusal');
      return {height: box.getBoundingClientRect().height, text: box.textContent.trim(),
              kept: document.querySelector('#notation').value}; }""")


def test_a_long_command_refused_is_not_echoed_whole_above_the_status(page, phone_page, login, live_server, alice):
    """A 300-character command was echoed back in full: a refusal 285 px tall (380 px on a phone) pushed the status
    and the hand down the screen. The refusal repeats its start only; the command stays whole in its box."""
    login(alice)
    table = open_table(page, alice)
    keep(page)
    short = refuse_a_long_command(page, "deploy QQQQ c1")  # a refusal of a short command, for its height
    command = "deploy " + "Q" * 300 + " c1"
    refused = refuse_a_long_command(page, command)
    assert "no card 'QQQQ" in refused["text"] and "Q" * 30 not in refused["text"], refused["text"]
    assert refused["height"] <= short["height"] + 30 and refused["kept"] == command, (refused, short["height"])
    phone_login(phone_page, live_server, alice)
    phone_page.goto(f"/playtest/tables/{table.pk}/")
    phone_page.wait_for_function("() => window.htmx !== undefined")
    short = refuse_a_long_command(phone_page, "QQQQ")  # the first word: no action
    refused = refuse_a_long_command(phone_page, "Q" * 300)
    assert "unknown action 'qqqq" in refused["text"] and "q" * 30 not in refused["text"], refused["text"]
    assert refused["height"] <= short["height"] + 30 and refused["kept"] == "Q" * 300, (refused, short["height"])


def test_a_refusal_is_shown_in_place_with_debug_on_as_make_run_serves(page, login, alice, settings):
    """django-htmx's debug script (its tag adds it with DEBUG on) put a 4xx answer, the table's refusal, in place of
    the whole page: the site's header, the styles and the scripts were gone."""
    settings.DEBUG = True
    login(alice)
    open_table(page, alice)
    keep(page)
    page.locator("#notation").focus()
    page.keyboard.type("bogus")
    page.keyboard.press("Enter")
    page.locator(".refusal").wait_for()
    page.wait_for_function("() => document.activeElement.id === 'notation'", timeout=5_000)
    page.wait_for_function("() => document.querySelector('#notation').value === 'bogus'", timeout=5_000)
    assert page.locator(".site-header").is_visible()


def test_against_the_ai_its_turn_plays_out_and_an_instant_answers_it_in_a_response_window(page, login, alice):
    table = open_ai_table(page, login, alice, guarded_deck(alice), speed=250)
    keep(page)
    page.get_by_text("The opponent's actions, one by one").wait_for()  # the AI's keep, shown as a step
    page.get_by_role("link", name="Skip to the end").click()
    page.locator("#table:not([data-watch-step])").wait_for(state="attached")
    page.evaluate("localStorage.setItem('dreadgate.table.speed', '0')")  # the rest at once
    for _ in range(12):
        state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
        if state.phase == RESPONSE_PHASE:
            break
        click_step(page, state, waiting_step(state))
    assert state.phase == RESPONSE_PHASE, "the AI's deck gives no window from this seed any more"
    assert "your answer" in page.locator(".status-line").inner_text()
    page.set_viewport_size({"width": 1280, "height": 800})
    assert page.locator(".turn-bar button", has_text="as an instant").count()
    assert off_screen(page) == []  # the window's answers in the turn bar, beside the board and the hand
    assert "The opponent" in page.locator(".last-move").inner_text()  # what it answers, said above the board
    assert axe_violations(page) == []  # the response window
    instant = page.locator(".turn-bar button", has_text="as an instant").first
    words = instant.inner_text()
    instant.click()
    page.locator(".log-lines li", has_text="You play").wait_for()
    assert words.replace("Play ", "You play ") in page.locator(".log-lines").inner_text()


def test_against_the_ai_its_attack_is_marked_the_defender_blocks_on_the_board_then_concedes(page, login, alice):
    """DG-10.8, in the browser, against the AI itself: the person's units march forward until the AI attacks
    one of them with two of its own; after its turn plays out, its strike is marked on the board (where the attackers
    stand, and their target, by outline and word) and said in the live region; the person picks an attacker there
    and the defense it gets. Then the person concedes: the game is over, lost, its replay open. axe-core is clean at
    the opening hand, the defence step and the game's end."""
    login(alice)
    opponent = starter_deck(alice, craft="hinter", name="The AI's deck")
    table = tables.table_create(owner=alice, deck_id=guarded_deck(alice).pk, seed=GANG_SEED,
                                opponent_deck_id=opponent.pk)
    page.goto(f"/playtest/tables/{table.pk}/")
    page.get_by_role("button", name="Keep your hand").wait_for()
    assert axe_violations(page) == []  # the opening hand
    plan = random.Random(GANG_SEED)
    while len(table.actions) < GANG_LAST_MOVE:  # the turns before, played through the service to save time
        tables.table_act(table=table, action=advancing_step(tables.table_state(table), plan))
        table.refresh_from_db()
    page.goto(f"/playtest/tables/{table.pk}/")
    page.evaluate("localStorage.setItem('dreadgate.table.speed', '0')")
    state = tables.table_state(table)
    click_step(page, state, advancing_step(state, plan))  # the person's last move: the AI's turn follows
    state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
    defend = next((a for a in state.legal_actions() if a[0] == DEFEND), None)
    assert defend, "the AI no longer attacks with two from this seed: find another with the plan of this test"
    assert "select an attacker" in page.locator("p.selection").inner_text()
    assert "defence step" in page.locator(".status-line").inner_text()
    page.set_viewport_size({"width": 1280, "height": 800})
    assert off_screen(page) == []

    # the AI's strike, marked: its attackers where they stand, its target, each with a word as well as a ring
    target = cell_name(state.units[state.combat[0]].cell)
    attackers = sorted(cell_name(state.units[a].cell) for a, _ in state.combat[1])
    last = page.locator(".last-move")
    assert "The opponent strikes" in last.inner_text() and target in last.inner_text()
    marked = page.eval_on_selector_all(".board [data-cell]:has(.last-ring)", "cells => Object.fromEntries(cells.map("
                                       "c => [c.dataset.cell, c.querySelector('.last-tags').textContent.trim()]))")
    assert marked == {target: "target", **{cell: "from" for cell in attackers}}, marked
    said = page.locator(f'[data-cell="{target}"] > .visually-hidden').text_content()
    assert said.startswith("your ") and f"on {target}" in said and "the opponent's last action: its target" in said
    page.locator("#table-announce", has_text="The opponent's last action: The opponent strikes").wait_for(
        state="attached")  # the live region outside the swapped table
    assert axe_violations(page) == []  # the defence step

    # the block: an attacker picked on the board, then the defense it gets
    attacker = page.locator(f'[data-cell="{cell_name(state.units[defend[1]].cell)}"]')
    assert "target-defend" in attacker.get_attribute("class")
    before = log_length(page)
    attacker.locator("a.unit-face").click()
    page.locator(f'.unit-menu button[value="{encode(defend)}"]').click()
    wait_for_action(page, before)
    assert "You put" in page.locator(".log-lines").inner_text()
    after = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
    assert defend in after.history

    # conceding ends the game: lost, the seed revealed, only the game-over controls, its replay viewable
    page.locator(".concede summary").click()
    page.get_by_role("button", name="Concede the game").click()
    over = page.locator(".game-over")
    over.wait_for()
    assert "You lost" in over.inner_text() and "you conceded" in over.inner_text().lower()
    assert page.evaluate(CONTROLS) == ["Play again with this deck (new seed)", "Open the replay", "New game"]
    assert page.locator(".table-seed").count() == 1  # the game is over: its seed is revealed (DG-4.6)
    assert axe_violations(page) == []  # the game's end
    page.get_by_role("link", name="Open the replay").click()
    page.get_by_text("You conceded after").wait_for()


def test_the_ais_instant_in_its_defence_step_is_shown_as_it_happens(page, login, alice):
    login(alice)
    table = tables.table_create(owner=alice, deck_id=quick_deck(alice).pk, seed=ANSWERED_SEED,
                                opponent_deck_id=guarded_deck(alice).pk)
    plan = random.Random(ANSWERED_SEED)
    while len(table.actions) < ANSWERED_STRIKE:  # the turns before, played through the service to save time
        tables.table_act(table=table, action=attacking_step(tables.table_state(table), plan))
        table.refresh_from_db()
    state = tables.table_state(table)
    strike = attacking_step(state, plan)
    assert strike[0] == STRIKE
    page.goto(f"/playtest/tables/{table.pk}/")
    page.evaluate("localStorage.setItem('dreadgate.table.speed', '1500')")
    page.locator(f'.turn-bar button[value="{encode(strike)}"]').click()
    page.get_by_text("The opponent's actions, one by one").wait_for()  # its answer, before the table goes on
    answer = GoldfishTable.objects.get(pk=table.pk).actions[ANSWERED_STRIKE + 1]
    assert answer[0] == INSTANT, "the AI no longer answers this strike with an instant: find another seed"
    assert "You strike" in page.locator(".log-lines li").last.inner_text()  # first the strike itself
    seen = tables.steps_shown(tables.table_state(GoldfishTable.objects.get(pk=table.pk))).seen
    answered = sum(seen[:ANSWERED_STRIKE + 2])  # the step after its answer, as the person's steps count (DG-15.7)
    page.locator(f'#table[data-watch-step="{answered}"]').wait_for(state="attached")  # then its answer
    assert "The opponent plays" in page.locator(".log-lines li").last.inner_text()
    assert "as an instant" in page.locator(".log-lines li").last.inner_text()
    assert "as an instant" in page.locator(".last-move").inner_text()  # the step played out is the last action
    page.get_by_role("link", name="Skip to the end").click()
    page.locator("#table:not([data-watch-step])").wait_for(state="attached")


def test_at_1280_by_800_the_board_a_seven_card_hand_the_status_and_the_turn_bar_fit_one_screen(page, login, alice):
    login(alice)
    page.set_viewport_size({"width": 1280, "height": 800})
    open_seven(page, alice, SEVEN_SOUTH)
    assert off_screen(page) == []
    board = board_box(page)
    assert board["size"] >= 600, board  # the board takes the height left
    names = page.locator(".hand .hand-name").all_inner_texts()
    assert len(names) == 7 and all(names)  # each card's name, without hovering
    assert page.locator(".hand .hand-stats .stat").count() >= 7
    page.locator(".hand a.hand-card").first.click()  # selected: its cells light up where they were
    page.locator(".selection").first.wait_for()
    page.locator(".board button.cell-target").first.wait_for()
    page.mouse.move(0, 0)
    assert board_box(page) == board  # no jump: the board did not move, nor the page
    assert off_screen(page) == []
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []


def drawn_to(table, cards: int) -> GoldfishTable:
    """The hand kept, then cards drawn (the person's turns ended when no draw is left) until it holds `cards`."""
    me = tables.human_seat(tables.table_state(table))
    for _ in range(40):
        state = tables.table_state(table)
        if len(state.hand[me]) >= cards and state.active == me and state.phase == MAIN_PHASE:
            return table
        legal = state.legal_actions()
        action = next((a for a in legal if a[0] == KEEP), None) or next((a for a in legal if a[0] == DRAW), None) \
            or next((a for a in legal if a[0] in (END, PASS)), legal[0])
        tables.table_act(table=table, action=action)
        table.refresh_from_db()
    raise AssertionError(f"no hand of {cards} cards from this seed")


DESKTOPS = [(1280, 720), (1366, 768), (1280, 800), (1920, 1080)]
# What a player needs, each to be there: the board, the status and scores, the hand, both players' piles, the log
NEEDED = [".board", ".status-line", ".scores", ".play-hand", ".zones", ".zone-pile", ".log-lines"]
# In full view, never hidden in a region that scrolls: each player's piles and counts, the log's box, the controls
WHOLE = [".zone-player h3", ".zone-pile", ".log", ".all-actions > summary", ".command-box", ".table-controls > *",
         ".status-line", ".scores", ".turn-bar", ".board"]


def at_each_desktop(page, check) -> dict[tuple[int, int], list[str]]:
    """What `check(page, width, height)` finds at each of DESKTOPS, by window size; empty where all is well."""
    return {(width, height): found for width, height in DESKTOPS if (found := check(page, width, height))}


def below_the_fold(page, width: int, height: int) -> list[str]:
    """At this window, with the page at its top: what of the game lies outside the window (a box of the play area,
    or one of the parts a player needs, which must be there), unless it is inside a region that scrolls on its own
    (the hand, the zones, the log) whose box is in the window. The table's explanations under the play area (the
    legend, the intro, the fairness note) may be below."""
    page.set_viewport_size({"width": width, "height": height})
    page.mouse.move(0, 0)  # no card's large view
    page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate("""([needed, whole]) => {
      const [width, height] = [window.innerWidth, window.innerHeight];
      const problems = [];
      const out = (r) => r.top < -0.5 || r.left < -0.5 || r.bottom > height + 0.5 || r.right > width + 0.5;
      const at = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
      const scrolls = (e) => {  // a region that scrolls on its own: it clips what is in it, and can be scrolled
        const style = getComputedStyle(e);
        return (['auto', 'scroll'].includes(style.overflowY) && e.scrollHeight > e.clientHeight + 1)
          || (['auto', 'scroll'].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1);
      };
      const scroller = (e) => {
        for (let up = e.parentElement; up && !up.classList.contains('play-area'); up = up.parentElement)
          if (scrolls(up)) return up;
        return null;
      };
      const hidden = '.card-zoom, .visually-hidden, .icon-sprite, details:not([open]) > :not(summary)';
      const area = document.querySelector('#table .play-area');
      if (!area) return ['no play area'];
      if (out(area.getBoundingClientRect())) problems.push(`the play area at ${at(area.getBoundingClientRect())}`);
      for (const e of area.querySelectorAll('*')) {
        if (e.offsetParent === null || e.closest(hidden)) continue;
        const r = e.getBoundingClientRect();
        if (!r.width || !r.height || !out(r)) continue;
        const region = whole.some(sel => e.matches(sel)) ? null : scroller(e);
        if (region && !out(region.getBoundingClientRect())) continue;
        problems.push(`${e.tagName.toLowerCase()}.${e.className} at ${at(r)}`);
      }
      for (const e of area.querySelectorAll(whole.join(', '))) {  // in view, and not scrolled out of a region's box
        const [r, region] = [e.getBoundingClientRect(), scroller(e)];
        const box = region && region.getBoundingClientRect();
        if (box && (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5
                    || r.right > box.right + 0.5))
          problems.push(`${e.tagName.toLowerCase()}.${e.className} at ${at(r)}, hidden in its region at ${at(box)}`);
      }
      for (const sel of needed) if (!area.querySelector(sel)) problems.push(`no ${sel}`);
      if (document.querySelectorAll('#table .zone-player').length !== 2) problems.push("not both players' zones");
      return [...new Set(problems)].slice(0, 15);
    }""", [NEEDED, WHOLE])


def test_at_the_start_the_whole_game_fits_each_desktop_screen(page, login, alice):
    """The opening hand, its question, both players' piles, the log and the command box, without scrolling."""
    login(alice)
    open_table(page, alice)
    assert at_each_desktop(page, below_the_fold) == {}
    keep(page)
    assert at_each_desktop(page, below_the_fold) == {}
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []


def test_mid_game_a_full_hand_units_on_the_board_and_a_selection_fit_each_desktop_screen(page, login, alice):
    login(alice)
    table = drawn_to(with_units(tables.table_create(owner=alice, deck_id=starter_deck(alice).pk,
                                                    seed=SEVEN_SOUTH), 2), 11)
    page.goto(f"/playtest/tables/{table.pk}/")
    assert page.locator(".board .unit-tile").count() >= 2 and page.locator(".hand .hand-tile").count() >= 10
    assert at_each_desktop(page, below_the_fold) == {}
    page.set_viewport_size({"width": 1280, "height": 720})
    board = board_box(page)
    page.locator(".hand a.hand-card").last.click()  # its box under the hand, the hand and the board where they were
    page.locator(".selection").first.wait_for()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    page.mouse.move(0, 0)
    assert board_box(page) == board
    assert page.evaluate("""() => {  // the card chosen is in the hand's view, scrolled to if the hand scrolls
      const [hand, card] = [document.querySelector('.hand'), document.querySelector('.hand-card.selected')];
      const [outer, inner] = [hand.getBoundingClientRect(), card.getBoundingClientRect()];
      return inner.top >= outer.top - 0.5 && inner.bottom <= outer.bottom + 0.5 && inner.bottom <= innerHeight;
    }""")
    assert at_each_desktop(page, below_the_fold) == {}
    page.locator(".all-actions > summary").click()  # all the legal actions open: a list that scrolls, in view
    assert at_each_desktop(page, below_the_fold) == {}
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []


def test_after_the_game_its_end_the_board_and_the_zones_fit_each_desktop_screen(page, login, alice):
    login(alice)
    table = finish(open_table(page, alice))
    page.goto(f"/playtest/tables/{table.pk}/")
    page.locator(".game-over").wait_for()
    assert at_each_desktop(page, below_the_fold) == {}
    assert axe_violations(page) == []


@pytest.mark.parametrize("width, cards", [(1024, 10), (1366, 12)])
def test_at_768_high_a_large_hand_the_board_the_status_and_the_turn_bar_fit_one_screen(page, login, alice, width,
                                                                                       cards):
    login(alice)
    page.set_viewport_size({"width": width, "height": 768})
    table = drawn_to(tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=SEVEN_SOUTH), cards)
    page.goto(f"/playtest/tables/{table.pk}/")
    page.mouse.move(0, 0)
    assert off_screen(page) == []
    page.locator(".hand a.hand-card").last.click()  # a card chosen: what it may do is in view too
    page.locator(".selection").first.wait_for()
    settled(page)  # the settling may bring the selection into view: measured once it has, not while it does
    page.mouse.move(0, 0)
    assert off_screen(page) == []
    assert overlaps_and_overflows(page) == []


def test_on_a_phone_the_hand_is_a_strip_under_a_board_as_wide_as_the_screen(page, login, alice):
    login(alice)
    page.set_viewport_size({"width": 390, "height": 844})
    open_seven(page, alice, SEVEN_SOUTH)
    board, hand = page.locator(".board").bounding_box(), page.locator(".hand").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 390 and board["width"] >= 340
    assert hand["y"] >= board["y"] + board["height"]  # under the board
    tops = {round(box["y"]) for box in (t.bounding_box() for t in page.locator(".hand .hand-tile").all())}
    assert len(tops) == 1  # one row...
    assert page.locator(".hand").evaluate("h => h.scrollWidth > h.clientWidth")  # ...that scrolls sideways
    last = page.locator(".hand a.hand-card").last
    last.scroll_into_view_if_needed()
    strip = page.locator(".hand").evaluate("h => h.scrollLeft")
    before = board_box(page)
    last.click()
    page.locator(".selection").first.wait_for()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    after = board_box(page)  # the page may scroll to the selection's box (a card that lights no cell), no more:
    assert (after["top"] + after["scroll"], after["left"], after["size"]) == (  # the board stays where it was
        before["top"] + before["scroll"], before["left"], before["size"])
    assert page.locator(".hand").evaluate("h => h.scrollLeft") == strip  # and the strip, on the card chosen
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []


def test_on_a_phone_the_board_and_the_hand_under_it_are_in_view_without_scrolling(page, login, alice):
    """375 by 812 (a common phone): the site's header takes two rows, the title one line, so the board and the whole
    strip of the hand fit the screen as the page opens (the hand began 33 px below it)."""
    login(alice)
    page.set_viewport_size({"width": 375, "height": 812})
    open_seven(page, alice, SEVEN_SOUTH)
    assert page.evaluate("window.scrollY") == 0
    header, board, tile = (page.locator(sel).first.bounding_box() for sel in (".site-header", ".board",
                                                                              ".hand .hand-tile"))
    assert header["height"] < 90
    assert board["y"] >= 0 and tile["y"] >= board["y"] + board["height"]
    assert tile["y"] + tile["height"] <= 812  # the hand's cards, whole (the strip scrolls sideways to the others)
    nav = page.locator(".site-nav ul:not(.account)")
    assert nav.evaluate("n => getComputedStyle(n).overflowX") == "auto"  # one row, which scrolls sideways
    widths = nav.evaluate("n => [n.scrollWidth, n.clientWidth]")
    assert widths[0] <= widths[1], f"the last section is cut off at 375 px: {widths}"  # "Rules" was
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert axe_violations(page) == []


def test_the_person_sits_at_the_bottom_when_the_rules_seat_them_north(page, login, alice):
    """DG-4.3 gives the first player the South seat: the person who plays second is North, and still sees the
    board from their side, their units marked as theirs, their zones and score first."""
    login(alice)
    table = open_table(page, alice, seed=NORTH_SEED)
    assert tables.human_seat(tables.table_state(table)) == 1, "the person is no longer North from this seed"
    keep(page)
    assert "you are North" in page.locator(".status-line").inner_text()
    rows = page.eval_on_selector_all(".board .board-row", "rows => rows.map(r => [...r.querySelectorAll("
                                     "'[data-cell]')].map(c => c.dataset.cell).join(' '))")
    assert rows[-1] == "e5 d5 c5 b5 a5" and rows[0] == "e1 d1 c1 b1 a1"  # North's back rank at the bottom
    assert "your side (North) at the bottom" in page.locator(".board").get_attribute("aria-label")
    page.locator(f'.hand a.hand-card[href="?sel=h{a_unit_in_hand(table)}"]').click()
    page.locator(".board button.cell-target").first.wait_for()
    lit = page.eval_on_selector_all(".board .cell-target.target-deploy", "b => b.map(x => x.closest('[data-cell]')"
                                    ".dataset.cell)")
    assert lit and all(cell.endswith("5") for cell in lit)
    page.locator('[data-cell="c5"] .cell-target').click()
    mine = page.locator('[data-cell="c5"] .unit-tile')
    mine.wait_for()
    assert "side-near" in mine.get_attribute("class")  # drawn as the near side's, as South's units are for South
    assert mine.locator(".unit-side").inner_text() == "You"
    assert page.locator('[data-cell="c5"] > .visually-hidden').text_content().startswith("your ")  # said in words
    page.get_by_role("button", name="End your turn", exact=True).click()  # the opponent deploys the dummy on b1
    dummy = page.locator('[data-cell="b1"] .unit-tile')
    dummy.wait_for()
    assert "side-far" in dummy.get_attribute("class") and dummy.locator(".unit-side").inner_text() == "Opp"
    assert page.locator(".scores .score").first.inner_text().startswith("You (North)")
    assert page.locator(".zone-player h3").all_inner_texts() == ["You (North)", "Opponent (South)"]
    page.get_by_role("link", name="Replay so far").click()  # the replay, too, from the person's side
    page.locator(".board").wait_for()
    assert page.locator(".board .board-row").last.locator("[data-cell]").first.get_attribute("data-cell") == "e5"


def finish(table) -> GoldfishTable:
    """The Quick plan played through the service to its win."""
    table.refresh_from_db()
    me, done = tables.human_seat(tables.table_state(table)), set()
    for _ in range(120):
        state = tables.table_state(table)
        if state.is_over():
            break
        action = next_step(state, me, done)
        done.add(kind_of_step(state, action))
        tables.table_act(table=table, action=action)
        table.refresh_from_db()
    assert tables.table_state(table).is_over()
    return table


CONTROLS = """() => [...document.querySelectorAll(
  ['button', 'a.button', 'input:not([type=hidden])', 'select', 'summary'].map(s => `#table ${s}`).join(', '))]
  .filter(e => e.offsetParent !== null).map(e => e.textContent.trim())"""


@pytest.mark.parametrize("width", [1280, 390])
def test_after_the_game_only_play_again_the_replay_and_a_new_game_are_offered(page, login, alice, width):
    login(alice)
    page.set_viewport_size({"width": width, "height": 800})
    table = finish(open_table(page, alice))
    page.reload()
    page.locator(".game-over").wait_for()
    assert page.evaluate(CONTROLS) == ["Play again with this deck (new seed)", "Open the replay", "New game"]
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []
    # a request the finished game no longer allows, sent anyway: refused in place, the page as it was
    page.evaluate("url => htmx.ajax('POST', url, {source: '#act-form', target: '#table', swap: 'outerHTML'})",
                  f"/playtest/tables/{table.pk}/ai-turn/")
    refusal = page.locator(".refusal")
    refusal.wait_for()
    assert "the game is over" in refusal.inner_text() and "rule DG-1.2" in refusal.inner_text()
    assert_styled(page)


def assert_styled(page) -> None:
    """The table is there with its stylesheet: the board a grid of square cells, the faces small."""
    assert page.locator("#table .board").count() == 1
    assert page.evaluate("getComputedStyle(document.querySelector('#table .board')).display") == "grid"
    assert all(box["width"] < 200 for box in (face.bounding_box() for face in page.locator("#table .face").all()
                                                if face.is_visible()))


@pytest.mark.parametrize("status", [400, 429, 500])
def test_an_answer_in_error_that_is_no_table_leaves_the_table_styled_with_its_message(page, login, alice, status):
    """The site's error page (a request throttled, a body too large, a server error) is not the table: it is not
    swapped in for it; the table stays, styled, and says what happened."""
    from django.template.loader import render_to_string

    login(alice)
    open_table(page, alice)
    keep(page)
    message = "Too many requests like this one; try again in 7 seconds."
    body = render_to_string("error.html", {"status": status, "message": message})
    page.route("**/ai-turn/", lambda route: route.fulfill(status=status, body=body, content_type="text/html"))
    before = board_units(page)
    page.get_by_role("button", name="Let the AI play this turn").click()
    refusal = page.locator(".refusal[role=alert]")
    refusal.wait_for()
    assert message in refusal.inner_text()
    assert_styled(page)
    assert board_units(page) == before and page.title().startswith("Goldfish table")
    assert page.locator(".hand a.hand-card").count()  # and it plays on
    page.unroute("**/ai-turn/")
    page.locator(".hand a.hand-card").first.click()
    page.locator(".selection").first.wait_for()
    assert not page.locator(".refusal").count()


def lose_the_connection(page, table, answer):
    """Route the table's requests to `answer` (the server gone), click a card of the hand, and see the banner
    say so once; returns the route's matcher (to take it off) and the banner."""

    def to_the_table(url: str) -> bool:
        return f"/playtest/tables/{table.pk}/" in url

    page.route(to_the_table, answer)
    page.locator(".hand a.hand-card").first.click()
    banner = page.locator("#connection")
    banner.wait_for()
    assert "Connection lost, retrying" in banner.inner_text()
    return to_the_table, banner


def test_a_lost_connection_is_said_once_retried_with_a_back_off_and_recovered_then_a_lost_session_logs_in_again(
        page, login, alice):
    """The server can't be reached: the page says so once, sends nothing the person clicks meanwhile, tries again
    after waits that double (here from 0.3 s; 2 s on the page, up to 30 s), and once the server answers takes the
    live table back by itself. Then the session ends: the next request opens the login page, as a page."""
    login(alice)
    table = open_table(page, alice)
    keep(page)
    page.evaluate("document.querySelector('#connection').dataset.retryFirst = '300'")  # the same back-off, quicker
    sent: list[float] = []
    urls: list[str] = []

    def down(route):
        sent.append(time.monotonic())
        urls.append(route.request.url)
        route.abort("connectionrefused")

    before = board_units(page)
    to_the_table, banner = lose_the_connection(page, table, down)
    held = page.locator(".hand a.hand-card").last
    held.click()  # held back: the retry is the only request while offline
    for _ in range(50):  # the click, then tries after 0.3 and 0.6 s more (later on a busy machine, never sooner)
        if len(sent) >= 3:
            break
        page.wait_for_timeout(100)
    gaps = [later - earlier for earlier, later in itertools.pairwise(sent[:3])]
    assert len(gaps) == 2, sent
    assert not [url for url in urls if url.endswith(held.get_attribute("href"))], urls  # the held click: not sent
    # each wait doubles: a try never comes sooner than its wait, and the second wait is longer than the first by
    # about the first (a failed request's own time, longer on a busy machine, is in both gaps and mostly cancels
    # out: a loaded run measured 0.44 and 0.61; a wait that did not double would leave them about equal)
    assert gaps[0] >= 0.29 and gaps[1] >= 0.59 and gaps[1] - gaps[0] >= 0.1, gaps
    assert page.locator("#connection:visible").count() == 1 and page.locator(".refusal").count() == 0  # said once
    assert board_units(page) == before
    page.unroute(to_the_table)  # the server is back: the next try finds it
    banner.wait_for(state="hidden", timeout=10_000)
    page.locator("#table-announce", has_text="Connection restored").wait_for(state="attached")
    page.locator(".hand a.hand-card").first.click()  # and the table plays on
    page.locator(".selection").first.wait_for()

    # a request answered by the login page (the session has ended) opens that page in place of the table
    page.context.clear_cookies()
    page.locator(".hand a.hand-card").first.click()
    page.wait_for_url("**/accounts/login/**")
    assert page.locator("#table").count() == 0 and page.locator("form input[type=password]").count() == 1


@pytest.mark.parametrize("status", [502, 503, 504])
def test_a_proxy_answering_for_a_server_that_is_down_is_a_lost_connection_not_a_page(page, login, alice, status):
    """A 502 to 504 from the proxy in front (its own page, not the table) means the server is gone: the same
    banner as an unreachable server, the board kept, no error page swapped in, and the table back by itself once
    the server answers."""
    login(alice)
    table = open_table(page, alice)
    keep(page)
    page.evaluate("document.querySelector('#connection').dataset.retryFirst = '300'")
    answered: list[int] = []

    def proxy(route):
        answered.append(status)
        route.fulfill(status=status, body="<html><body><h1>Bad Gateway</h1></body></html>", content_type="text/html")

    before = board_units(page)
    to_the_table, banner = lose_the_connection(page, table, proxy)
    for _ in range(50):  # a try after 0.3 s more, still answered by the proxy (seconds on a loaded machine)
        if len(answered) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(answered) >= 2 and board_units(page) == before and "Bad Gateway" not in page.content()
    page.unroute(to_the_table)  # the server is back
    banner.wait_for(state="hidden", timeout=10_000)
    page.locator("#table-announce", has_text="Connection restored").wait_for(state="attached")


def test_the_waits_between_tries_stop_growing_at_30_seconds(page, login, alice):
    """The back-off doubles from the banner's first wait and is capped at 30 s (at most 2 requests a minute once
    it has grown): the waits the page schedules, read from its timers."""
    login(alice)
    table = open_table(page, alice)
    keep(page)
    page.evaluate("""() => {
      window.__waits = [];
      const schedule = window.setTimeout;
      window.setTimeout = (callback, wait, ...rest) => {
        window.__waits.push(wait);
        return schedule(callback, 0, ...rest);
      };
    }""")  # every timer runs at once, its wait recorded: the tries follow each other without waiting
    page.route(lambda url: f"/playtest/tables/{table.pk}/" in url, lambda route: route.abort("connectionrefused"))
    page.locator(".hand a.hand-card").first.click()
    page.locator("#connection").wait_for()
    page.wait_for_function("() => window.__waits.filter(w => w >= 2000).length >= 7", timeout=15_000)
    waits = [w for w in page.evaluate("window.__waits") if w >= 2000][:7]
    assert waits == [2000, 4000, 8000, 16000, 30000, 30000, 30000], waits


@pytest.mark.parametrize("width", [1280, 390])
def test_the_table_and_its_replay_are_clean_for_axe_and_nothing_overflows(page, login, alice, width):
    login(alice)
    page.set_viewport_size({"width": width, "height": 900})
    table = open_table(page, alice)
    keep(page)
    page.locator(f'.hand a.hand-card[href="?sel=h{a_unit_in_hand(table)}"]').click()  # lit cells and a menu
    page.locator(".board button.cell-target").first.wait_for()
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []
    page.locator(".board button.cell-target").first.click()  # a unit on the board, with its stats and badges
    page.locator(".unit-tile").first.wait_for()
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []
    page.goto(f"/playtest/tables/{table.pk}/replay/")
    page.locator(".board").wait_for()
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []


def replay_off_screen(page, width: int, height: int) -> list[str]:
    """At this window, with the page at its top: the replay's board (every cell), its steps' controls and its status,
    whichever is not in full view."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate("""() => [...document.querySelectorAll(
        '#replay .board, #replay .board .cell, #replay .replay-nav > *, #replay .status-line, #replay .scores')]
      .map(e => [e, e.getBoundingClientRect()])
      .filter(([e, r]) => r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
      .map(([e, r]) => `${e.className || e.tagName} ${e.dataset.cell || ''} at ${[r.left, r.top, r.right, r.bottom]
        .map(Math.round).join(',')}`)""")


def test_the_replay_shows_its_whole_board_on_each_desktop_screen(page, login, alice):
    """While the game runs (with its notice that the opponent's cards are hidden) and after it, at its start, in its
    middle and at its end: the steps' controls, the status and the whole board, its bottom rows too, without
    scrolling."""
    login(alice)
    table = open_table(page, alice)
    page.goto(f"/playtest/tables/{table.pk}/replay/")
    page.get_by_text("The game is still running").wait_for()
    assert at_each_desktop(page, replay_off_screen) == {}
    finish(table)
    for step in (0, 30, "end"):
        page.goto(f"/playtest/tables/{table.pk}/replay/?step={step}" if step != "end" else
                  f"/playtest/tables/{table.pk}/replay/")
        page.locator("#replay .board").wait_for()
        if step == "end":
            page.locator('[data-control="end"]').click()
            page.locator("#replay .result-line").first.wait_for()
        assert at_each_desktop(page, replay_off_screen) == {}, step
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []


def overlaps_and_overflows(page) -> list[str]:
    """Boxes that leave the page sideways (but inside a strip that scrolls sideways itself, within the page), and
    board cells, hand cards or controls that overlap each other."""
    return page.evaluate("""() => {
      const problems = [];
      const width = document.documentElement.clientWidth;
      const scrolled = document.documentElement.scrollWidth;
      if (scrolled > width) problems.push(`page scrolls sideways: ${scrolled} > ${width}`);
      const boxes = (sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent !== null)
        .map(e => [e, e.getBoundingClientRect()]);
      const inStrip = (e) => {
        for (let up = e.parentElement; up && up.tagName !== 'MAIN'; up = up.parentElement) {
          const r = up.getBoundingClientRect();
          if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX) && r.left >= -1 && r.right <= width + 1)
            return true;
        }
        return false;
      };
      for (const [e, r] of boxes('main *')) {
        if (r.width && (r.right > width + 1 || r.left < -1) && !e.closest('.card-zoom, .visually-hidden, .icon-sprite')
            && !inStrip(e))
          problems.push(`${e.tagName}.${e.className} at ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
      const groups = ['.board .cell', '.hand .hand-tile', '.table-controls > *', '.turn-bar > *', '.replay-nav > *',
                      '.zone-player'];
      for (const sel of groups) {
        const list = boxes(sel);
        for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) {
          const [a, b] = [list[i][1], list[j][1]];
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
            problems.push(`${sel} ${i} overlaps ${j}`);
        }
      }
      for (const [e, r] of boxes('.cell-name, .unit-stats, .cell-target, .hand-name')) {
        if (e.scrollWidth > e.clientWidth + 1) problems.push(`${e.className} text spills: ${e.textContent.trim()}`);
      }
      return problems.slice(0, 20);
    }""")


def parts_at(page) -> dict:
    """Where the board, the person's home row (the board's last row) and the hand's first card are on the screen."""
    return page.evaluate("""() => Object.fromEntries([['board', '#table .board'],
        ['home', '#table .board .board-row:last-child'], ['hand', '#table .hand .hand-tile']].map(([name, sel]) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return [name, {top: Math.round(r.top), bottom: Math.round(r.bottom)}];
    }))""")


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 720)])
def test_while_the_opponents_actions_play_out_the_board_and_the_hand_stay_where_they_were(page, login, alice, width,
                                                                                          height):
    """The playback's words, its speed and its skip take the turn bar's place, as compact: they push neither the
    board (with the person's home row) nor the hand down the screen."""
    page.set_viewport_size({"width": width, "height": height})
    open_ai_table(page, login, alice, starter_deck(alice), speed=1500)
    keep(page)
    page.get_by_role("link", name="Skip to the end").click()
    page.locator("#table[data-decision='turn']:not([data-watch-step])").wait_for(state="attached")
    page.mouse.move(0, 0)
    before = parts_at(page)
    page.get_by_role("button", name="End your turn", exact=True).click()
    page.locator("#table[data-watch-step]").wait_for(state="attached")
    page.locator(".playback-speed").wait_for()
    page.mouse.move(0, 0)
    during = parts_at(page)
    assert during == before, (before, during)
    for part in during.values():
        assert 0 <= part["top"] and part["bottom"] <= height  # the home row and the hand's cards still in view
    assert page.evaluate("""() => {  // over the site's header, above the title: over nothing of the game
      const bar = document.querySelector('.playback').getBoundingClientRect();
      return [...document.querySelectorAll('#table .play-area > *, #table .status-line, #table .last-move')]
        .filter(e => e.offsetParent !== null && !e.contains(document.querySelector('.playback')))
        .map(e => e.getBoundingClientRect()).every(r => r.top >= bar.bottom - 0.5)
        && bar.bottom <= document.querySelector('h1.table-title').getBoundingClientRect().top + 0.5;
    }""")
    speed = page.locator(".playback-speed").bounding_box()
    assert speed["width"] < width / 2  # a compact menu beside the words, not a line of its own
    assert axe_violations(page) == []
    assert overlaps_and_overflows(page) == []


def test_the_ais_turn_after_a_keyboard_end_of_turn_never_leaves_the_focus_on_the_opponents_units(page, login, alice):
    table = open_ai_table(page, login, alice, starter_deck(alice), speed=150)
    keep(page, by_keyboard=True)
    end = page.get_by_role("button", name="End your turn", exact=True)
    end.wait_for()
    page.locator("#table:not([data-watch-step]):not([data-play-from])").wait_for(state="attached")
    turn = tables.table_state(GoldfishTable.objects.get(pk=table.pk)).turn
    end.focus()
    page.keyboard.press("Enter")
    on_board = set()
    for _ in range(100):  # the AI's actions play out, one table a step, then the live table
        on_board.add(page.evaluate("Boolean(document.activeElement.closest('#table .board'))"))
        state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
        if state.turn > turn + 1 or state.winner >= 0:
            if page.locator("#table:not([data-watch-step]):not([data-play-from])").count():
                break
        page.wait_for_timeout(100)
    wait_for_focus_in_table(page)
    on_board.add(page.evaluate("Boolean(document.activeElement.closest('#table .board'))"))
    assert on_board == {False}, page.evaluate("document.activeElement.outerHTML.slice(0, 200)")


def settled_decision(page, decision: str) -> None:
    """The live table asks the person for `decision` (its actions played out), and its swap has settled."""
    page.locator(f'#table[data-decision="{decision}"]:not([data-watch-step]):not([data-play-from])').wait_for(
        state="attached", timeout=20_000)
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    wait_for_focus_in_table(page)


def covers(page, over: str, under: str) -> bool:
    return page.evaluate("""([over, under]) => {
      const [a, b] = [over, under].map((sel) => document.querySelector(sel).getBoundingClientRect());
      return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }""", [over, under])


def test_after_the_ais_turn_the_focus_is_on_the_decision_it_leaves_not_on_a_hand_card(page, login, alice):
    """The person ends their turn by keyboard; the AI's turn plays out and ends in the person's response window. The
    focus went to the first card of the hand (one that can't be played, its large view over the status line and the
    opponent's last action), some 31 Tabs from letting the action stand. It is on the window's first answer; in the
    person's own turn, on the status line, the turn's buttons the next Tab; a card's large view covers neither."""
    login(alice)
    page.set_viewport_size({"width": 1366, "height": 768})
    opponent = starter_deck(alice, craft="champion", name="The AI's deck")
    table = tables.table_create(owner=alice, deck_id=guarded_deck(alice).pk, seed=1, opponent_deck_id=opponent.pk)
    me = tables.human_seat(tables.table_state(table))
    for _ in range(40):  # through the service: to a window the AI's actions leave after the person's end of turn
        state = tables.table_state(table)
        step = waiting_step(state)
        tables.table_act(table=table, action=step)
        table.refresh_from_db()
        after = tables.table_state(table)
        if step[0] == END and after.current_player == me and after.phase == RESPONSE_PHASE \
                and table_view(after, CardFaces({}))["window"] == "action":
            break
    else:
        raise AssertionError("the AI's turn never ends in the person's window from this seed")
    tables.table_undo(table=table)  # back to the person's turn, before its end: the AI plays the same again
    page.goto(f"/playtest/tables/{table.pk}/")
    page.evaluate("localStorage.setItem('dreadgate.table.speed', '150')")
    end = page.get_by_role("button", name="End your turn", exact=True)
    end.focus()
    page.keyboard.press("Enter")
    settled_decision(page, "answer")
    assert page.evaluate("document.activeElement === document.querySelector('#table .turn-bar .bar-action')"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
    tab_to(page, ".bar-action[value='8,0,0']", limit=len(page.locator(".turn-bar .bar-action").all()))  # pass
    assert "Let it stand" in page.evaluate("document.activeElement.textContent")
    page.locator(".hand span.hand-card").first.focus()  # a card that can't be played now shows its large view
    zoom = page.locator(".hand span.hand-card:focus ~ .card-zoom")
    zoom.wait_for()
    assert not covers(page, ".hand-tile:has(span.hand-card:focus) .card-zoom", ".status-line")
    assert not covers(page, ".hand-tile:has(span.hand-card:focus) .card-zoom", ".last-move")
    tab_to(page, ".bar-action[value='8,0,0']")
    for _ in range(10):  # let the AI's actions stand, to the person's own turn
        page.keyboard.press("Enter")
        page.wait_for_function("() => !document.querySelector('#table .bar-action[value=\"8,0,0\"]:focus')")
        page.locator("#table:not([data-watch-step]):not([data-play-from])[data-decision]").wait_for(
            state="attached", timeout=20_000)
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        wait_for_focus_in_table(page)
        if page.locator("#table[data-decision='turn']").count():
            break
        assert page.evaluate("document.activeElement === document.querySelector('#table .turn-bar .bar-action')")
        tab_to(page, ".bar-action[value='8,0,0']")
    assert page.evaluate("document.activeElement.matches('.turn-status')"), \
        page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
    page.keyboard.press("Tab")
    assert page.evaluate("Boolean(document.activeElement.closest('.turn-bar'))")  # the turn's buttons next


def test_escape_pressed_while_another_card_is_being_selected_clears_the_selection_without_an_error(page, login, alice):
    """The newest ask wins: Escape's clearing was dropped by htmx while the selection was on its way (a rejected
    promise the page did not catch), and the selection landed after it."""
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    login(alice)
    open_table(page, alice)
    keep(page, by_keyboard=True)
    cards = page.locator(".hand a.hand-card")
    cards.first.focus()
    page.keyboard.press("Enter")
    page.locator(".selection").wait_for()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 800, "downloadThroughput": -1,
                                                  "uploadThroughput": -1})
    page.locator(".hand a.hand-card:not(.selected)").first.focus()
    page.keyboard.press("Enter")  # another card's selection, on its way
    page.keyboard.press("Escape")  # and the player changes their mind
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    page.wait_for_timeout(1_000)  # past the latency of any answer still on its way
    assert page.locator(".selection").count() == 0 and errors == []


def a_card_only_recycled(alice) -> tuple[GoldfishTable, int, int]:
    """A table after the keep, in the person's main phase, with a card in hand that can only be recycled now (it
    costs more than the person has): the table, the card's definition index, and the size of the hand."""
    for seed in range(1, 40):
        table = tables.table_create(owner=alice, deck_id=quick_deck(alice).pk, seed=seed)
        state = tables.table_state(table)
        if (KEEP, 0, 0) not in state.legal_actions():
            continue
        tables.table_act(table=table, action=(KEEP, 0, 0))
        state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
        me = tables.human_seat(state)
        if state.current_player != me or state.phase != MAIN_PHASE:
            continue
        hand_kinds: dict[int, set[int]] = {}
        for kind, a, _ in state.legal_actions():
            if kind in (DEPLOY, EQUIP, PLAY, RECYCLE):
                hand_kinds.setdefault(a, set()).add(kind)
        only = next((d for d, kinds in hand_kinds.items() if kinds == {RECYCLE}), None)
        if only is not None:
            break
    else:
        raise AssertionError("no seed gives a hand card that can only be recycled")
    return table, only, len(state.hand[me])


def test_a_card_only_recycled_now_is_selected_without_putting_the_focus_on_recycle(page, login, alice):
    """Enter on a card that can't be played put the focus on its Recycle button: a second Enter threw it away."""
    login(alice)
    table, only, hand = a_card_only_recycled(alice)
    me = tables.human_seat(tables.table_state(table))
    page.goto(f"/playtest/tables/{table.pk}/")
    page.wait_for_function("() => window.htmx !== undefined")
    page.locator(f'.hand a.hand-card[data-key="h{only}"]').focus()
    page.keyboard.press("Enter")
    page.locator(".selection").wait_for()
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    page.wait_for_function("() => document.activeElement.matches('.hand-card.selected')")
    page.keyboard.press("Enter")  # the same key again: the selection cleared, the card kept
    page.locator(".selection").wait_for(state="detached")
    after = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
    assert len(after.hand[me]) == hand


IN_VIEW = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight + 0.5; }"""


@pytest.mark.parametrize("width, height", [(390, 844), (360, 740)])
def test_on_a_phone_a_tapped_cards_box_comes_into_view_with_why_it_cant_be_played(phone_page, live_server, alice,
                                                                                  width, height):
    """A tap on a card that can't be played now put its box ("It cannot be played now: costs 3; you have 2 points",
    and Recycle) under the hand, below the screen (836 to 1046 px on a 390×844 screen): the tap showed an outline
    only. The box comes into view, and the card tapped stays in view above it."""
    table, only, _ = a_card_only_recycled(alice)
    phone_login(phone_page, live_server, alice)
    phone_page.set_viewport_size({"width": width, "height": height})
    phone_page.goto(f"/playtest/tables/{table.pk}/")
    phone_page.wait_for_function("() => window.htmx !== undefined")
    card = f'.hand a.hand-card[data-key="h{only}"]'
    phone_page.locator(card).tap()
    phone_page.locator(".selection", has_text="It cannot be played now").wait_for()
    phone_page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    assert phone_page.evaluate(IN_VIEW, ".play-choice .selection"), phone_page.evaluate(
        "document.querySelector('.play-choice .selection').getBoundingClientRect().toJSON()")
    assert phone_page.evaluate(IN_VIEW, ".menu-action[data-recycles]")
    assert phone_page.evaluate(IN_VIEW, ".hand a.hand-card.selected")


def test_on_a_phone_the_opening_hand_is_in_view_while_it_is_kept_or_mulliganed(phone_page, live_server, alice):
    """At 360×740 the opening hand was under the board, below the screen, while the person decided whether to keep
    it. While the question is asked the hand comes before the (empty) board: the hand and the question in view."""
    table = tables.table_create(owner=alice, deck_id=quick_deck(alice).pk, seed=SEED)
    phone_login(phone_page, live_server, alice)
    phone_page.goto(f"/playtest/tables/{table.pk}/")
    phone_page.get_by_role("button", name="Keep your hand").wait_for()
    assert phone_page.evaluate(IN_VIEW, ".turn-bar")
    assert phone_page.evaluate(IN_VIEW, "#hand-h") and phone_page.evaluate(IN_VIEW, ".hand .hand-tile")
    assert axe_violations(phone_page) == []
    phone_page.get_by_role("button", name="Keep your hand").tap()  # kept: the board before the hand again
    phone_page.locator(".log-lines li", has_text="You keep your hand").wait_for()
    assert phone_page.evaluate("""() => document.querySelector('.board').getBoundingClientRect().bottom
      <= document.querySelector('.hand').getBoundingClientRect().top""")
