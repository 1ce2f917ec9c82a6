"""The deck editor's page in headless Chromium: the card preview on hover and focus, the sample hand with its
mulligan, the legality beside the deck while the page scrolls, a phone's layout, axe-core, and the CSP."""

from __future__ import annotations

import pytest

from cards.models import Card
from decks import selectors
from decks.considering import deck_tag_card
from decks.models import Deck
from decks.services import deck_copy, deck_create
from playtest.goldfish import services as tables
from tests.a11y.test_axe import axe_violations
from tests.playtest.goldfish.test_table_browser import click_step, next_step, open_table
from tests.security.test_csp_browser import violations as csp_violations
from tests.security.test_csp_browser import watch
from tests.support import live_db

from .factories import entries_of, make_user
from .test_editor_browser import log_in
from .test_editor_input_browser import all_saved, saved_counts

pytestmark = [pytest.mark.browser, live_db]

LAYOUT_PROBLEMS = """() => {
  const problems = [], width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) problems.push(`page scrolls sideways`);
  for (const e of document.querySelectorAll('main *')) {
    if (e.offsetParent === null || e.closest('.card-zoom, .visually-hidden')) continue;
    const r = e.getBoundingClientRect();
    if (r.width && (r.right > width + 1 || r.left < -1)) problems.push(`${e.tagName}.${e.className} leaves the page`);
  }
  // Pile cards stack on purpose (each shows its band); the piles themselves must not overlap.
  const boxes = '#panel li[data-card]:not(.pile-card), #piles .pile, .editor-bar > *, .editor-search > *';
  const rows = [...document.querySelectorAll(boxes)]
    .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect());
  for (let i = 0; i < rows.length; i++) for (let j = i + 1; j < rows.length; j++) {
    const [a, b] = [rows[i], rows[j]];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      problems.push(`boxes ${i} and ${j} overlap`);
  }
  return problems.slice(0, 20);
}"""


@pytest.fixture
def starter_copy():
    user = make_user()
    deck = deck_copy(deck=Deck.objects.filter(is_starter=True).order_by("pk").first(), owner=user, name="Page deck")
    return user, deck


def open_editor(page, user, deck, view="list"):
    log_in(page, user.username)
    page.goto(f"/decks/{deck.pk}/edit/?view={view}")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")


def test_hovering_or_focusing_a_card_name_shows_its_large_face_and_rules_text(page, starter_copy):
    user, deck = starter_copy
    open_editor(page, user, deck)
    row = page.locator("#panel li[data-card]").first
    number = row.get_attribute("data-card")
    card = Card.objects.get(collector_number=number)
    row.locator("a.card-name").hover()
    preview = page.locator("#card-preview")
    preview.wait_for()
    assert card.name in preview.inner_text() and (card.text[:20] in preview.inner_text())
    assert preview.locator("img").get_attribute("src").endswith(f"/cards/{number}.svg")
    assert row.locator("a.card-name").get_attribute("aria-describedby") == "card-preview"
    assert preview.evaluate("e => !!e.closest('main')")  # in a landmark (axe: region)
    assert [v for v in axe_violations(page) if v["id"] == "region"] == []
    page.keyboard.press("Escape")
    preview.wait_for(state="detached")
    page.get_by_label("Search cards").fill("t:unit")
    result = page.locator("#results a.card-name").first
    result.focus()  # by keyboard alone
    preview.wait_for()
    assert result.inner_text() in preview.inner_text()


def test_a_pile_card_keeps_its_key_instructions_beside_the_preview_and_after_it(page, starter_copy):
    user, deck = starter_copy
    open_editor(page, user, deck)
    page.goto(f"/decks/{deck.pk}/edit/?view=visual")
    face = page.locator("#piles img[data-card]").first
    face.focus()
    page.locator("#card-preview").wait_for()
    assert face.get_attribute("aria-describedby") == "pile-keys card-preview"
    page.keyboard.press("Escape")
    page.locator("#card-preview").wait_for(state="detached")
    assert face.get_attribute("aria-describedby") == "pile-keys"
    page.evaluate("document.activeElement.blur()")  # by pointer now
    face.hover(position={"x": 30, "y": 12})  # its name band: the next card in the pile covers the rest
    page.locator("#card-preview").wait_for()
    page.mouse.move(1, 1)
    page.locator("#card-preview").wait_for(state="detached")
    assert face.get_attribute("aria-describedby") == "pile-keys"


def test_a_card_focused_again_before_its_preview_arrives_shows_one_preview_which_goes_with_the_focus(
        page, starter_copy):
    user, deck = starter_copy
    open_editor(page, user, deck)
    page.goto(f"/decks/{deck.pk}/edit/?view=visual")
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    # Faster than the preview's fetch: the card, away, and back (a quick T on a pile card does the same).
    page.evaluate("""() => { const face = document.querySelector('#piles img[data-card]');
                             face.focus(); document.getElementById('deck-name').focus(); face.focus(); }""")
    page.locator("#card-preview").wait_for()
    page.wait_for_timeout(300)  # any second answer has arrived by now
    assert page.locator(".card-zoom.floating").count() == 1
    page.locator("#deck-name").focus()
    page.locator("#card-preview").wait_for(state="detached")
    assert page.locator(".card-zoom.floating").count() == 0


def test_the_catalog_shows_the_same_preview_and_a_phone_reads_its_grid(phone_page):
    page = phone_page
    page.goto("/cards/?q=t:unit&view=grid")
    caption = page.locator(".card-grid .card-caption strong").first
    caption.wait_for()
    assert float(caption.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 14
    line = page.locator(".card-grid .card-line").first
    assert float(line.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 12
    assert "Vit" in line.inner_text()
    tops = page.eval_on_selector_all(".card-grid li",
                                     "items => items.slice(0, 3).map(i => i.getBoundingClientRect().top)")
    assert tops[0] < tops[1] < tops[2]  # one card a row
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
    page.locator(".card-grid a").first.focus()
    page.locator("#card-preview").wait_for()


def test_a_sample_hand_is_drawn_from_the_deck_with_one_mulligan_then_the_next_cards(page, starter_copy):
    user, deck = starter_copy
    open_editor(page, user, deck)
    names = set(page.eval_on_selector_all("#panel li[data-card]", "rows => rows.map(r => r.dataset.name)"))
    page.get_by_role("button", name="Draw a hand").click()
    hand = page.locator("#hand-cards img")
    assert hand.count() == 6  # DG-4.4
    assert {alt for alt in hand.evaluate_all("imgs => imgs.map(i => i.alt)")} <= names
    assert axe_violations(page) == []  # each card named once to a screen reader, by its face
    status = page.locator("#hand-status")
    assert f"{deck.card_count - 6} left in the deck" in status.inner_text()
    mulligan = page.get_by_role("button", name="Mulligan")
    mulligan.focus()
    page.keyboard.press("Enter")  # by keyboard: the button disables itself, and the focus goes on
    assert "kept" in status.inner_text() and hand.count() == 6
    assert mulligan.is_disabled()  # one mulligan (DG-4.5)
    assert page.evaluate("document.activeElement.id") == "draw-next"
    page.get_by_role("button", name="Draw the next card").click()
    assert hand.count() == 7 and f"{deck.card_count - 7} left in the deck" in status.inner_text()
    link = page.get_by_role("link", name="Play it at a goldfish table")
    assert link.get_attribute("href") == f"/playtest/new/?deck={deck.pk}"
    # On a phone the buttons stay in sight beside the latest card drawn, however far down the hand has grown.
    page.set_viewport_size({"width": 390, "height": 844})
    for _ in range(4):
        page.get_by_role("button", name="Draw the next card").click()
        hand.last.scroll_into_view_if_needed()
        box = page.get_by_role("button", name="Draw the next card").bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844


def test_enter_held_down_on_draw_the_next_card_never_deals_a_new_hand_when_the_deck_runs_out(page):
    """The last draw disables its button and puts the focus on "Draw a hand": the held key's repeats pressed it, and
    the cards drawn gave way to a new hand."""
    user = make_user()
    cards = list(Card.objects.filter(type="unit", is_unique=False).order_by("name")[:2])
    deck = deck_create(owner=user, name="Eight", entries=entries_of((cards[0], 4), (cards[1], 4)))
    open_editor(page, user, deck)
    page.get_by_role("button", name="Draw a hand").click()
    page.get_by_role("button", name="Draw the next card").focus()
    for _ in range(6):
        page.keyboard.down("Enter")  # held: the second and later are repeats
    page.keyboard.up("Enter")
    assert page.locator("#hand-cards img").count() == 8
    assert "8 in hand, 0 left in the deck" in page.locator("#hand-status").inner_text()


def test_question_mark_shows_the_editors_keys_and_escape_puts_the_keyboard_back(page, starter_copy):
    user, deck = starter_copy
    open_editor(page, user, deck)
    page.locator("#panel li[data-card] button").first.focus()
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keys of the editor")
    dialog.wait_for()
    assert "Set a copy aside on the considering list" in dialog.inner_text()
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.closest('#panel li[data-card]') !== null")
    page.get_by_label("Quick add").focus()
    page.keyboard.press("?")  # typed in a box: a character, not the keys
    assert dialog.is_hidden() and page.get_by_label("Quick add").input_value() == "?"
    page.get_by_role("button", name="Keys").click()
    dialog.wait_for()


def test_the_legality_stays_in_view_while_the_deck_scrolls(page, starter_copy):
    user, deck = starter_copy
    page.set_viewport_size({"width": 1280, "height": 800})
    open_editor(page, user, deck, view="visual")
    page.evaluate("window.scrollTo(0, 1500)")
    badge = page.locator("#legality .badge")
    box = badge.bounding_box()
    assert page.evaluate("window.scrollY") > 500
    assert 0 <= box["y"] <= 800 - box["height"], box
    status = page.locator("#queue-status").bounding_box()
    assert 0 <= status["y"] <= 800


@pytest.mark.parametrize("width", [1280, 390])
def test_the_editor_is_clean_for_axe_in_both_views_and_nothing_overflows(page, starter_copy, width):
    user, deck = starter_copy
    page.set_viewport_size({"width": width, "height": 860})
    for view in ("list", "visual"):
        open_editor(page, user, deck, view=view)
        assert axe_violations(page) == []
        assert page.evaluate(LAYOUT_PROBLEMS) == []
    face = page.locator("#piles img[data-card]").first
    if face.is_visible():
        face.focus()
        page.keyboard.press("t")  # the tag dialog, open over the piles
    else:  # a phone's piles are lists of names, each with its buttons
        page.locator("#panel button[data-retag]").first.click()
    page.get_by_role("dialog").wait_for()
    assert axe_violations(page) == []
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Edit as text").click()  # the deck as text, in its dialog
    page.get_by_role("dialog", name="Edit the deck as text").get_by_label("Main deck").wait_for()
    assert axe_violations(page) == []
    assert page.evaluate(LAYOUT_PROBLEMS) == []


def test_no_csp_violation_on_the_catalog_the_editor_and_the_deck_page(page, starter_copy):
    user, deck = starter_copy
    problems, seen = watch(page), []
    page.goto("/cards/?q=t:unit")
    page.locator("#results a[data-preview]").first.hover()
    page.locator("#card-preview").wait_for()
    seen += csp_violations(page)
    open_editor(page, user, deck)
    page.get_by_label("Search cards").fill("t:unit c:hinter")
    page.locator("#results button.add-card").first.click()
    page.get_by_label("Quick add").fill("-1 " + page.locator("#panel li[data-card]").first.get_attribute("data-name"))
    page.get_by_label("Quick add").press("Enter")
    page.locator('#queue-status[data-queue="0"][data-state="saved"]').wait_for()
    page.locator("#panel a.card-name").first.hover()
    page.locator("#card-preview").wait_for()
    page.get_by_role("button", name="Draw a hand").click()
    page.get_by_role("link", name="Piles").click()
    page.locator("#deck-view[value=visual]").wait_for(state="attached")
    page.locator("#piles img[data-card]").last.focus()
    page.keyboard.press("-")
    page.locator('#queue-status[data-queue="0"]').wait_for()
    seen += csp_violations(page)
    page.goto(f"/decks/{deck.pk}/")
    page.locator("#legality").wait_for()
    seen += csp_violations(page)
    # The goldfish table: opened, a card selected and played, its large view shown.
    table = open_table(page, user)
    state = tables.table_state(table)
    click_step(page, state, next_step(state, tables.human_seat(state), set()))
    page.locator(".hand a.hand-card").first.hover()
    seen += csp_violations(page)
    assert seen == [] and problems == []


def test_on_a_phone_the_search_opens_over_the_deck_and_adds_to_it(phone_page, starter_copy):
    page = phone_page
    user, deck = starter_copy
    open_editor(page, user, deck)
    assert not page.get_by_label("Quick add").is_visible()
    page.get_by_role("button", name="Add cards").click()
    box = page.get_by_label("Quick add")
    assert box.is_visible() and box.evaluate("e => e === document.activeElement")
    # Tab stays in the search and its bar: the deck under it was reached, its name box typed into unseen.
    for _ in range(25):
        page.keyboard.press("Tab")
        assert page.evaluate("""() => { const e = document.activeElement;
          return e === document.body || !!e.closest('#editor-search, .editor-bar'); }"""), \
            page.evaluate("document.activeElement.outerHTML")  # the page's end (the browser's own controls) aside
    box.focus()
    row = page.locator('#panel li[data-card]:not([data-count="1"])').first
    name, count = row.get_attribute("data-name"), int(row.get_attribute("data-count"))
    box.fill(f"-1 {name}")
    box.press("Enter")
    page.locator('#queue-status[data-queue="0"][data-state="saved"]').wait_for()
    assert page.locator(f'#panel li[data-name="{name}"]').get_attribute("data-count") == str(count - 1)
    # A touch screen has no Enter key beside the box nor arrows: an Add button takes the line, and the hint says
    # nothing of keys.
    box.fill(f"1 {name}")
    page.locator("#quick-add").get_by_role("button", name="Add", exact=True).tap()
    page.locator('#queue-status[data-queue="0"][data-state="saved"]').wait_for()
    assert page.locator(f'#panel li[data-name="{name}"]').get_attribute("data-count") == str(count)
    assert page.locator("#quick-keys").inner_text() == "Add adds the line(s); a tap or click chooses a name offered " \
                                                       "as you type."
    box.focus()
    # A refused change says why where the panel leaves it in sight, with undo beside it.
    box.fill(f"9 {name}")
    box.press("Enter")
    page.locator('#queue-status[data-queue="0"]').filter(has_text="at most").wait_for()
    for control in ("#queue-status", "#undo"):
        assert page.evaluate("""selector => { const e = document.querySelector(selector), b = e.getBoundingClientRect();
          const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
          return b.bottom <= window.innerHeight && (hit === e || e.contains(hit)); }""", control), control
    page.get_by_role("button", name="Done").click()
    assert page.locator(f'#panel li[data-name="{name}"]').get_attribute("data-count") == "4"  # 9 asked: up to 4
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
    # "Go to the deck" from the search closes it, and the deck has the focus.
    page.get_by_role("button", name="Add cards").click()
    page.get_by_role("link", name="Go to the deck and its legality").click()
    assert not page.get_by_label("Quick add").is_visible()
    assert page.evaluate("document.activeElement.id") == "panel"


def test_the_history_of_a_deck_renamed_with_one_long_word_fits_a_1024_screen(page, starter_copy):
    """A change's message names the deck's new name; one word of 100 letters widened the table past the screen, and
    "Revert to this" could be reached only by scrolling the table sideways."""
    from decks.services import deck_update

    user, deck = starter_copy
    deck_update(deck=deck, actor=user, expected_version=deck.version, name="W" * 100, message="Name: Page deck → " +
                "W" * 100)
    log_in(page, user.username)
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"/decks/{deck.pk}/history/")
    region = page.get_by_role("region", name="Versions")
    assert region.evaluate("r => r.scrollWidth <= r.clientWidth")
    revert = page.get_by_role("button", name="Revert to this").first.bounding_box()
    assert revert["x"] + revert["width"] <= 1024


def test_a_new_deck_starts_in_its_name_and_quick_add_grows_with_its_lines(page, starter_copy):
    user, deck = starter_copy
    open_editor(page, user, deck)
    quick = page.locator("#quick")
    one = quick.bounding_box()["height"]
    quick.fill("1 A\n2 B\n3 C\n4 D")
    assert quick.bounding_box()["height"] > one * 2  # the lines can be read before Enter
    page.goto("/decks/new/")
    page.wait_for_function("() => document.activeElement.id === 'new-name'")  # autofocus, once the page has run it


def test_on_a_phone_the_piles_show_each_cards_tag_whole(phone_page, starter_copy):
    user, deck = starter_copy
    tags = {"Ramp": None, "the long plan of this deck, 30": None}
    for entry, tag in zip(selectors.deck_entries(deck)[:2], tags, strict=True):
        deck, _ = deck_tag_card(deck=deck, actor=user, card=entry.card, tag=tag)
    open_editor(phone_page, user, deck, view="visual")
    shown = phone_page.locator("#piles .pile-tag")
    assert shown.count() == 2
    for i in range(2):
        tag = shown.nth(i)
        assert tag.is_visible() and tag.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        assert tag.inner_text().strip().removeprefix("· tag: ") in tags
    assert phone_page.evaluate(LAYOUT_PROBLEMS) == []


def test_on_a_phone_the_bar_says_whether_the_deck_is_legal_and_follows_each_save(phone_page, starter_copy):
    """The legality sits below the whole deck on a phone, two or three screens down."""
    user, deck = starter_copy
    open_editor(phone_page, user, deck)
    bar = phone_page.locator("#bar-legality")
    assert bar.is_visible() and bar.inner_text() == f"Legal · {deck.card_count} cards"
    box = bar.bounding_box()
    assert box["y"] + box["height"] <= 844
    phone_page.get_by_role("button", name="Add cards").tap()
    assert not phone_page.locator("#search-keys .keys-hint").is_visible()  # no keys to press on a touch screen
    assert phone_page.locator("#search-keys a.jump").is_visible()
    phone_page.get_by_role("link", name="Go to the deck and its legality").tap()
    phone_page.get_by_label("Format").select_option("tactical")  # its legend is not played in Tactical (DC-8)
    phone_page.locator('#bar-legality[data-legal="false"]').wait_for()
    assert bar.inner_text().startswith("Not legal · ")


def test_the_odds_keep_the_keyboards_place_and_say_what_they_could_not_use(page, starter_copy):
    """The statistics are swapped in whole at each change: the focus fell to the page's start, so a second arrow
    key did nothing; and a number out of range was kept in its box beside the odds of the value before it."""
    user, deck = starter_copy
    open_editor(page, user, deck)
    category = page.locator("#odds-category")
    first = category.input_value()
    category.focus()
    page.keyboard.press("ArrowDown")
    page.wait_for_function("v => document.querySelector('#odds-category').value !== v", arg=first)
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
    assert page.evaluate("document.activeElement.id") == "odds-category"
    second = category.input_value()
    page.keyboard.press("ArrowDown")  # the focus is still there: the next category
    page.wait_for_function("v => document.querySelector('#odds-category').value !== v", arg=second)
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")  # that section in
    page.locator("#odds-hand").fill("99")
    page.keyboard.press("Tab")
    page.locator("#odds-problems").wait_for()
    said = page.locator("#odds-problems").inner_text()
    assert "“99” is not a whole number from 0 to 20; the odds below use 6." in said
    assert page.locator("#odds-hand").input_value() == "6"
    page.wait_for_function("() => document.activeElement.id === 'odds-draws'", timeout=5_000)


# Each result's face: shown, and its image loaded (a face drawn in a list would load every result's image).
FACES = """() => [...document.querySelectorAll('#results li[data-card]')].map(li => {
  const face = li.querySelector('img.result-face'), box = face.getBoundingClientRect();
  return [li.dataset.card, box.width > 0 && box.height > 0, face.complete && face.naturalWidth > 0, face.alt];
})"""


def test_the_search_shows_the_cards_faces_when_asked_adds_from_them_and_keeps_the_choice(page, starter_copy):
    user, deck = starter_copy
    page.set_viewport_size({"width": 1280, "height": 860})
    open_editor(page, user, deck)
    page.get_by_label("Search cards").fill("t:unit vit<=2")
    page.locator("#results li[data-card]").first.wait_for()
    listed = page.evaluate(FACES)
    assert listed and not any(shown or loaded for _, shown, loaded, _ in listed)  # a list: no face drawn or loaded
    page.get_by_label("Show the cards' faces").check()
    # the faces in view load (those further down as the results scroll to them: loading="lazy")
    page.wait_for_function("() => [...document.querySelectorAll('#results img.result-face')].slice(0, 2).every("
                           "f => f.complete && f.naturalWidth > 0)")
    faces = page.evaluate(FACES)
    assert all(shown and alt == "" for _, shown, _, alt in faces)  # each named by the link under it
    boxes = [page.locator("#results li[data-card]").nth(i).bounding_box() for i in range(2)]
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[1]["x"] > boxes[0]["x"]  # side by side: a grid of faces
    assert axe_violations(page) == []
    first = faces[0][0]
    before = saved_counts(deck).get(first, 0)
    page.locator(f'#results li[data-card="{first}"] .add-card').click()
    all_saved(page)
    assert saved_counts(deck).get(first, 0) == before + 1
    page.reload()  # the choice is kept: the next search shows faces again
    page.wait_for_function("() => document.getElementById('editor').dataset.ready === 'true'")
    assert page.get_by_label("Show the cards' faces").is_checked()
    page.get_by_label("Search cards").fill("t:unit vit<=2")
    page.locator("#results li[data-card]").first.wait_for()
    page.wait_for_function("() => document.querySelector('#results img.result-face').naturalWidth > 0")
    page.get_by_label("Show the cards' faces").uncheck()
    assert not any(shown for _, shown, _, _ in page.evaluate(FACES))
