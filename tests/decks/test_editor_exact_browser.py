"""The deck editor does exactly what was pressed, in headless Chromium, where a fast or unlucky player found it did
not: a save whose answer was lost is not applied twice, undo pressed while a change saves takes that change back,
the keyboard keeps its place after a save, the counts of the considering list are never read as the deck's, a
count box emptied or negative is refused, the quick-add box never picks a name offered for older text, and a view
switched while a change saves stays switched, and in the address; a disabled Undo looks disabled."""

from __future__ import annotations

import pytest

from cards.models import Card
from decks.considering import deck_consider, deck_tag_card
from decks.models import Deck
from tests.support import live_db

from .factories import considering_of, make_user
from .test_editor_input_browser import all_saved, open_deck, saved_counts, shown_counts, units

pytestmark = [pytest.mark.browser, live_db]


def slow_network(page, latency_ms: int = 600):
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                  "downloadThroughput": -1, "uploadThroughput": -1})


def another_window_adds_one(page, deck, card):
    """The same deck open in a second window, which saves one more copy of `card`: this page is now stale."""
    other = page.context.new_page()
    other.goto(f"/decks/{deck.pk}/edit/")
    other.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    other.locator(f'#panel li[data-card="{card.collector_number}"] button[data-delta="1"]').click()
    all_saved(other)


def test_a_save_whose_answer_is_lost_is_sent_again_and_applied_once(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    lost = []

    def lose_the_first_answer(route):
        if lost:
            route.continue_()
            return
        route.fetch()  # the server saves the change...
        lost.append(True)
        route.abort("connectionreset")  # ...and its answer never comes back

    page.route("**/edit/change/", lose_the_first_answer)
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    page.locator("#queue-status").filter(has_text="Connection lost").wait_for()
    all_saved(page)
    assert lost and saved_counts(deck) == {a.collector_number: 2}
    assert shown_counts(page) == {a.collector_number: 2}
    assert page.locator("#queue-status").get_attribute("data-state") == "saved"
    # The answer to the resent save carries what takes it back: undo still works.
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 1}


def test_undo_pressed_while_a_change_is_saving_takes_that_change_back(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1)])
    box = page.get_by_label("Quick add")
    box.fill(f"3 {b.name}")
    box.press("Enter")
    all_saved(page)
    slow_network(page)
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+z")  # the +1 has not answered yet
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 1, b.collector_number: 3}


def test_a_save_an_undo_and_a_redo_each_say_what_they_did(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1)])
    box = page.get_by_label("Quick add")
    box.fill(f"2 {b.name}")
    box.press("Enter")
    status = page.locator("#queue-status")
    status.filter(has_text=f"version {deck.version + 1}").wait_for()
    assert status.text_content() == f"Saved (version {deck.version + 1}): {b.name}: 0 → 2."
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+z")
    status.filter(has_text=f"version {deck.version + 2}").wait_for()
    assert status.text_content() == f"Undone: Saved (version {deck.version + 2}): {b.name}: 2 → 0."
    page.keyboard.press("Control+Shift+z")
    status.filter(has_text=f"version {deck.version + 3}").wait_for()
    assert status.text_content() == f"Redone: Saved (version {deck.version + 3}): {b.name}: 0 → 2."


def test_into_the_deck_by_keyboard_keeps_the_focus_on_the_considering_list_not_on_a_deck_row(page):
    a, = units(1)
    user = make_user()
    deck = open_deck(page, user, [(a, 1)])
    deck_consider(deck=Deck.objects.get(pk=deck.pk), actor=user, card=a, delta=3)
    page.reload()
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    page.locator("#considering").get_by_role("button", name=f"Into the deck {a.name}").focus()
    page.keyboard.press("Enter")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2}
    focused = page.evaluate("() => document.activeElement.closest('#considering') !== null")
    assert focused, page.evaluate("() => document.activeElement.outerHTML")
    page.keyboard.press("Enter")  # again: another copy into the deck, never one out of it
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}
    assert Deck.objects.get(pk=deck.pk).considering.get().count == 1
    # The considering list's "−" by keyboard: its own count goes down, the deck's is left alone.
    page.locator("#considering").get_by_role("button", name=f"One fewer {a.name} considered").focus()
    page.keyboard.press("Enter")
    all_saved(page)
    page.keyboard.press("Enter")  # the card has left the list: the focus is on the list, which does nothing
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}
    assert page.evaluate("() => document.activeElement.id") == "considering"


def test_the_considering_list_is_neither_the_results_in_deck_count_nor_drawn_in_a_sample_hand(page):
    a, b = units(2)
    open_deck(page, make_user(), [(a, 4)])
    page.get_by_label("Search cards").fill(f'!"{a.name}" or !"{b.name}"')
    page.locator(f'#results li[data-card="{b.collector_number}"]').wait_for()
    page.get_by_role("button", name=f"Consider {b.name}").click()
    page.get_by_role("button", name=f"Consider {a.name}").click()
    all_saved(page)
    in_deck = page.eval_on_selector_all("#results .in-deck[data-card]",
                                        "spans => Object.fromEntries(spans.map(s => [s.dataset.card, s.textContent]))")
    assert in_deck == {a.collector_number: "4", b.collector_number: "0"}
    page.get_by_role("button", name="Draw a hand").click()
    hand = page.locator("#sample-hand")
    hand.filter(has_text="left in the deck").wait_for()
    drawn = hand.locator("li").count()
    assert f"{4 - drawn} left in the deck" in hand.inner_text()


def test_a_count_box_emptied_or_negative_is_refused_and_the_count_goes_back(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    count = page.locator(f'#panel li[data-card="{a.collector_number}"] input.count')
    for typed in ["", "-3"]:
        count.fill(typed)
        count.press("Tab")
        page.locator('#queue-status[data-state="failed"]').filter(has_text="whole number").wait_for()
        assert count.input_value() == "2"
        assert saved_counts(deck) == {a.collector_number: 2}
    count.select_text()
    page.keyboard.type("1e")  # what a number box cannot read: its value is "", said as what was typed
    count.press("Tab")
    page.locator('#queue-status[data-state="failed"]').filter(has_text="what was typed is not one").wait_for()
    assert count.input_value() == "2" and saved_counts(deck) == {a.collector_number: 2}


def test_enter_in_quick_add_never_picks_a_name_offered_for_older_text(page):
    cards = units(40)
    deck = open_deck(page, make_user())
    box = page.get_by_label("Quick add")
    # A name whose first words are offered first for another card: "<prefix>" answers with that other card.
    for card in cards:
        prefix = card.name.rsplit(" ", 1)[0]
        if prefix == card.name or len(prefix) < 3:
            continue
        box.fill("")
        box.press_sequentially(f"2 {prefix}")
        page.wait_for_function("text => document.getElementById('quick-options').dataset.answered === text",
                               arg=prefix)
        first = page.locator("#quick-options [role=option]").first.inner_text()
        if first != card.name:
            break
    else:
        raise AssertionError("no name among the first units is offered after another for its first words")
    box.press_sequentially(card.name[len(prefix):])
    box.press("Enter")  # at once, before the names for the whole text come back
    all_saved(page)
    assert saved_counts(deck) == {card.collector_number: 2}


def test_a_view_switched_while_a_change_saves_stays_switched(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    slow_network(page, 900)
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    page.get_by_role("link", name="Piles").click()
    page.locator("#piles").wait_for()
    all_saved(page)
    page.wait_for_timeout(1500)  # any panel still on its way has come
    assert page.locator("#piles").count() == 1
    assert saved_counts(deck) == {a.collector_number: 3}
    # The address says the view: a reload opens the piles again.
    assert "view=visual" in page.url
    page.reload()
    page.locator("#piles").wait_for()
    # A grouping keeps the view on screen, and List keeps the grouping: the address says both.
    page.get_by_role("navigation", name="Group the deck by").get_by_role("link", name="Craft").click()
    assert "view=visual" in page.url and "group=craft" in page.url
    page.get_by_role("navigation", name="Deck view").get_by_role("link", name="List").click()
    assert "view=list" in page.url and "group=craft" in page.url


def test_undo_looks_disabled_until_there_is_a_change_to_take_back(page):
    a, = units(1)
    open_deck(page, make_user(), [(a, 1)])
    undo = page.get_by_role("button", name="Undo")

    def look():
        return undo.evaluate("b => [getComputedStyle(b).borderStyle, getComputedStyle(b).cursor]")

    assert undo.is_disabled() and look() == ["dashed", "not-allowed"]
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    all_saved(page)
    assert undo.is_enabled() and look() == ["solid", "pointer"]


def test_a_name_refused_as_stale_stays_in_its_box_and_leaving_the_box_again_saves_it(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    another_window_adds_one(page, deck, a)
    name = page.get_by_label("Name", exact=True)
    name.fill("Typed while stale")
    name.press("Tab")
    page.locator('#queue-status[data-state="failed"]').filter(has_text="kept in its box").wait_for()
    assert Deck.objects.get(pk=deck.pk).name == "Input"
    assert page.get_by_label("Name", exact=True).input_value() == "Typed while stale"
    page.get_by_label("Name", exact=True).focus()
    page.keyboard.press("Tab")
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).name == "Typed while stale"
    assert saved_counts(deck) == {a.collector_number: 2}  # the other window's change is kept
    assert page.title() == "Edit Typed while stale · Dreadgate"  # the browser's tab says the new name too


def test_a_name_refused_for_itself_asks_for_another_not_for_the_same_again(page):
    """Sent again, an empty name would be refused again: the status asks for a change, where a name overtaken by
    another window's save is asked to be sent again as it is."""
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    name = page.get_by_label("Name", exact=True)
    name.fill("")
    name.press("Tab")
    status = page.locator('#queue-status[data-state="failed"]')
    status.filter(has_text="A deck needs a name.").wait_for()
    assert "change it, then leave the box to save it" in status.inner_text()
    assert "leave the box again" not in status.inner_text() and Deck.objects.get(pk=deck.pk).name == "Input"


def test_arrows_walking_the_visibility_menu_save_once_where_they_rest(page):
    """Private → Unlisted → Public by ↓ ↓ saved a version at each step, the deck shared as unlisted on the way."""
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    page.get_by_label("Visibility").focus()
    assert page.get_by_label("Visibility").input_value() == "private"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.locator("#queue-status").filter(has_text=f"version {deck.version + 1}").wait_for()
    page.wait_for_timeout(1000)  # time for any second save
    saved = Deck.objects.get(pk=deck.pk)
    assert (saved.visibility, saved.version) == ("public", deck.version + 1)
    assert [r.message for r in saved.revisions.order_by("-number")[:1]] == ["Visibility: Private → Public"]


def test_a_visibility_chosen_just_before_the_page_is_left_is_saved_not_dropped(page):
    """The choice waits a moment for the arrows to rest: a page left meanwhile sent nothing, the deck still shared."""
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    Deck.objects.filter(pk=deck.pk).update(visibility="public")
    page.reload()
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))  # stay, as a player may
    page.get_by_label("Visibility").select_option("private")
    assert page.locator("#queue-status").text_content() == "Saving the visibility…"
    page.evaluate("() => { location.href = '/decks/'; }")
    page.locator("#queue-status").filter(has_text=f"version {deck.version + 1}").wait_for()
    assert asked == ["beforeunload"]  # asked whether to leave while the choice was on its way
    assert Deck.objects.get(pk=deck.pk).visibility == "private"


def test_a_visibility_chosen_stays_on_screen_while_a_card_saved_before_it_lands(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    slow_network(page, 400)
    page.evaluate("""() => { window.shown = [];
      setInterval(() => window.shown.push(document.getElementById('deck-visibility').value), 20); }""")
    page.get_by_label("Visibility").select_option("public")
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    page.locator("#queue-status").filter(has_text=f"version {deck.version + 2}").wait_for()
    shown = page.evaluate("() => window.shown")
    assert "private" not in shown[shown.index("public"):], shown  # never back to the saved one meanwhile
    assert Deck.objects.get(pk=deck.pk).visibility == "public"


def test_a_card_is_set_aside_to_the_considering_list_from_the_list_view_by_its_button(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    aside = page.get_by_role("button", name=f"Set aside one {a.name}, to the considering list")
    aside.focus()
    page.keyboard.press("Enter")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 1}
    assert Deck.objects.get(pk=deck.pk).considering.get().count == 1
    assert page.evaluate("() => document.activeElement.dataset.to") == "considering"  # the same button, again


def test_odds_changed_while_a_save_is_on_its_way_are_kept_when_its_panel_arrives(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 2), (b, 2)])
    # The editor's saves (fetch) answer 1.5 s late; the odds (htmx, XMLHttpRequest) at once, so they are shown
    # before the save's panel arrives, rendered for the odds asked before.
    page.add_init_script("""(() => { const send = window.fetch;
      window.fetch = (url, options) => String(url).includes("/edit/change/")
        ? new Promise(done => setTimeout(() => done(send(url, options)), 1500)) : send(url, options); })()""")
    page.reload()
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    turns = page.locator('#odds-form input[name="turns"]')
    assert turns.input_value() != "9"
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    turns.fill("9")
    turns.dispatch_event("change")
    page.wait_for_function("() => document.querySelector('#stats .odds') && document.querySelector("
                           "'#odds-form input[name=turns]').defaultValue === '9'")  # the odds shown first
    all_saved(page)
    page.wait_for_load_state("networkidle")
    assert saved_counts(deck) == {a.collector_number: 3, b.collector_number: 2}
    assert page.locator('#odds-form input[name="turns"]').input_value() == "9"
    assert page.locator("#stats table.odds").inner_text().count("\n") >= 1
    assert "N = 5" in page.locator("#stats .formula").inner_text()  # the odds of the deck as saved


def open_deck_with_a_tag(page):
    """A deck of two cards open in the editor, the second tagged "Ramp": the deck and the cards."""
    a, b = units(2)
    user = make_user()
    deck = open_deck(page, user, [(a, 2), (b, 1)])
    deck_tag_card(deck=Deck.objects.get(pk=deck.pk), actor=user, card=b, tag="Ramp")
    page.reload()
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    return deck, a, b


def test_a_card_is_tagged_from_the_list_view_by_keyboard_with_the_decks_tags_offered(page):
    deck, a, b = open_deck_with_a_tag(page)
    assert page.locator(f'#panel li[data-card="{b.collector_number}"] .card-tag').inner_text() == "tag: Ramp"
    page.get_by_role("button", name=f"Tag {a.name}", exact=True).focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name=f"Tag {a.name}")
    assert dialog.get_by_label("Tag", exact=False).input_value() == ""
    assert page.eval_on_selector_all("#tag-names option", "os => os.map(o => o.value)") == ["Ramp"]
    page.keyboard.type("Ramp")
    page.keyboard.press("Tab")  # to "Save the tag" (Enter in the box may first take the name it offers)
    page.keyboard.press("Enter")
    # The save starts as the dialog closes: its panel, then nothing waiting (before it, nothing was waiting either).
    page.locator(f'#panel li[data-card="{a.collector_number}"] .card-tag').filter(has_text="tag: Ramp").wait_for()
    all_saved(page)
    assert dict(Deck.objects.get(pk=deck.pk).entries.values_list("card__collector_number", "tag")) == {
        a.collector_number: "Ramp", b.collector_number: "Ramp"}
    assert page.evaluate("() => document.activeElement.dataset.retag") == "Ramp"  # back on the same button
    # Escape leaves the tag as it was, and the focus where it was.
    page.keyboard.press("Enter")
    page.keyboard.type("Other")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.activeElement.closest('dialog')")  # closed, the focus handed back
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).entries.get(card=a).tag == "Ramp"
    assert page.evaluate("() => document.activeElement.dataset.card") == a.collector_number


def test_the_list_view_groups_by_tag_and_a_card_retagged_there_moves_to_its_group(page):
    deck, a, b = open_deck_with_a_tag(page)
    page.get_by_role("navigation", name="Group the deck by").get_by_role("link", name="Tag").click()
    page.locator("#group-ramp").wait_for()
    headings = "() => [...document.querySelectorAll('#panel .deck-group h3')].map(h => h.textContent.trim())"
    assert page.evaluate(headings) == ["Ramp (1)", "Untagged (2)"]
    assert page.locator("#piles").count() == 0  # still the list
    page.get_by_role("button", name=f"Tag {a.name}", exact=True).click()
    page.get_by_role("dialog").locator("#tag-name").fill("Ramp")
    page.get_by_role("button", name="Save the tag").click()
    page.locator("#panel .deck-group h3").filter(has_text="Ramp (3)").wait_for()  # the save starts as it closes
    all_saved(page)
    assert page.evaluate(headings) == ["Ramp (3)"]
    page.get_by_role("navigation", name="Deck view").get_by_role("link", name="Piles").click()
    page.locator('#piles [data-pile="Ramp"]').wait_for()  # the piles keep the grouping


def test_on_a_phone_a_pile_card_is_tagged_by_its_button_and_lands_in_its_tag_pile(phone_page):
    a, b = units(2)
    deck = open_deck(phone_page, make_user(), [(a, 2), (b, 1)])
    phone_page.goto(f"/decks/{deck.pk}/edit/?view=visual&group=tag")
    phone_page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    phone_page.get_by_role("button", name=f"Tag {b.name}", exact=True).tap()
    phone_page.get_by_role("dialog").locator("#tag-name").fill("Finishers")
    phone_page.get_by_role("button", name="Save the tag").tap()
    phone_page.locator('#piles [data-pile="Finishers"]').wait_for()
    all_saved(phone_page)
    assert phone_page.eval_on_selector_all("#piles [data-pile]", "ps => ps.map(p => p.dataset.pile)") == [
        "Finishers", ""]
    assert Deck.objects.get(pk=deck.pk).entries.get(card=b).tag == "Finishers"
    # Piled by type, the phone's list still says each card's tag, where a wide screen's faces leave it to the
    # screen reader.
    phone_page.get_by_role("link", name="Type", exact=True).tap()
    phone_page.locator('#piles[data-grouping="type"]').wait_for()
    tag = phone_page.locator(f'#piles li[data-card="{b.collector_number}"] .pile-tag')
    assert tag.is_visible() and tag.inner_text().strip() == "· tag: Finishers"
    assert phone_page.locator(f'#piles li[data-card="{a.collector_number}"] .pile-tag').count() == 0


def test_the_deck_is_edited_as_text_a_bad_line_comes_back_in_the_dialog_and_undo_takes_the_text_back(page):
    a, b, c = units(3)
    deck = open_deck(page, make_user(), [(a, 2), (b, 1)])
    page.get_by_role("button", name="Edit as text").click()
    box = page.get_by_role("dialog", name="Edit the deck as text").get_by_label("Main deck")
    assert f"2 {a.name}" in box.input_value() and f"1 {b.name}" in box.input_value()
    box.fill(f"3 {a.name}\nfour {c.name}\n")
    page.get_by_role("button", name="Save the list").click()
    problems = page.locator("#text-problems")
    problems.filter(has_text="Line 2").wait_for()  # back in the dialog, the text as typed
    assert "Nothing was saved" in problems.inner_text()
    assert box.input_value() == f"3 {a.name}\nfour {c.name}\n"
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 1}
    box.fill(f"3 {a.name}\n1 {c.name}\n")
    page.get_by_role("button", name="Save the list").click()
    page.locator('#queue-status[data-queue="0"][data-state="saved"]').wait_for()  # not the refusal still said
    assert saved_counts(deck) == {a.collector_number: 3, c.collector_number: 1}
    assert not page.get_by_role("dialog").is_visible()
    assert shown_counts(page) == {a.collector_number: 3, c.collector_number: 1}
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 1}


def test_a_text_closed_without_saving_comes_back_until_the_player_starts_again_from_the_deck(page):
    """Escape or Cancel in the text dialog threw the text being mended away without a word; it comes back."""
    a, c = units(2)
    deck = open_deck(page, make_user(), [(a, 2)])
    dialog = page.get_by_role("dialog", name="Edit the deck as text")
    page.get_by_role("button", name="Edit as text").click()
    box = dialog.get_by_label("Main deck")
    box.wait_for()
    box.fill(f"3 {a.name}\nfour {c.name}\n")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    page.get_by_role("button", name="Edit as text").click()
    page.locator("#text-draft").wait_for()
    assert box.input_value() == f"3 {a.name}\nfour {c.name}\n"
    dialog.get_by_role("button", name="Cancel").click()  # closed again: still kept
    page.get_by_role("button", name="Edit as text").click()
    page.locator("#text-draft").wait_for()
    dialog.get_by_role("button", name="Start again from the deck").click()
    page.wait_for_function("name => document.getElementById('deck-text').value.includes('2 ' + name)", arg=a.name)
    assert page.locator("#text-draft").is_hidden() and "four" not in box.input_value()
    assert saved_counts(deck) == {a.collector_number: 2}


def test_a_text_taken_before_another_windows_save_is_not_saved_over_it_without_asking(page):
    a, b = units(2)
    user = make_user()
    deck = open_deck(page, user, [(a, 2)])
    page.get_by_role("button", name="Edit as text").click()
    box = page.get_by_role("dialog").get_by_label("Main deck")
    box.wait_for()
    deck_consider(deck=Deck.objects.get(pk=deck.pk), actor=user, card=b, delta=1)  # another window saves
    box.fill(f"4 {a.name}\n")
    page.get_by_role("button", name="Save the list").click()
    page.locator("#text-problems").filter(has_text="changed in another window").wait_for()
    assert saved_counts(deck) == {a.collector_number: 2} and box.input_value() == f"4 {a.name}\n"
    page.get_by_role("button", name="Save the list").click()  # asked, and saved again: over the other save
    page.locator('#queue-status[data-queue="0"][data-state="saved"]').wait_for()  # not the refusal still said
    assert saved_counts(deck) == {a.collector_number: 4}


def test_a_tag_set_in_another_window_is_neither_written_over_nor_taken_off_by_an_undo(page):
    """Two windows on one deck: B's dialog, opened on what B's page showed, is refused and says what the tag is now;
    A's undo of its own tag does not take off the tag B then set."""
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    other = page.context.new_page()
    other.goto(f"/decks/{deck.pk}/edit/")
    other.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    page.get_by_role("button", name=f"Tag {a.name}", exact=True).click()  # window A: "Alpha"
    page.get_by_role("dialog").locator("#tag-name").fill("Alpha")
    page.get_by_role("button", name="Save the tag").click()
    page.locator("#queue-status").filter(has_text=f"version {deck.version + 1}").wait_for()
    other.get_by_role("button", name=f"Tag {a.name}", exact=True).click()  # window B, which still shows no tag
    other.get_by_role("dialog").locator("#tag-name").fill("Beta")
    other.get_by_role("button", name="Save the tag").click()
    other.locator("#tag-problem").filter(has_text="changed in another window, to “Alpha”").wait_for()
    assert Deck.objects.get(pk=deck.pk).entries.get().tag == "Alpha"
    other.get_by_role("button", name="Save the tag").click()  # asked, and sent again: over the tag now shown
    other.locator("#queue-status").filter(has_text=f"version {deck.version + 2}").wait_for()
    assert Deck.objects.get(pk=deck.pk).entries.get().tag == "Beta"
    page.get_by_role("button", name="Undo").click()  # A takes back its "Alpha": B's "Beta" stays
    page.locator('#queue-status[data-state="failed"]').filter(has_text="“Beta”").wait_for()
    assert Deck.objects.get(pk=deck.pk).entries.get().tag == "Beta"


def test_a_tag_refused_comes_back_in_its_dialog_and_closing_it_puts_the_focus_back_on_the_pile_card(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    page.goto(f"/decks/{deck.pk}/edit/?view=visual")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    page.locator(f'#piles img[data-card="{a.collector_number}"]').hover()
    page.get_by_role("button", name=f"Tag {a.name}", exact=True).click()
    long_tag = "a tag far longer than the thirty characters allowed"
    page.get_by_role("dialog").locator("#tag-name").fill(long_tag)  # nothing cut off as it is typed
    page.get_by_role("button", name="Save the tag").click()
    problem = page.locator("#tag-problem")
    problem.filter(has_text="at most 30 characters").wait_for()  # the server's words, in the dialog again
    assert page.get_by_role("dialog").locator("#tag-name").input_value() == long_tag
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.activeElement !== document.body"  # the dialog's close event comes after
                           " && !document.activeElement.closest('dialog')")
    assert page.evaluate("() => [document.activeElement.tagName, document.activeElement.dataset.card]") == [
        "IMG", a.collector_number]
    assert Deck.objects.get(pk=deck.pk).entries.get().tag == ""


def test_a_tag_the_site_refuses_before_the_editor_reads_it_comes_back_with_the_sites_words_and_later_saves_go_on(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    page.get_by_role("button", name=f"Tag {a.name}", exact=True).click()
    page.get_by_role("dialog").locator("#tag-name").evaluate("box => { box.value = 'ra\\u0000mp'; }")
    page.get_by_role("button", name="Save the tag").click()
    # Refused by the rule for every form (a 400 page, not a panel): its words, in the dialog again.
    page.locator("#tag-problem").filter(has_text="contains a NUL character").wait_for()
    assert page.get_by_role("dialog").locator("#tag-name").input_value() == "ra\x00mp"
    page.keyboard.press("Escape")
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    all_saved(page)  # the change after the refusal is sent and saved
    assert saved_counts(deck) == {a.collector_number: 3}
    assert Deck.objects.get(pk=deck.pk).entries.get().tag == ""


@pytest.fixture
def small_body_limit(settings):
    """The server's limit on a request's body (1 MB as deployed) made 20 KB: the pages read it from the settings, and
    a text over it need not be a megabyte, which a loaded machine's browser took seconds to lay out in a box."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 20_000
    return 20_000


def test_quick_add_lines_the_site_refuses_unread_stay_in_the_box_with_its_words_and_are_sent_once(page,
                                                                                                small_body_limit):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    sent = []
    page.on("request", lambda request: sent.append(request.url) if "/edit/quick/" in request.url else None)
    box = page.get_by_label("Quick add")
    typed = f"1 {a.name}\u0000"
    box.evaluate("(box, text) => { box.value = text; }", typed)
    box.press("Enter")
    # The middleware's 400 for every form: not a panel, so its words, and the lines back in the box.
    page.locator("#quick-problems").filter(has_text="contains a NUL character").wait_for()
    assert box.input_value() == typed
    page.wait_for_timeout(2_500)  # a refusal is not a lost connection: never sent again
    assert len(sent) == 1 and "Connection lost" not in page.locator("#queue-status").inner_text()
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}

    pasted = f"1 {a.name}\n" * (small_body_limit // 10)  # over the limit: said here, never sent
    box.evaluate("(box, text) => { box.value = text; }", pasted)
    box.press("Enter")
    page.locator("#quick-problems").filter(has_text="Nothing was saved: this text is").wait_for()
    assert box.evaluate("box => box.value.length") == len(pasted) and len(sent) == 1
    assert saved_counts(deck) == {a.collector_number: 3}


def test_fast_clicks_past_the_copy_limit_still_say_so_when_the_last_of_them_is_saved(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 3)])
    slow_network(page)
    row = page.locator(f'#panel li[data-card="{a.collector_number}"]')
    # 4: saved; 5: refused by the copy limit; 3: saved, the last of the burst. Clicked in one go, so that they are a
    # burst however slowly a loaded machine runs the test between clicks.
    row.evaluate("""row => { const more = row.querySelector('button[data-delta="1"]');
                             more.click(); more.click(); row.querySelector('button[data-delta="-1"]').click(); }""")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}
    status = page.locator("#queue-status").inner_text()
    assert "Saved (version" in status and "Not saved before it:" in status and "at most 4" in status, status


def test_fast_clicks_past_the_copy_limit_say_what_was_saved_when_the_last_of_them_is_refused(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 3)])
    slow_network(page)
    row = page.locator(f'#panel li[data-card="{a.collector_number}"]')
    # 4: saved; 5: refused by the copy limit, the last; clicked in one go, a burst however slow the machine
    row.evaluate("""row => { const more = row.querySelector('button[data-delta="1"]'); more.click(); more.click(); }""")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 4}
    status = page.locator("#queue-status").inner_text()
    assert status.startswith(f"Saved (version {deck.version + 1}): {a.name}: 3 → 4. Not saved after it:"), status
    assert "at most 4" in status, status


def test_a_text_too_long_to_send_stays_in_its_dialog_with_the_reason(page, small_body_limit):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    page.get_by_role("button", name="Edit as text").click()
    box = page.get_by_role("dialog").get_by_label("Main deck")
    box.wait_for()
    pasted = f"1 {a.name}\n" * (small_body_limit // 10)  # over the limit
    box.evaluate("(box, text) => { box.value = text; }", pasted)
    sent = []
    page.on("request", lambda request: sent.append(request.url) if "/edit/whole/" in request.url else None)
    page.get_by_role("button", name="Save the list").click()
    page.locator("#text-problems").filter(has_text="Nothing was saved: this text is").wait_for()
    assert box.evaluate("box => box.value.length") == len(pasted) and not sent
    assert saved_counts(deck) == {a.collector_number: 2}


def test_a_view_switched_by_keyboard_while_a_change_saves_keeps_the_focus_on_its_link(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    slow_network(page)
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    page.get_by_role("navigation", name="Deck view").get_by_role("link", name="Piles").focus()
    page.keyboard.press("Enter")
    page.locator("#piles").wait_for()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}
    assert page.evaluate("() => document.activeElement.dataset.view") == "visual"


def test_the_last_copy_removed_by_key_on_a_pile_card_leaves_the_focus_in_the_piles(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1), (b, 2)])
    page.goto(f"/decks/{deck.pk}/edit/?view=visual")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    page.locator(f'#piles img[data-card="{a.collector_number}"]').focus()
    page.keyboard.press("-")
    all_saved(page)
    assert saved_counts(deck) == {b.collector_number: 2}
    assert page.evaluate("() => document.activeElement.closest('#piles') !== null"), \
        page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
    # and lands on something a screen reader can name, not a bare container read out whole
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label') || document.activeElement.id"
                         " !== 'piles'")


def test_shift_tab_from_a_pile_card_reaches_the_buttons_of_the_card_before_it_shown(page):
    """A pile card's buttons show while the card is hovered or focused: hidden by `display: none` they could not take
    the focus, so Shift+Tab from a card skipped the card before it's buttons to land on its face."""
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1), (b, 2)])
    page.goto(f"/decks/{deck.pk}/edit/?view=visual")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    first, second = page.eval_on_selector_all("#piles img[data-card]", "faces => faces.map(f => f.dataset.card)")
    page.locator(f'#piles img[data-card="{second}"]').focus()
    page.keyboard.press("Shift+Tab")
    focused = page.evaluate("() => [document.activeElement.className, document.activeElement.dataset.card, "
                            "getComputedStyle(document.activeElement.parentElement).opacity]")
    assert focused == ["secondary retag", first, "1"], focused
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.dataset.to") == "considering"


def test_undo_takes_back_a_rename_before_the_card_change_made_earlier_and_redo_renames_again(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="-1"]').click()
    all_saved(page)
    name = page.get_by_label("Name", exact=True)
    name.fill("Renamed")
    name.press("Tab")
    all_saved(page)
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+z")
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).name == "Input" and saved_counts(deck) == {a.collector_number: 1}
    assert page.get_by_label("Name", exact=True).input_value() == "Input"
    page.keyboard.press("Control+Shift+Z")
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).name == "Renamed" and saved_counts(deck) == {a.collector_number: 1}


def test_text_typed_while_saves_answer_is_kept_whole_and_saved_once_when_the_box_is_left(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 2)])
    version = Deck.objects.get(pk=deck.pk).version
    slow_network(page, 400)
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="-1"]').click()
    box = page.get_by_label("Description")
    box.click()
    page.evaluate("window.firstBox = document.getElementById('deck-description')")
    typed = "Mulligan hands without a one-drop."
    box.press_sequentially(typed, delay=90)  # the two saves answer, and the panel is replaced, meanwhile
    assert page.evaluate("document.getElementById('deck-description') !== window.firstBox"), "no panel came back"
    assert box.input_value() == typed
    page.keyboard.press("Tab")
    all_saved(page)
    saved = Deck.objects.get(pk=deck.pk)
    assert saved.description == typed
    assert saved.version == version + 3  # the two clicks and the description, once
    assert saved_counts(deck) == {a.collector_number: 2}


def test_a_panel_asked_for_by_a_view_switch_is_the_version_the_next_change_is_made_against(page):
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    another_window_adds_one(page, deck, a)
    page.get_by_role("navigation", name="Deck view").get_by_role("link", name="Piles").click()
    page.locator(f'#panel[data-version="{Deck.objects.get(pk=deck.pk).version}"] #piles').wait_for()
    name = page.get_by_label("Name", exact=True)
    name.fill("Seen the other window's change")
    name.press("Tab")
    all_saved(page)
    assert Deck.objects.get(pk=deck.pk).name == "Seen the other window's change"
    assert page.locator("#queue-status").get_attribute("data-state") == "saved"


def test_the_last_copy_removed_by_keyboard_leaves_the_focus_on_its_group_where_enter_does_nothing(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1), (b, 2)])
    page.get_by_role("button", name=f"One fewer {a.name}", exact=True).focus()
    page.keyboard.press("Enter")
    all_saved(page)
    assert saved_counts(deck) == {b.collector_number: 2}
    assert page.evaluate("document.activeElement.id").startswith("cards-"), page.evaluate(
        "document.activeElement.outerHTML.slice(0, 200)")
    page.keyboard.press("Enter")
    all_saved(page)
    assert saved_counts(deck) == {b.collector_number: 2}


def test_the_arrow_keys_walk_the_results_and_one_tab_and_enter_skip_from_the_search_to_the_deck(page):
    a, b, c = units(3)
    open_deck(page, make_user(), [(a, 1)])
    box = page.get_by_label("Search cards")
    box.fill(f'!"{a.name}" or !"{b.name}" or !"{c.name}"')
    page.locator("#results li").nth(2).wait_for()
    names = page.eval_on_selector_all("#results li", "rows => rows.map(r => r.dataset.card)")

    def focused_row():
        return page.evaluate("document.activeElement.closest('#results li')?.dataset.card || document.activeElement.id")

    box.press("ArrowDown")
    assert focused_row() == names[0]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert focused_row() == names[2]
    assert page.evaluate("document.activeElement.className") == "add-card"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert focused_row() == "q"
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Go to the deck and its legality")
    assert skip.evaluate("e => e === document.activeElement") and skip.is_visible()
    page.keyboard.press("Enter")
    assert focused_row() == "panel"


def test_a_page_reloaded_while_a_change_was_on_its_way_shows_a_change_saved_after_it_loaded(page):
    from decks.selectors import card_info
    from decks.services import deck_change_card

    a, b = units(2)
    user = make_user()
    deck = open_deck(page, user, [(a, 1), (b, 1)])
    page.on("dialog", lambda dialog: dialog.accept())  # "Leave the page? Changes are still being saved"
    slow_network(page, 900)
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    page.reload()
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    # As the old page's change reaching the server late: saved after this page read the deck.
    deck_change_card(deck=Deck.objects.get(pk=deck.pk), actor=user, card=card_info(b), delta=1)
    page.wait_for_function(f"""() => document.querySelector('#panel li[data-card="{b.collector_number}"]')
                                 .dataset.count === '2'""", timeout=8000)
    assert "saved after it" in page.locator("#queue-status").inner_text()


def test_a_count_refused_as_stale_stays_in_its_box_and_leaving_the_box_again_saves_it(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1), (b, 1)])
    another_window_adds_one(page, deck, b)
    box = page.get_by_label(f"Copies of {a.name}")
    box.fill("3")
    box.press("Tab")
    page.locator('#queue-status[data-state="failed"]').filter(has_text="kept in its box").wait_for()
    box = page.get_by_label(f"Copies of {a.name}")
    assert box.input_value() == "3" and box.get_attribute("aria-invalid") == "true"
    assert saved_counts(deck) == {a.collector_number: 1, b.collector_number: 2}
    box.focus()
    page.keyboard.press("Tab")
    page.locator('#queue-status[data-queue="0"][data-state="saved"]').wait_for()
    assert saved_counts(deck) == {a.collector_number: 3, b.collector_number: 2}  # the other window's change is kept


def test_one_redo_replays_an_undo_that_took_two_saves_and_one_undo_takes_it_back_again(page):
    """A tagged card's removal is taken back by two saves (its copies, then its tag): the redo of that undo is one
    step too, never a deck with the copies back and the tag gone that the player never made."""
    deck, a, b = open_deck_with_a_tag(page)
    count = page.locator(f'#panel li[data-card="{b.collector_number}"] input.count')
    count.fill("0")
    count.press("Tab")
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2}
    undo, redo = page.get_by_role("button", name="Undo"), page.get_by_role("button", name="Redo")
    undo.click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 1}
    assert Deck.objects.get(pk=deck.pk).entries.get(card=b).tag == "Ramp"
    redo.click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2}
    assert redo.is_disabled()
    undo.click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 1}
    assert Deck.objects.get(pk=deck.pk).entries.get(card=b).tag == "Ramp"


def test_a_pile_cards_count_shows_its_pending_copies_while_they_save(page):
    """Its face's count is what a player looks at in the piles: it counts the presses in flight, as the list's box
    does, marked while they save (it stayed at the saved count until every save was back)."""
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    page.goto(f"/decks/{deck.pk}/edit/?view=visual")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    slow_network(page, 1500)
    badge = page.locator(f'#piles li[data-card="{a.collector_number}"] .count-badge')
    assert badge.inner_text() == "×1"
    page.locator(f'#piles img[data-card="{a.collector_number}"]').focus()
    for _ in range(3):
        page.keyboard.press("+")
    assert badge.inner_text() == "×4"
    assert page.evaluate(f"""() => getComputedStyle(document.querySelector(
        '#piles li[data-card="{a.collector_number}"] .count-badge'), '::after').content""") == '" …"'
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 4} and badge.inner_text() == "×4"


def test_undo_pressed_by_keyboard_until_nothing_is_left_hands_the_focus_to_redo(page):
    """The button disables itself as its stack empties: the focus fell to the page."""
    a, = units(1)
    deck = open_deck(page, make_user(), [(a, 1)])
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    all_saved(page)
    page.locator("#undo").focus()
    page.keyboard.press("Enter")
    all_saved(page)
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'redo'")
    assert saved_counts(deck) == {a.collector_number: 1}
    page.keyboard.press("Enter")  # and Redo by the same key, the focus going back to Undo
    all_saved(page)
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'undo'")
    assert saved_counts(deck) == {a.collector_number: 2}


def test_legality_is_said_once_when_it_changes_by_a_status_that_stays_and_a_burst_is_read_when_it_ends(page):
    """The panel's legality was a live region replaced whole at every save (seldom read, or read with its advice);
    and the status said each count of a burst ("Saving 5 changes…", 4, 3…)."""
    a, = units(1)
    open_deck(page, make_user(), [(a, 1)])
    page.evaluate("window.said = document.getElementById('legality-said')")
    assert page.locator("#legality[aria-live], #legality [aria-live]").count() == 0
    slow_network(page, 500)
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    assert page.locator("#queue-status").get_attribute("aria-busy") == "true"  # read once it says how it ended
    all_saved(page)
    assert page.locator("#queue-status").get_attribute("aria-busy") == "false"
    said = page.locator("#legality-said")
    said.filter(has_text="Not legal").wait_for(state="attached")
    assert "2 cards" in said.text_content() and page.evaluate("document.getElementById('legality-said') === said")
    page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]').click()
    all_saved(page)
    page.locator("#legality-said").filter(has_text="3 cards").wait_for(state="attached")


def test_names_offered_in_quick_add_are_said_and_so_is_each_the_arrows_reach(page):
    """A screen reader heard nothing of the names: Enter took the first while its player thought it sent the line."""
    card = units(1)[0]
    open_deck(page, make_user())
    page.evaluate("window.said = document.getElementById('quick-said')")
    box = page.get_by_label("Quick add")
    box.press_sequentially(f"1 {card.name[:6]}")
    page.wait_for_function("() => document.querySelectorAll('#quick-options [role=option]').length > 0")
    names = page.locator("#quick-options [role=option]").all_inner_texts()
    said = page.locator("#quick-said")
    said.filter(has_text=f"offered: Enter adds {names[0]}; ↓ ↑ choose another.").wait_for(state="attached")
    if len(names) > 1:
        box.press("ArrowDown")
        assert said.text_content() == f"{names[1]}, 2 of {len(names)}"
    box.press("Escape")
    assert said.text_content() == "" and page.evaluate("document.getElementById('quick-said') === window.said")


def test_a_refused_import_puts_the_keyboard_on_what_was_refused(page):
    user = make_user()
    from .test_editor_browser import log_in

    log_in(page, user.username)
    page.goto("/decks/import/")
    page.get_by_label("Deck list").fill("2 Nosuch Card")
    page.get_by_role("button", name="Import").click()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'import-problems'")
    assert page.get_by_label("Deck list").get_attribute("aria-describedby") == "import-problems"


def test_the_counts_shown_while_saving_are_those_the_saves_will_leave(page):
    """The server takes a burst's presses one by one, refusing each past the copy limit or below none; the page
    summed them and bounded the sum once, so "+ −" at the limit showed the limit until both were saved (the "−" looked
    dropped), "− − − − +" at three showed none and a typed count was not counted at all."""
    a, b, c = units(3)
    deck = open_deck(page, make_user(), [(a, 4), (b, 3), (c, 2)])
    slow_network(page, 1000)
    row = lambda card: page.locator(f'#panel li[data-card="{card.collector_number}"]')  # noqa: E731
    row(a).locator('button[data-delta="1"]').click()  # refused: at most 4 copies (DC-4)
    row(a).locator('button[data-delta="-1"]').click()
    for delta in ("-1", "-1", "-1", "-1", "1"):  # the fourth "−" finds none left
        row(b).locator(f'button[data-delta="{delta}"]').click()
    row(c).locator("input.count").fill("1")
    row(c).locator("input.count").press("Tab")  # left: saved
    for _ in range(2):
        row(c).locator('button[data-delta="1"]').click()
    shown = shown_counts(page)
    assert shown == {a.collector_number: 3, b.collector_number: 1, c.collector_number: 3}
    assert page.locator("#panel li.pending").count() == 3  # still saving, each marked so
    page.locator('#queue-status[data-queue="0"]').wait_for(timeout=60_000)  # ten saves, one at a time
    all_saved(page)
    assert saved_counts(deck) == shown == shown_counts(page)


BAR_BOTTOM = "() => document.querySelector('.editor-bar').getBoundingClientRect().bottom"


def test_what_the_keyboard_reaches_going_up_shows_below_the_sticky_bar(page):
    """Shift+Tab back to the deck's name, from below, left the field under the bar (no scroll padding), and the bar's
    height was measured once, though a save's notice makes it taller."""
    a, = units(1)
    open_deck(page, make_user(), [(a, 1)])
    page.set_viewport_size({"width": 1366, "height": 768})
    name = page.locator("#deck-name")
    name.focus()
    page.keyboard.press("Tab")  # the control after the name, in the keyboard's order
    after = page.evaluate("(e => e.id || (e.id = 'after-name'))(document.activeElement)")
    page.evaluate("window.scrollTo(0, 400)")
    page.locator(f"#{after}").focus()
    page.evaluate("window.scrollTo(0, 400)")  # the field below the name in view, the name above the screen
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "deck-name"
    assert name.bounding_box()["y"] >= page.evaluate(BAR_BOTTOM) - 0.5
    # the bar grows with a long notice, and the page scrolls below the bar as it is now
    page.evaluate("document.getElementById('queue-status').textContent = 'A long notice. '.repeat(30)")
    page.wait_for_function("() => parseFloat(getComputedStyle(document.documentElement)"
                           ".getPropertyValue('--editor-bar')) === document.querySelector('.editor-bar').offsetHeight")


def test_the_odds_menu_stays_in_view_as_its_arrow_keys_change_the_statistics(page):
    """The panel beside the deck scrolled by itself as the statistics were swapped in (the browser's scroll
    anchoring), taking the focused menu out of view."""
    cards = units(3)
    open_deck(page, make_user(), [(card, 4) for card in cards])
    page.set_viewport_size({"width": 1366, "height": 768})
    menu = page.locator("#odds-category")
    menu.focus()
    before = menu.bounding_box()["y"]
    for _ in range(2):
        page.keyboard.press("ArrowDown")
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        page.wait_for_timeout(300)
        assert abs(page.locator("#odds-category").bounding_box()["y"] - before) < 2


def test_on_a_phone_the_bars_legality_link_closes_the_search_and_shows_the_legality(page):
    """With the search open over the deck, the bar's "Not legal · 1 problem" changed the address and nothing else:
    the legality lay inert under the search, and the focus fell to the page."""
    a, = units(1)
    page.set_viewport_size({"width": 390, "height": 844})
    open_deck(page, make_user(), [(a, 1)])
    page.get_by_role("button", name="Add cards").click()
    page.locator("#bar-legality").click()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'legality'")
    assert "search-open" not in page.locator("#editor").get_attribute("class")
    box = page.locator("#legality").bounding_box()
    assert 0 <= box["y"] < 844


def ready(page):
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")


def test_undo_and_redo_outlive_a_reload_unless_the_deck_was_saved_elsewhere_meanwhile(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1)])
    plus = page.locator(f'#panel li[data-card="{a.collector_number}"] button[data-delta="1"]')
    plus.click()
    all_saved(page)
    plus.click()
    all_saved(page)
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2}
    page.reload()
    ready(page)
    assert page.get_by_role("button", name="Redo").is_enabled()
    page.get_by_role("button", name="Redo").click()  # the undo made before the reload, replayed
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 3}
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    page.get_by_role("button", name="Undo").click()  # back past the reload, to the deck it was opened as
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 1}
    page.get_by_role("button", name="Redo").click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2}
    # Saved in another window while this page was away: the takebacks are not for that deck, and are dropped.
    page.goto("/decks/")
    another_window_adds_one(page, deck, a)
    page.goto(f"/decks/{deck.pk}/edit/")
    ready(page)
    assert page.get_by_role("button", name="Undo").is_disabled()
    assert page.get_by_role("button", name="Redo").is_disabled()
    assert saved_counts(deck) == {a.collector_number: 3}


def rows_shown(page) -> list[str]:
    return page.locator("#deck-list li[data-card]").evaluate_all("rows => rows.map(r => r.dataset.card)")


def test_sorted_by_vitality_or_copies_the_deck_stays_so_through_a_save_a_view_and_a_reload(page):
    chosen = list(Card.objects.filter(type="unit", is_unique=False).exclude(vitality=None).order_by("name")[:40])
    by_vitality = {c.vitality: c for c in chosen}
    cheap, dear = by_vitality[min(by_vitality)], by_vitality[max(by_vitality)]  # "cheap" need not come first by name
    named = sorted([cheap, dear], key=lambda c: c.name.casefold())
    deck = open_deck(page, make_user(), [(named[0], 1), (named[1], 3)])
    assert rows_shown(page) == [c.collector_number for c in named]
    sorting = page.get_by_role("navigation", name="Sort each group by")
    sorting.get_by_role("link", name="Vitality").click()
    page.wait_for_function("() => document.querySelector('#panel a[data-sort=vitality]')"
                           ".getAttribute('aria-current') === 'true'")
    assert rows_shown(page) == [cheap.collector_number, dear.collector_number]
    assert "sort=vitality" in page.url
    assert page.evaluate("document.activeElement.dataset.sort") == "vitality"  # the keyboard stays on the link
    sorting = page.get_by_role("navigation", name="Sort each group by")
    sorting.get_by_role("link", name="Copies").click()
    page.wait_for_function("() => document.querySelector('#panel a[data-sort=copies]')"
                           ".getAttribute('aria-current') === 'true'")
    copies = sorted(named, key=lambda c: -(1 if c == named[0] else 3))
    assert rows_shown(page) == [c.collector_number for c in copies]
    # A save answers the panel in the same order: the one copy made three, then four, goes first
    few = named[0]
    for _ in range(3):
        page.locator(f'#panel li[data-card="{few.collector_number}"] button[data-delta="1"]').click()
        all_saved(page)
    assert saved_counts(deck)[few.collector_number] == 4
    assert rows_shown(page) == [few.collector_number, named[1].collector_number]
    page.get_by_role("navigation", name="Deck view").get_by_role("link", name="Piles").click()
    page.locator("#piles").wait_for()
    faces = page.locator("#piles img[data-card]").evaluate_all("faces => faces.map(f => f.dataset.card)")
    assert faces == [few.collector_number, named[1].collector_number]
    assert "sort=copies" in page.url and "view=visual" in page.url
    page.reload()
    page.locator("#piles").wait_for()
    current = page.locator("#panel a[data-sort][aria-current=true]")
    assert current.get_attribute("data-sort") == "copies"


def test_cards_chosen_together_are_tagged_set_aside_and_removed_at_once_each_undone_in_one_step(page):
    a, b, c = units(3)
    deck = open_deck(page, make_user(), [(a, 2), (b, 3), (c, 1)])
    bar = page.get_by_role("group", name="The cards chosen")
    assert bar.is_hidden() and page.locator("#deck-list input.pick").first.is_hidden()
    page.get_by_label("Choose several cards").check()
    assert bar.is_visible() and bar.get_by_role("button", name="Remove").is_disabled()
    page.get_by_label(f"Choose {a.name}").check()
    page.get_by_label(f"Choose {b.name}").check()
    assert bar.locator("#bulk-count").text_content() == "2 cards chosen"

    def tags() -> dict[str, str]:
        from decks.selectors import deck_tags

        return deck_tags(Deck.objects.get(pk=deck.pk))

    bar.get_by_role("button", name="Tag…").click()
    dialog = page.get_by_role("dialog", name="Tag 2 cards")
    dialog.get_by_label("Tag", exact=False).first.fill("ramp")
    version = Deck.objects.get(pk=deck.pk).version
    dialog.get_by_role("button", name="Save the tag").click()
    page.wait_for_function("v => Number(document.getElementById('panel').dataset.version) > v", arg=version)
    all_saved(page)
    assert tags() == {a.collector_number: "ramp", b.collector_number: "ramp"}
    assert Deck.objects.get(pk=deck.pk).version == version + 1  # one version for both
    assert page.get_by_label(f"Choose {a.name}").is_checked()  # the choice outlives the save's panel
    page.get_by_role("button", name="Undo").click()  # one press takes both tags back, in one version
    all_saved(page)
    assert tags() == {} and Deck.objects.get(pk=deck.pk).version == version + 2
    page.get_by_role("button", name="Redo").click()
    all_saved(page)
    assert tags() == {a.collector_number: "ramp", b.collector_number: "ramp"}
    assert Deck.objects.get(pk=deck.pk).version == version + 3
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert tags() == {}

    version = Deck.objects.get(pk=deck.pk).version
    bar.get_by_role("button", name="Set aside").click()
    page.wait_for_function("v => Number(document.getElementById('panel').dataset.version) > v", arg=version)
    all_saved(page)
    assert saved_counts(deck) == {c.collector_number: 1}
    assert sorted(considering_of(Deck.objects.get(pk=deck.pk))) == sorted([(a.collector_number, 2),
                                                                          (b.collector_number, 3)])
    assert Deck.objects.get(pk=deck.pk).version == version + 1  # one version
    assert bar.locator("#bulk-count").text_content() == "No card chosen"  # the cards left the deck, and the choice
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 3, c.collector_number: 1}
    assert considering_of(Deck.objects.get(pk=deck.pk)) == []

    page.get_by_label(f"Choose {a.name}").check()
    page.get_by_label(f"Choose {c.name}").check()
    version = Deck.objects.get(pk=deck.pk).version
    bar.get_by_role("button", name="Remove").click()
    page.wait_for_function("v => Number(document.getElementById('panel').dataset.version) > v", arg=version)
    all_saved(page)
    assert saved_counts(deck) == {b.collector_number: 3}
    page.get_by_role("button", name="Undo").click()
    all_saved(page)
    assert saved_counts(deck) == {a.collector_number: 2, b.collector_number: 3, c.collector_number: 1}
    page.get_by_label("Choose several cards").uncheck()
    assert bar.is_hidden() and page.locator("#deck-list input.pick").first.is_hidden()


def test_in_the_piles_cards_chosen_on_their_faces_are_set_aside_and_tagged_at_once(page):
    a, b, c = units(3)
    deck = open_deck(page, make_user(), [(a, 2), (b, 3), (c, 1)])
    page.get_by_role("navigation", name="Deck view").get_by_role("link", name="Piles").click()
    page.locator("#piles").wait_for()
    assert page.locator("#piles input.pick").first.is_hidden()
    page.get_by_label("Choose several cards").check()
    page.locator("#piles").get_by_label(f"Choose {a.name}").check()
    page.locator("#piles").get_by_label(f"Choose {c.name}").check()
    bar = page.get_by_role("group", name="The cards chosen")
    assert bar.locator("#bulk-count").text_content() == "2 cards chosen"
    version = Deck.objects.get(pk=deck.pk).version
    bar.get_by_role("button", name="Tag…").click()
    page.get_by_role("dialog", name="Tag 2 cards").locator("#tag-name").fill("Early")
    page.get_by_role("button", name="Save the tag").click()
    page.wait_for_function("v => Number(document.getElementById('panel').dataset.version) > v", arg=version)
    all_saved(page)
    from decks.selectors import deck_tags

    assert deck_tags(Deck.objects.get(pk=deck.pk)) == {a.collector_number: "Early", c.collector_number: "Early"}
    assert page.locator("#piles").get_by_label(f"Choose {a.name}").is_checked()  # kept through the new panel
    bar.get_by_role("button", name="Set aside").click()
    page.wait_for_function("v => Number(document.getElementById('panel').dataset.version) > v", arg=version + 1)
    all_saved(page)
    assert saved_counts(deck) == {b.collector_number: 3}
    assert Deck.objects.get(pk=deck.pk).version == version + 2  # a version each
    assert page.locator("#piles").is_visible()  # still the piles


def test_shift_and_a_click_choose_every_card_between_the_box_clicked_before_and_this_one(page):
    open_deck(page, make_user(), [(card, 1) for card in units(4)])
    page.get_by_label("Choose several cards").check()
    boxes = page.locator("#deck-list input.pick")  # in the list's order

    def chosen() -> list[bool]:
        return boxes.evaluate_all("boxes => boxes.map(b => b.checked)")

    boxes.nth(0).click()
    boxes.nth(2).click(modifiers=["Shift"])
    assert chosen() == [True, True, True, False]
    assert page.locator("#bulk-count").text_content() == "3 cards chosen"
    boxes.nth(1).click(modifiers=["Shift"])  # letting one go lets go of those from the last box clicked to it
    assert chosen() == [True, False, False, False]


def test_a_tag_refused_for_cards_chosen_together_comes_back_in_its_dialog_and_saved_again_tags_them(page):
    a, b = units(2)
    deck = open_deck(page, make_user(), [(a, 1), (b, 1)])
    page.get_by_label("Choose several cards").check()
    page.get_by_label(f"Choose {a.name}").check()
    page.get_by_label(f"Choose {b.name}").check()
    page.get_by_role("button", name="Tag…").click()
    long_tag = "a tag far longer than the thirty characters allowed"
    page.get_by_role("dialog").locator("#tag-name").fill(long_tag)
    page.get_by_role("button", name="Save the tag").click()
    page.locator("#tag-problem").filter(has_text="at most 30 characters").wait_for()  # back, with the server's words
    dialog = page.get_by_role("dialog", name="Tag 2 cards")
    assert dialog.locator("#tag-name").input_value() == long_tag
    all_saved(page)
    from decks.selectors import deck_tags

    assert deck_tags(Deck.objects.get(pk=deck.pk)) == {}  # neither card tagged: the save is all or nothing
    dialog.locator("#tag-name").fill("ramp")
    dialog.get_by_role("button", name="Save the tag").click()
    page.wait_for_function("() => document.querySelectorAll('#deck-list .card-tag').length === 2")
    all_saved(page)
    assert deck_tags(Deck.objects.get(pk=deck.pk)) == {a.collector_number: "ramp", b.collector_number: "ramp"}
