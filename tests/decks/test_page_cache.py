"""The deck page's cached body (decks.views._detail_body: the shared cache, and each process's own copy in front of
it) is keyed by the deck's version and by what the viewer may see: an edit and a change of visibility show at once,
and the owner's controls are never served to a visitor."""

import pytest
from django.test import Client

from decks import selectors, services
from decks.models import Deck, Visibility
from decks.services import deck_copy
from tests.decks.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cached_pages(settings):
    settings.DECK_PAGE_CACHE_SECONDS = 600
    settings.CACHES = {**settings.CACHES, "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                                    "LOCATION": "deck-page-cache-test"}}


@pytest.fixture
def deck():
    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    deck = deck_copy(deck=starter, owner=make_user(), name="Cached deck")
    return services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version,
                                visibility=Visibility.PUBLIC)


def visitor() -> Client:
    client = Client()
    client.force_login(make_user())
    return client


def test_an_edit_shows_at_once_on_the_cached_page(deck):
    client = visitor()
    entry = selectors.deck_entries(deck)[0]
    assert entry.card.name in client.get(f"/decks/{deck.pk}/").content.decode()
    services.deck_change_card(deck=deck, actor=deck.owner, card=entry.card, count=0, expected_version=deck.version)
    assert entry.card.name not in client.get(f"/decks/{deck.pk}/").content.decode()


def test_a_deck_made_private_is_gone_for_a_visitor_at_once(deck):
    client = visitor()
    assert client.get(f"/decks/{deck.pk}/").status_code == 200
    deck.refresh_from_db()
    services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version, visibility=Visibility.PRIVATE)
    assert client.get(f"/decks/{deck.pk}/").status_code == 404


def test_the_owners_controls_are_never_served_to_a_visitor_from_the_cache(deck):
    owner = Client()
    owner.force_login(deck.owner)
    edit = f"/decks/{deck.pk}/edit/"
    assert edit in owner.get(f"/decks/{deck.pk}/").content.decode()
    assert edit not in visitor().get(f"/decks/{deck.pk}/").content.decode()
