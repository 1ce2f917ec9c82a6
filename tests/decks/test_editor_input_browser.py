"""The deck editor never loses input, in headless Chromium: clicks at any speed land once and in order, Enter
adds the first result of the query as typed, a refused change says why and puts the count back, quick add
builds a deck from typed lines, and undo and redo take back and replay the page's own changes."""

from __future__ import annotations

import pytest

from cards.models import Card
from decks.models import Deck
from decks.selectors import deck_entries
from decks.services import deck_create
from tests.support import live_db

from .factories import entries_of, make_user
from .quick_typing import type_card
from .test_editor_browser import log_in

pytestmark = [pytest.mark.browser, live_db]
COPY_LIMIT = 4  # DC-5


def units(n: int) -> list[Card]:
    return list(Card.objects.filter(type="unit", is_unique=False).order_by("name")[:n])


def open_deck(page, user, entries=()):
    deck = deck_create(owner=user, name="Input", entries=entries_of(*entries))
    log_in(page, user.username)
    page.goto(f"/decks/{deck.pk}/edit/")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    return deck


def all_saved(page):
    page.locator('#queue-status[data-queue="0"]:is([data-state="saved"], [data-state="failed"])').wait_for()
    page.wait_for_function("() => !document.querySelector('#panel li.pending')")


def saved_counts(deck) -> dict[str, int]:
    return {e.card.collector_number: e.count for e in deck_entries(Deck.objects.get(pk=deck.pk))}


def shown_counts(page) -> dict[str, int]:
    return {number: int(value) for number, value in page.eval_on_selector_all(
        "#panel li[data-card] input.count", "inputs => inputs.map(i => [i.dataset.card, i.value])")}


def answer_tag(page, name: str):
    """Type a tag into the editor's tag dialog and save it."""
    dialog = page.locator("#tag-dialog[open]")
    dialog.locator("#tag-name").fill(name)
    dialog.get_by_role("button", name="Save the tag").click()


def drag_by_band(page, card, target):
    """Drags a stacked pile card by its name band, the part the next card leaves showing. A focused face is raised
    over its neighbours' bands, so focus leaves the piles first, as a pointer player's does."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.locator(f'#piles li[data-card="{card.collector_number}"]').drag_to(target, source_position={"x": 30, "y": 12})


def test_twenty_interleaved_clicks_50_ms_apart_give_exactly_the_expected_counts(page):
    cards = units(4)
    deck = open_deck(page, make_user(), [(c, 2) for c in cards])
    # Order matters: a "+" past the copy limit is refused, so the same clicks in another order end elsewhere.
    clicks = [(0, 1), (1, -1), (0, 1), (2, 1), (0, 1), (3, -1), (0, -1), (2, 1), (1, 1), (2, 1),
              (3, 1), (0, -1), (2, -1), (1, 1), (3, 1), (1, 1), (2, 1), (3, -1), (1, 1), (0, 1)]
    expected = {c.collector_number: 2 for c in cards}
    for which, delta in clicks:
        number = cards[which].collector_number
        expected[number] = min(max(expected[number] + delta, 0), COPY_LIMIT)
        page.locator(f'#panel li[data-card="{number}"] button[data-delta="{delta}"]').click(timeout=2000)
        page.wait_for_timeout(50)
    all_saved(page)
    assert shown_counts(page) == expected
    assert saved_counts(deck) == expected


def test_fast_clicks_past_the_copy_limit_never_show_more_copies_than_it_allows(page):
    card, = units(1)
    deck = open_deck(page, make_user(), [(card, 2)])
    row = page.locator(f'#panel li[data-card="{card.collector_number}"]')
    # The most copies the row's box shows at any moment while the clicks are saved, sampled every 5 ms.
    page.evaluate("""number => { window.mostShown = 0; setInterval(() => {
        const box = document.querySelector(`#panel li[data-card="${number}"] input.count`);
        if (box) { window.mostShown = Math.max(window.mostShown, Number(box.value)); } }, 5); }""",
                  card.collector_number)
    for _ in range(6):
        row.locator('button[data-delta="1"]').click()
    all_saved(page)
    assert saved_counts(deck) == {card.collector_number: COPY_LIMIT}
    assert page.evaluate("window.mostShown") == COPY_LIMIT


def test_twelve_names_typed_each_followed_at_once_by_enter_add_twelve_cards(page):
    cards = units(12)
    deck = open_deck(page, make_user())
    search = page.get_by_label("Search cards")
    for card in cards:
        search.fill(f'!"{card.name}"')
        search.press("Enter")  # at once: the results of this query are not in yet
    all_saved(page)
    assert saved_counts(deck) == {c.collector_number: 1 for c in cards}
    assert shown_counts(page) == {c.collector_number: 1 for c in cards}


def test_a_refused_click_shows_its_reason_and_the_count_does_not_move(page):
    unique = Card.objects.filter(type="unit", is_unique=True).order_by("name").first()
    deck = open_deck(page, make_user(), [(unique, 1)])
    row = page.locator(f'#panel li[data-card="{unique.collector_number}"]')
    row.get_by_role("button", name=f"One more {unique.name}").click()
    status = page.locator("#queue-status")
    status.filter(has_text="unique icon").wait_for()
    assert status.get_attribute("data-state") == "failed"
    assert row.get_by_label(f"Copies of {unique.name}").input_value() == "1"
    assert saved_counts(deck) == {unique.collector_number: 1}
    assert Deck.objects.get(pk=deck.pk).version == deck.version


def test_a_legal_40_card_deck_built_by_quick_add_alone_in_under_200_keystrokes(page):
    cards = units(10)
    deck = open_deck(page, make_user())
    page.get_by_label("Quick add").focus()
    keystrokes = 0
    for card in cards:
        keystrokes += type_card(page, card.name)
        page.wait_for_function("() => document.getElementById('quick').value === ''")
    all_saved(page)
    print(f"quick add: 40 cards from {len(cards)} lines in {keystrokes} keystrokes")
    assert keystrokes < 200
    assert saved_counts(deck) == {c.collector_number: 4 for c in cards}
    page.locator("#legality .badge").filter(has_text="Legal · Standard · 40 cards").wait_for()
    # Then reshaped in the piles: by keyboard alone (a tag named with T, a copy moved out with C), then by drag.
    page.goto(f"/decks/{deck.pk}/edit/?view=visual&group=tag")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    page.locator(f'#piles img[data-card="{cards[0].collector_number}"]').focus()
    page.keyboard.press("t")
    answer_tag(page, "curve")
    page.locator('#piles [data-pile="curve"]').wait_for()
    page.locator(f'#piles img[data-card="{cards[1].collector_number}"]').focus()
    page.keyboard.press("c")
    all_saved(page)
    page.set_viewport_size({"width": 1280, "height": 1400})
    drag_by_band(page, cards[2], page.locator('#piles [data-pile="curve"]'))
    all_saved(page)
    assert sorted(page.locator('#piles [data-pile="curve"] li[data-card]').evaluate_all(
        "ls => ls.map(l => l.dataset.card)")) == sorted([cards[0].collector_number, cards[2].collector_number])
    assert saved_counts(deck)[cards[1].collector_number] == 3
    assert page.locator(f'#considering li[data-card="{cards[1].collector_number}"]').get_attribute("data-count") == "1"


def test_pasted_lines_are_saved_together_or_each_bad_line_is_said_on_its_line(page):
    a, b = units(2)
    deck = open_deck(page, make_user())
    box = page.get_by_label("Quick add")
    box.fill(f"4x {a.name}\n{b.name} x3\nPilferr")
    box.press("Enter")
    problem = page.locator('#quick-problems li[data-line="3"]')
    problem.wait_for()
    assert "Did you mean" in problem.inner_text()
    assert saved_counts(deck) == {}  # nothing saved until every line reads
    assert box.input_value().endswith("Pilferr")  # nothing typed is lost
    problem.get_by_role("button", name="Use Pilfer").click()
    assert problem.count() == 0  # answered: its problem is no longer said
    box.press("Enter")
    all_saved(page)
    pilfer = Card.objects.get(name="Pilfer")
    assert saved_counts(deck) == {a.collector_number: 4, b.collector_number: 3, pilfer.collector_number: 1}
    box.fill(f"-1 {a.name}")
    box.press("Enter")
    all_saved(page)
    assert saved_counts(deck)[a.collector_number] == 3


def test_undo_and_redo_take_back_and_replay_my_own_changes_as_new_versions(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 2)])
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    all_saved(page)
    box = page.get_by_label("Quick add")
    box.fill(f"3 {b.name}")
    box.press("Enter")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3, b.collector_number: 3}
    page.locator("body").click(position={"x": 5, "y": 5})  # out of any box: Ctrl+Z is the editor's
    page.keyboard.press("Control+z")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2}
    page.keyboard.press("Control+Shift+Z")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}
    version = Deck.objects.get(pk=deck.pk).version
    assert version == deck.version + 5  # every step a version of its own, in the history


def test_piles_take_cards_by_drag_and_by_key_and_move_them_between_tags_and_the_considering_list(page):
    page.set_viewport_size({"width": 1280, "height": 1400})  # the piles, the results and the remove zone in view
    a, b, c = units(3)
    deck = open_deck(page, make_user(), [(a, 2), (b, 2)])
    page.goto(f"/decks/{deck.pk}/edit/?view=visual&group=tag")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    # A search result dragged into the piles: a copy added.
    page.get_by_label("Search cards").fill(f'!"{c.name}"')
    page.locator(f'#results li[data-card="{c.collector_number}"] .card-meta').drag_to(
        page.locator("#piles"), target_position={"x": 40, "y": 12})
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 2, c.collector_number: 1}
    # By keyboard: + and − on a focused face.
    face = page.locator(f'#piles img[data-card="{a.collector_number}"]')
    face.focus()
    page.keyboard.press("+")
    all_saved(page)
    page.locator(f'#piles img[data-card="{a.collector_number}"]').focus()
    page.keyboard.press("+")
    all_saved(page)
    assert saved_counts(deck)[a.collector_number] == 4
    # T names a tag; the card then sits in that pile, and → / ← move it between piles.
    page.locator(f'#piles img[data-card="{b.collector_number}"]').focus()
    page.keyboard.press("t")
    answer_tag(page, "ramp")
    page.locator('#piles [data-pile="ramp"]').wait_for()
    all_saved(page)
    piles = page.eval_on_selector_all("#piles [data-pile]", "ps => ps.map(p => p.dataset.pile)")
    assert piles == ["ramp", ""]
    page.locator(f'#piles img[data-card="{a.collector_number}"]').focus()
    page.keyboard.press("ArrowLeft")  # from Untagged to "ramp"
    all_saved(page)
    ramp = page.locator('#piles [data-pile="ramp"] li[data-card]')
    assert sorted(ramp.evaluate_all("ls => ls.map(l => l.dataset.card)")) == sorted([a.collector_number,
                                                                                      b.collector_number])
    # Dragged between tag piles: the tag changes.
    drag_by_band(page, b, page.locator('#piles [data-pile=""]'))
    all_saved(page)
    assert page.locator(f'#piles [data-pile=""] li[data-card="{b.collector_number}"]').count() == 1
    # C moves a copy to the considering list, which is not counted; "Into the deck" brings it back.
    page.locator(f'#piles img[data-card="{a.collector_number}"]').focus()
    page.keyboard.press("c")
    all_saved(page)
    considered = page.locator(f'#considering li[data-card="{a.collector_number}"]')
    assert considered.get_attribute("data-count") == "1"
    assert saved_counts(deck)[a.collector_number] == 3
    assert "6 cards" in page.locator("#legality .badge").inner_text()  # 3 + 2 + 1: the considered copy is not counted
    considered.get_by_role("button", name=f"Into the deck {a.name}").click()
    all_saved(page)
    assert saved_counts(deck)[a.collector_number] == 4 and page.locator("#considering li[data-card]").count() == 0
    # A pile card dropped on the remove zone loses a copy.
    drag_by_band(page, c, page.locator("[data-drop=remove]"))
    all_saved(page)
    assert c.collector_number not in saved_counts(deck)


def test_right_then_left_puts_a_card_back_in_the_tag_pile_it_emptied_and_untagged_is_always_a_step_away(page):
    """The last card of a tag pile moved out by → takes its pile off the screen; ← still brings it back there."""
    page.set_viewport_size({"width": 1280, "height": 1400})
    a, b = units(2)
    user = make_user()
    deck = deck_create(owner=user, name="Walk", entries=entries_of((a, 2), (b, 2)),
                       tags={a.collector_number: "aggro", b.collector_number: "ramp"})
    log_in(page, user.username)
    page.goto(f"/decks/{deck.pk}/edit/?view=visual&group=tag")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    page.locator(f'#piles img[data-card="{a.collector_number}"]').focus()
    page.keyboard.press("ArrowRight")
    all_saved(page)
    assert page.eval_on_selector_all("#piles [data-pile]", "ps => ps.map(p => p.dataset.pile)") == ["ramp"]
    assert page.evaluate("document.activeElement.dataset.card") == a.collector_number
    page.keyboard.press("ArrowLeft")
    all_saved(page)
    assert page.locator(f'#piles [data-pile="aggro"] li[data-card="{a.collector_number}"]').count() == 1
    assert Deck.objects.get(pk=deck.pk).entries.get(card=a).tag == "aggro"
    # Every card has a tag, so no Untagged pile is shown: → from the last pile still reaches it.
    page.locator(f'#piles img[data-card="{b.collector_number}"]').focus()
    page.keyboard.press("ArrowRight")
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).entries.get(card=b).tag == ""


def test_undo_and_redo_cover_tags_and_the_considering_list(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 2)])
    page.goto(f"/decks/{deck.pk}/edit/?view=visual&group=tag")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    page.get_by_label("Search cards").fill(f'!"{b.name}"')
    page.get_by_role("button", name=f"Consider {b.name}").click()
    all_saved(page)
    page.locator(f'#piles img[data-card="{a.collector_number}"]').focus()
    page.keyboard.press("t")
    answer_tag(page, "core")
    page.locator('#piles [data-pile="core"]').wait_for()  # the save is sent once the dialog's close is handled
    all_saved(page)
    current = Deck.objects.get(pk=deck.pk)
    assert current.considering.get().card_id == b.id and current.entries.get().tag == "core"
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).entries.get().tag == ""
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert not Deck.objects.get(pk=deck.pk).considering.exists()
    page.get_by_role("button", name="Redo").click()
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).considering.get().count == 1
    page.get_by_role("button", name="Redo").click()
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).entries.get().tag == "core"


def test_changes_made_while_the_connection_is_down_wait_and_are_sent_in_order_when_it_returns(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    page.context.set_offline(True)
    plus = page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]')
    plus.click()
    plus.click()
    status = page.locator("#queue-status")
    status.filter(has_text="Connection lost").wait_for()
    assert status.get_attribute("data-state") == "offline"
    assert page.locator(f'#panel li[data-card="{a.collector_number}"] input.count').input_value() == "3"  # pending
    assert saved_counts(deck) == {a.collector_number: 1}
    page.context.set_offline(False)
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}


def test_two_tabs_end_in_one_deck_with_both_edits_in_its_history_and_a_stale_count_is_refused(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1), (b, 1)])
    other = page.context.new_page()
    other.goto(f"/decks/{deck.pk}/edit/")
    other.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    # One more in each tab, each against the version it saw: both land (+1 applies to the current version).
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    all_saved(page)
    other.locator(f'#panel li[data-card="{b.collector_number}"] button[data-delta="1"]').click()
    all_saved(other)
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 2}
    assert other.locator(f'#panel li[data-card="{a.collector_number}"] input.count').input_value() == "2"
    # The first tab, still at its version, sets a count: refused (409) with the reason, the count typed kept in its
    # box, marked, for the player to save over the other tab's change or not.
    count = page.locator(f'#panel li[data-card="{b.collector_number}"] input.count')
    count.fill("4")
    count.press("Tab")
    page.locator('#queue-status[data-state="failed"]').filter(has_text="another window").wait_for()
    kept = page.locator(f'#panel li[data-card="{b.collector_number}"] input.count')
    assert kept.input_value() == "4" and kept.get_attribute("aria-invalid") == "true"
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 2}
    history = page.context.new_page()
    history.goto(f"/decks/{deck.pk}/history/")
    text = history.locator("main").inner_text()
    assert f"{a.name}: 1 → 2" in text and f"{b.name}: 1 → 2" in text


@pytest.mark.parametrize("width", [1366, 390])
def test_find_it_in_the_deck_stops_the_card_below_the_editors_sticky_bar(page, width):
    """The bar wraps to several lines on a phone: the card a legality refusal names was scrolled under it."""
    legend = Card.objects.filter(type="legend").order_by("name").first()
    user = make_user()
    fillers = [(card, 4) for card in units(9)]
    deck = deck_create(owner=user, name="Tactical", format="tactical", entries=entries_of((legend, 1), *fillers))
    page.set_viewport_size({"width": width, "height": 800})
    log_in(page, user.username)
    page.goto(f"/decks/{deck.pk}/edit/")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    page.locator(f'#legality a[href="#deck-card-{legend.collector_number}"]').click()
    bar = page.locator(".editor-bar").bounding_box()
    row = page.locator(f"#deck-card-{legend.collector_number}").bounding_box()
    assert row["y"] >= bar["y"] + bar["height"] - 1, (row, bar)
    # the keyboard is there too (it was left on the page's body), and the next Tab reaches the row's buttons
    page.wait_for_function("id => document.activeElement && document.activeElement.id === id",
                           arg=f"deck-card-{legend.collector_number}")
    page.keyboard.press("Tab")
    assert page.evaluate("id => document.getElementById(id).contains(document.activeElement)",
                         f"deck-card-{legend.collector_number}")


def test_ctrl_z_in_a_count_box_or_a_menu_just_saved_takes_the_save_back(page):
    """A count typed and saved by Enter keeps the focus in its box, and a format chosen by arrows keeps it on its
    menu: there Ctrl+Z is the page's undo, as the Undo button says (Control+Z), not a key the page ignores. Digits
    typed and not yet saved are the box's own to take back."""
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    count = f'#panel li[data-card="{a.collector_number}"] input.count'
    page.locator(count).fill("3")
    page.locator(count).press("Enter")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}
    page.locator(count).press("Control+z")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2}
    page.locator(count).select_text()
    page.keyboard.type("4")  # typed, not saved: the box's own undo takes it back, the page's saves are untouched
    page.keyboard.press("Control+z")
    assert page.locator(count).input_value() == "2"
    assert Deck.objects.get(pk=deck.pk).version == deck.version + 2
    menu = page.get_by_label("Format")
    before = Deck.objects.get(pk=deck.pk).format
    menu.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Control+z")  # the choice still settling is saved, then taken back
    all_saved(page)
    page.wait_for_function("() => document.getElementById('redo').disabled === false")  # the undo is done
    assert Deck.objects.get(pk=deck.pk).format == before
    assert Deck.objects.get(pk=deck.pk).version == deck.version + 4


def test_enter_in_the_search_selects_the_query_so_the_next_name_typed_replaces_it(page):
    a, b = units(2)
    deck = open_deck(page, make_user())
    search = page.get_by_label("Search cards")
    search.fill(f'!"{a.name}"')
    search.press("Enter")
    page.keyboard.type(f'!"{b.name}"')  # typed over the query, not after it
    assert search.input_value() == f'!"{b.name}"'
    search.press("Enter")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 1, b.collector_number: 1}


def test_a_partial_name_and_one_enter_add_the_name_offered_first_offered_yet_or_not(page):
    """As in a deck builder's quick add: the names offered for a partial name, and Enter adds the first of them at
    once (it took one Enter to pick the name, a second to add the line); Enter pressed before they have come adds it
    once they come, and the box is free for the next line meanwhile (the partial text was sent and refused)."""
    from cards.selectors import card_autocomplete

    a = units(1)[0]
    first_name = card_autocomplete(text=a.name[:7])[0]
    b = next(c for c in units(30) if card_autocomplete(text=c.name[:8])[0] != first_name)
    deck = open_deck(page, make_user())
    box = page.get_by_label("Quick add")
    box.press_sequentially(f"3 {a.name[:7]}")
    page.wait_for_function("text => document.getElementById('quick-options').dataset.answered === text",
                           arg=a.name[:7].strip())
    box.press("Enter")
    all_saved(page)
    first = Card.objects.get(name=first_name)
    assert saved_counts(deck) == {first.collector_number: 3}
    second_name = card_autocomplete(text=b.name[:8])[0]
    box.fill(f"2 {b.name[:8]}")  # at once, no key for the names to answer
    box.press("Enter")
    assert box.input_value() == ""
    all_saved(page)
    second = Card.objects.get(name=second_name)
    assert saved_counts(deck) == {first.collector_number: 3, second.collector_number: 2}
