"""The catalog page's results are rendered once per catalog and search (cards.views.index): a page served from the
cache is the page rendered anew, whatever the search, view, sort, page or kind of request, and a card saved shows at
once."""

import re

import pytest
from django.test import Client

from cards.models import Card
from tests.roundtrips import counted

pytestmark = pytest.mark.django_db

SEARCHES = ["", "q=golem", "q=t:unit&view=table", "q=t:unit&order=atk&direction=desc", "q=t:unit&page=2",
            "q=c:champion&view=table&order=name&query_order=name", "q=glorp+(", "q=zzzz"]


def page(client: Client, search: str, htmx: bool = False) -> str:
    answer = client.get(f"/cards/?{search}", **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
    assert answer.status_code == 200
    return re.sub(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+', r"\1", answer.content.decode())


@pytest.mark.parametrize("htmx", [False, True])
def test_a_page_served_from_the_cache_is_the_page_rendered_anew(settings, htmx):
    client = Client()
    settings.SEARCH_CACHE_SECONDS = 0
    fresh = [page(client, search, htmx) for search in SEARCHES]
    settings.SEARCH_CACHE_SECONDS = 600
    for search in SEARCHES:
        page(client, search, htmx)  # kept
    assert [page(client, search, htmx) for search in SEARCHES] == fresh
    assert len(set(fresh)) == len(SEARCHES)  # each search its own page


def test_a_kept_search_reads_no_card_and_a_card_saved_shows_at_once(settings):
    settings.SEARCH_CACHE_SECONDS = 600
    client = Client()
    card = Card.objects.filter(name__icontains="golem").order_by("name").first()
    assert card.name in page(client, "q=golem")
    with counted() as trips:
        page(client, "q=golem")
    assert not [sql for sql in trips.sql if "cards_card" in sql], trips.sql
    card.name = f"{card.name} Reforged"
    card.save()
    assert card.name in page(client, "q=golem")
