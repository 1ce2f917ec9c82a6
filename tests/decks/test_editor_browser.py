"""The deck editor in headless Chromium: build a deck from empty to legal, watch the badge change,
export it and import it back."""

import pytest

from cards.models import Card
from decks.models import Deck
from decks.selectors import deck_entries
from tests.support import live_db

from .factories import make_user

pytestmark = [pytest.mark.browser, live_db]


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("pw-for-tests-only")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def open_editor(page):
    """Create the deck and wait until the editor's scripts run (htmx is deferred: typing earlier is lost)."""
    page.get_by_role("button", name="Create and edit").click()
    page.wait_for_url("**/edit/")
    page.wait_for_function("() => window.htmx !== undefined")


def wait_saved(page, version):
    page.locator("#save-status").filter(has_text=f"version {version})").wait_for()


def test_build_a_deck_from_empty_to_legal_then_export_and_import_it(page):
    user = make_user("builder")
    query = "t:unit c:champion -is:unique"
    expected = list(Card.objects.filter(type="unit", craft="champion", is_unique=False).order_by("name")[:9])
    assert len(expected) == 9
    log_in(page, user.username)

    page.goto("/decks/new/")
    page.get_by_label("Name").fill("Browser built")
    open_editor(page)
    badge = page.locator("#legality .badge")
    badge.filter(has_text="Not legal").wait_for()
    assert "0 cards" in badge.inner_text()

    search = page.get_by_label("Search cards")
    search.fill(query)
    page.locator(f'#results[data-query="{query}"] button.add-card').first.wait_for()
    search.press("Enter")  # the keyboard adds the first result
    version = 2
    wait_saved(page, version)
    assert "1 card" in badge.inner_text() and "1 cards" not in badge.inner_text()

    for i, card in enumerate(expected):
        row = page.locator(f'#panel li[data-card="{card.collector_number}"]')
        if i:  # one click on the result's Add button
            page.locator(f'#results button.add-card[data-card="{card.collector_number}"]').click()
            version += 1
            wait_saved(page, version)
        count = row.get_by_label(f"Copies of {card.name}")
        count.fill("4")
        count.press("Tab")  # change event: saved at once
        version += 1
        wait_saved(page, version)
        if i < 8:
            assert "Not legal" in badge.inner_text()
    badge.filter(has_text="Legal · Standard · 36 cards").wait_for()
    assert page.locator("#legality .issue-error").count() == 0

    deck = Deck.objects.get(owner=user)
    assert deck.is_legal and deck.card_count == 36 and deck.version == version
    built = sorted((e.card.collector_number, e.count) for e in deck_entries(deck))
    assert built == sorted((c.collector_number, 4) for c in expected)

    # One too many copies (DC-5): refused with the reason, and the count stays at 4.
    row = page.locator(f'#panel li[data-card="{expected[0].collector_number}"]')
    row.get_by_role("button", name=f"One more {expected[0].name}").click()
    page.locator('#queue-status[data-state="failed"]').filter(has_text="at most 4 copies").wait_for()
    assert row.get_by_label(f"Copies of {expected[0].name}").input_value() == "4"
    badge.filter(has_text="Legal ·").wait_for()
    assert Deck.objects.get(owner=user).version == version

    page.goto(f"/decks/{deck.pk}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Export text").click()
    exported = open(download.value.path(), encoding="utf-8").read()
    assert "Units (36)" in exported

    page.goto("/decks/import/")
    page.get_by_label("Deck list").fill(exported)
    page.get_by_label("Name").fill("Imported back")
    page.get_by_role("button", name="Import").click()
    page.locator("#legality .badge").filter(has_text="Legal · Standard · 36 cards").wait_for()
    imported = Deck.objects.get(owner=user, name="Imported back")
    assert sorted((e.card.collector_number, e.count) for e in deck_entries(imported)) == built


def test_import_page_lists_every_bad_line(page):
    user = make_user("importer")
    log_in(page, user.username)
    page.goto("/decks/import/")
    page.get_by_label("Deck list").fill("4 Glyph of Shadows\nfour Pilfer\n2 Pilferr\n")
    page.get_by_role("button", name="Import").click()
    problems = page.locator(".import-problems li")
    problems.first.wait_for()
    texts = problems.all_inner_texts()
    assert [t.split(" ")[1] for t in texts] == ["1", "2", "3"]
    assert "unique icon" in texts[0] and "Did you mean Pilfer" in texts[2]
    assert not Deck.objects.filter(owner=user).exists()


def test_an_import_too_long_to_send_is_said_in_the_page_and_the_pasted_text_stays(page, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 20_000  # the page reads it; 1 MB as deployed, slow to lay out in a box
    user = make_user("importer")
    log_in(page, user.username)
    page.goto("/decks/import/")
    pasted = "4 Glyph of Shadows\n" * 2_000  # about 40 KB, twice what the server takes
    page.get_by_label("Deck list").evaluate("(box, text) => { box.value = text; }", pasted)  # as a paste would
    sent = []
    page.on("request", lambda request: sent.append(request) if request.method == "POST" else None)
    page.get_by_role("button", name="Import").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "Nothing was sent" in alert.inner_text() and "20,000" in alert.inner_text()
    assert not sent and page.url.endswith("/decks/import/")
    assert page.get_by_label("Deck list").evaluate("box => box.value.length") == len(pasted)
    assert page.evaluate("() => document.activeElement.id") == "import-list"
    assert not Deck.objects.filter(owner=user).exists()


def test_editor_and_deck_page_fit_a_phone(phone_page):
    page = phone_page
    from decks.starters import load_starter_decks
    load_starter_decks()  # live-server tests flush decks between tests
    user = make_user("phoneuser")
    log_in(page, user.username)
    starter = Deck.objects.filter(is_starter=True).order_by("starter_key").first()
    page.goto(f"/decks/{starter.pk}/")
    page.locator("#legality .badge").filter(has_text="Legal").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("button", name="Clone").click()
    page.locator("#panel").wait_for()
    assert not page.get_by_label("Search cards").is_visible()  # the deck fills the phone's screen
    page.get_by_role("button", name="Add cards").click()  # the search opens over it
    assert page.get_by_label("Search cards").is_visible() and page.get_by_label("Quick add").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    copy = Deck.objects.get(owner=user)
    assert copy.copied_from == starter and copy.card_count == starter.card_count


def test_quick_clicks_on_add_are_all_saved_in_order(page):
    user = make_user("quickclicker")
    card = Card.objects.filter(type="unit", craft="hinter", is_unique=False).order_by("name").first()
    log_in(page, user.username)
    page.goto("/decks/new/")
    page.get_by_label("Name").fill("Quick")
    open_editor(page)
    page.get_by_label("Search cards").fill("t:unit c:hinter -is:unique")
    add = page.locator(f'#results button.add-card[data-card="{card.collector_number}"]')
    add.wait_for()
    for _ in range(4):
        add.click()  # no waiting: the editor queues its saves
    wait_saved(page, 5)
    assert page.locator(f'#panel li[data-card="{card.collector_number}"] input.count').input_value() == "4"
    assert Deck.objects.get(owner=user).entries.get().count == 4
    assert page.locator("#save-status.failed").count() == 0


def test_a_search_says_what_it_found_in_one_status_that_stays_in_place(page):
    """The results are not a live region (a keystroke's list was read out whole); one status, the same element from
    answer to answer, says how many cards match or what is wrong with the query."""
    user = make_user("searcher")
    log_in(page, user.username)
    page.goto("/decks/new/")
    page.get_by_label("Name").fill("Status deck")
    open_editor(page)
    page.evaluate("document.getElementById('search-status').kept = true")
    search, status = page.get_by_label("Search cards"), page.get_by_role("status").and_(page.locator("#search-status"))
    expected = Card.objects.filter(type="unit", craft="champion", is_unique=True, vitality=2).count()
    assert 1 < expected < 30
    search.fill("t:unit c:champion is:unique vit=2")
    status.filter(has_text=f"{expected} cards match.").wait_for(state="attached")
    assert page.locator("#results li").count() == expected
    search.fill("t:unit c:champion")
    status.filter(has_text="The first 30 matches are shown; more cards match.").wait_for(state="attached")
    search.fill("vit<=")
    status.filter(has_text="Search problem").wait_for(state="attached")
    assert page.evaluate("document.getElementById('search-status').kept") is True
    assert page.locator("#results[aria-live], #results [aria-live]").count() == 0
