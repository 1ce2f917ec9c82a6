"""Smaller findings: a share link retired when its deck leaves unlisted; POST to the Dread Draw
table page and its board fragment is a 405; another's deck editor is the site's 403 page."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from decks.models import Deck, Visibility
from decks.services import deck_create, deck_update
from dreaddraw.services import table_create

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-7"


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("sharer", password=PASSWORD)


def set_visibility(deck, owner, visibility):
    return deck_update(deck=deck, actor=owner, expected_version=deck.version, visibility=visibility)


@pytest.mark.parametrize("away", [Visibility.PRIVATE, Visibility.PUBLIC])
def test_an_old_share_link_stops_working_after_unlisted_then_away_then_unlisted(owner, away):
    deck = deck_create(owner=owner, name="Shared once", visibility=Visibility.UNLISTED, entries=[])
    old = deck.share_token
    stranger = Client()
    assert stranger.get(f"/decks/{deck.pk}/?key={old}").status_code == 200
    deck = set_visibility(deck, owner, away)
    assert deck.share_token != old
    deck = set_visibility(deck, owner, Visibility.UNLISTED)
    new = deck.share_token
    assert new != old
    assert stranger.get(f"/decks/{deck.pk}/?key={old}").status_code == 404
    assert stranger.get(f"/api/decks/{deck.pk}/?key={old}").status_code == 404
    assert stranger.get(f"/decks/{deck.pk}/?key={new}").status_code == 200


def test_edits_that_keep_a_deck_unlisted_keep_its_link(owner):
    deck = deck_create(owner=owner, name="Shared", visibility=Visibility.UNLISTED, entries=[])
    token = deck.share_token
    deck = deck_update(deck=deck, actor=owner, expected_version=deck.version, name="Renamed")
    deck = set_visibility(deck, owner, Visibility.UNLISTED)
    assert Deck.objects.get(pk=deck.pk).share_token == token


def test_the_editor_page_rotates_the_link_too(owner, client):
    deck = deck_create(owner=owner, name="Shared", visibility=Visibility.UNLISTED, entries=[])
    old = deck.share_token
    client.force_login(owner)
    assert client.post(f"/decks/{deck.pk}/edit/change/", {"visibility": "private", "version": "1"}).status_code == 200
    assert Deck.objects.get(pk=deck.pk).share_token != old


def test_post_to_the_dread_draw_table_page_and_its_board_is_405(owner, client):
    table = table_create(owner=owner, seats=[{"kind": "local", "name": "Me"},
                                             {"kind": "bot", "bot": "heuristic", "name": "Bot"}], seed=4)
    client.force_login(owner)
    for path in (f"/dread-draw/tables/{table.pk}/", f"/dread-draw/tables/{table.pk}/board/"):
        assert client.get(path).status_code == 200
        for method in ("post", "put", "delete"):
            response = getattr(client, method)(path)
            assert response.status_code == 405, (method, path)
            assert "GET" in response["Allow"]


def test_someone_elses_deck_editor_is_the_sites_403_page(owner):
    deck = deck_create(owner=owner, name="Mine alone", visibility=Visibility.PUBLIC, entries=[])
    other = get_user_model().objects.create_user("peeker", password=PASSWORD)
    client = Client()
    client.force_login(other)
    response = client.get(f"/decks/{deck.pk}/edit/")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Only the deck&#x27;s owner may change it." in html or "Only the deck's owner may change it." in html
    assert 'class="site-nav"' in html and "peeker" in html  # the site's page, with its navigation
    assert "<h1>403 Forbidden</h1>" not in html
