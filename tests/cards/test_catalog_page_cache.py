"""The catalog page's results are rendered once per catalog and search (cards.views.index), and a card page's
account of the card once per catalog (cards.views.detail): a page served from the cache is the page rendered anew,
whatever the search, view, sort, page or kind of request, and a card saved or a deck published shows at once."""

import pytest
from django.test import Client

from cards.models import Card
from tests.roundtrips import counted
from tests.support import without_tokens

pytestmark = pytest.mark.django_db

SEARCHES = ["", "q=golem", "q=t:unit&view=table", "q=t:unit&order=atk&direction=desc", "q=t:unit&page=2",
            "q=c:champion&view=table&order=name&query_order=name", "q=glorp+(", "q=zzzz"]


def page(client: Client, search: str, htmx: bool = False) -> str:
    """The catalog page of `search` (or, given "../cards/<number>/", a card's page), its CSRF tokens taken out."""
    path = search[2:] if search.startswith("../") else f"/cards/?{search}"
    answer = client.get(path, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
    assert answer.status_code == 200
    return without_tokens(answer.content.decode())


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


def test_a_card_page_served_from_the_cache_is_the_page_rendered_anew(settings):
    client = Client()
    numbers = ["X-GATE", "x-gate", *Card.objects.order_by("type", "collector_number").values_list(
        "collector_number", flat=True)[::40]]
    settings.SEARCH_CACHE_SECONDS = 0
    fresh = [page(client, f"../cards/{number}/") for number in numbers]
    settings.SEARCH_CACHE_SECONDS = 600
    for number in numbers:
        page(client, f"../cards/{number}/")  # kept
    with counted() as trips:
        assert [page(client, f"../cards/{number}/") for number in numbers] == fresh
    assert not [sql for sql in trips.sql if "cards_card" in sql and "decks_deck" not in sql], trips.sql
    assert client.get("/cards/NO-SUCH-CARD/").status_code == 404


def test_a_kept_card_page_shows_a_card_saved_and_a_deck_published_at_once(settings):
    from decks.models import Deck, Visibility
    from decks.services import deck_copy
    from tests.decks.factories import make_user

    settings.SEARCH_CACHE_SECONDS = 600
    client = Client()
    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    card = starter.entries.order_by("pk").first().card
    path = f"../cards/{card.collector_number}/"
    page(client, path)
    card.flavor = "Reforged in the second age."
    card.save()
    assert "Reforged in the second age." in page(client, path)
    deck = deck_copy(deck=starter, owner=make_user(), name="Freshly published")
    assert "Freshly published" not in page(client, path)
    Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PUBLIC)
    assert "Freshly published" in page(client, path)
