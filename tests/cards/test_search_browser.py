"""The catalog page in headless Chromium: type a query, see the right cards, sort, open a card page."""

import pytest
from django.db.models import F

from cards.models import Card
from tests.conftest import live_db

pytestmark = [pytest.mark.browser, live_db]


def expected_names(order_by):
    return list(Card.objects.filter(type="legend").order_by(*order_by).values_list("name", flat=True))


def test_type_a_query_sort_the_table_and_open_a_card(page):
    by_name = expected_names(["name"])
    by_attack = expected_names([F("attack").desc(), "name"])
    assert len(by_name) >= 6  # the catalog's legends

    page.goto("/cards/")
    page.get_by_label("Search").fill("t:legend")
    page.keyboard.press("Enter")
    page.get_by_role("status").filter(has_text=f"{len(by_name)} cards").wait_for()
    assert page.locator(".card-caption strong").all_inner_texts() == by_name
    assert "q=t%3Alegend" in page.url  # the query lives in the URL

    page.get_by_label("table").check()
    page.locator("table.card-table").wait_for()
    page.get_by_label("Sort by").select_option("atk")
    page.get_by_role("status").filter(has_text="sorted by attack ascending").wait_for()
    page.get_by_label("Direction").select_option("desc")
    page.get_by_role("status").filter(has_text="sorted by attack descending").wait_for()
    assert page.locator("table.card-table tbody td:first-child a").all_inner_texts() == by_attack
    assert "order=atk" in page.url and "direction=desc" in page.url

    page.locator('thead a[data-sort="vit"]').click()  # the sortable table's own headings
    page.get_by_role("status").filter(has_text="sorted by vitality ascending").wait_for()
    assert page.locator("table.card-table tbody td:first-child a").all_inner_texts() == expected_names(
        [F("vitality").asc(), "name"])
    assert page.evaluate("document.activeElement.dataset.sort") == "vit"  # focus stays on the heading
    assert page.get_by_label("Sort by").input_value() == "vit"  # the controls follow

    page.get_by_role("link", name=by_attack[0]).click()
    page.get_by_role("heading", level=1, name=by_attack[0]).wait_for()
    card = Card.objects.get(name=by_attack[0])
    assert page.url.endswith(f"/cards/{card.collector_number}/")
    assert page.get_by_role("img", name=f"Card face of {card.name}").is_visible()


def test_filter_control_writes_the_query_text_on_a_phone(phone_page):
    page = phone_page
    champions = list(Card.objects.filter(type="legend", craft="champion").order_by("name")
                     .values_list("name", flat=True))
    page.goto("/cards/?q=t%3Alegend")
    page.get_by_text("Filters").click()
    page.get_by_label("Craft").select_option("champion")
    assert page.get_by_label("Search").input_value() == "t:legend c:champion"
    page.get_by_role("status").filter(has_text=f"{len(champions)} card").wait_for()
    assert page.locator(".card-caption strong").all_inner_texts() == champions
    page.get_by_label("unique").check()
    assert page.get_by_label("Search").input_value() == "t:legend c:champion is:unique"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360  # nothing spills sideways on a phone


def test_a_craft_written_by_its_colour_or_as_colour_is_the_one_the_craft_filter_shows_and_replaces(page):
    """c:blue (the help page's example) is Divine: the filter shows it, and choosing Champion there replaces it,
    rather than adding c:champion beside it (which found nothing)."""
    page.goto("/cards/?q=t%3Alegend+colour%3Ablue")
    page.get_by_text("Filters").click()
    assert page.get_by_label("Craft").input_value() == "divine"
    page.get_by_label("Craft").select_option("champion")
    assert page.get_by_label("Search").input_value() == "t:legend c:champion"


def test_help_and_card_pages_fit_a_phone(phone_page):
    phone_page.goto("/cards/help/")
    phone_page.get_by_role("heading", name="How to search").wait_for()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360
    legend = Card.objects.filter(type="legend").order_by("name").first()
    phone_page.goto(f"/cards/{legend.collector_number}/")
    assert phone_page.locator("h1").inner_text() == legend.name
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360


def test_order_typed_in_the_search_box_sorts_and_the_controls_follow(page):
    by_attack = expected_names([F("attack").desc(), "name"])
    page.goto("/cards/")
    page.get_by_label("Search").fill("t:legend order:atk direction:desc")
    page.keyboard.press("Enter")
    page.get_by_role("status").filter(has_text="sorted by attack descending").wait_for()
    assert page.locator(".card-caption strong").all_inner_texts() == by_attack
    assert page.get_by_label("Sort by").input_value() == "atk"
    assert page.get_by_label("Direction").input_value() == "desc"
    assert page.locator(".search-warnings").count() == 0
    page.get_by_label("Search").fill("t:legend order:vit")  # the controls were not touched: the query decides
    page.keyboard.press("Enter")
    page.get_by_role("status").filter(has_text="sorted by vitality ascending").wait_for()
    page.get_by_label("Direction").select_option("desc")  # now changed: it takes precedence
    page.get_by_role("status").filter(has_text="sorted by vitality descending").wait_for()
    assert page.get_by_label("Sort by").input_value() == "vit"
