"""Two compared decks played against each other: the compare page links to the playtest form with both chosen (an
unlisted deck with its key), and the run plays them; a deck the player may not see is neither offered nor played."""

import html
import re

import pytest

from decks.models import Deck, Visibility
from decks.services import deck_copy, deck_update
from playtest.models import GoldfishTable, Run

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(alice, bob):
    starters = list(Deck.objects.filter(is_starter=True, format="standard").order_by("starter_key")[:2])
    mine = deck_copy(deck=starters[0], owner=alice, name="Alice brew")
    theirs = deck_copy(deck=starters[1], owner=bob, name="Bob unlisted list")
    theirs = deck_update(deck=theirs, actor=bob, expected_version=theirs.version, visibility=Visibility.UNLISTED)
    return mine, theirs


def page_of(response) -> str:
    return html.unescape(response.content.decode())


def test_two_compared_decks_are_played_against_each_other_an_unlisted_one_through_its_key(client, alice, pair):
    mine, theirs = pair
    client.force_login(alice)
    compared = page_of(client.get(f"/decks/compare/?a={mine.pk}&b={theirs.get_absolute_url()}"))
    link = re.search(r'href="(/playtest/new/\?[^"]+)">Playtest the first against the second', compared)[1]
    form = page_of(client.get(link))
    assert 'value="matchup" checked' in form
    assert re.search(rf'<option value="{theirs.pk}"[^>]*selected>Bob unlisted list', form)
    key = re.search(r'name="opponent_key" value="([^"]+)"', form)[1]
    response = client.post("/playtest/new/", {"what": "run", "deck": mine.pk, "mode": "matchup",
                                              "opponent": theirs.pk, "opponent_key": key, "games": "20"})
    run = Run.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == f"/playtest/runs/{run.pk}/"
    assert run.params["mode"] == "matchup" and [d["id"] for d in run.params["decks"]] == [mine.pk, theirs.pk]


def test_without_its_key_an_unlisted_opponent_is_neither_offered_nor_played(client, alice, pair):
    mine, theirs = pair
    client.force_login(alice)
    form = page_of(client.get(f"/playtest/new/?deck={mine.pk}&opponent={theirs.pk}&opponent_key=wrong"))
    assert "Bob unlisted list" not in form and 'name="opponent_key"' not in form
    assert 'value="matchup" checked' not in form
    response = client.post("/playtest/new/", {"what": "run", "deck": mine.pk, "mode": "matchup",
                                              "opponent": theirs.pk, "games": "20"})
    assert response.status_code == 404 and "Bob unlisted list" not in page_of(response)
    assert not Run.objects.exists()


def test_decks_whose_games_do_not_take_each_other_are_compared_without_a_matchup(client, alice, pair):
    mine, theirs = pair
    tactical = Deck.objects.filter(is_starter=True, format="tactical").order_by("starter_key").first()
    client.force_login(alice)
    assert "Playtest the first against the second" in page_of(
        client.get(f"/decks/compare/?a={mine.pk}&b={theirs.get_absolute_url()}"))
    assert "Playtest the first against the second" not in page_of(
        client.get(f"/decks/compare/?a={mine.pk}&b={tactical.pk}"))
    client.logout()  # a visitor who is not signed in plays nothing
    starter = Deck.objects.filter(is_starter=True, format="standard").order_by("starter_key").first()
    assert "Playtest the first against the second" not in page_of(
        client.get(f"/decks/compare/?a={starter.pk}&b={theirs.get_absolute_url()}"))


def test_a_goldfish_table_against_the_ai_with_the_unlisted_deck_opens_through_its_key(client, alice, pair):
    mine, theirs = pair
    client.force_login(alice)
    form = page_of(client.get(f"/playtest/new/?deck={mine.pk}&opponent={theirs.pk}&opponent_key={theirs.share_token}"))
    table_form = form[form.index('name="what" value="table"'):form.index('id="sim-h"')]
    assert re.search(rf'<option value="{theirs.pk}" selected>The AI with Bob unlisted list', table_form)
    key = re.search(r'name="opponent_key" value="([^"]+)"', table_form)[1]
    response = client.post("/playtest/new/", {"what": "table", "deck": mine.pk, "table_opponent": theirs.pk,
                                              "opponent_key": key})
    table = GoldfishTable.objects.get(owner=alice)
    assert response.status_code == 302 and table.params["decks"][1]["id"] == theirs.pk
    refused = client.post("/playtest/new/", {"what": "table", "deck": mine.pk, "table_opponent": theirs.pk})
    assert refused.status_code == 404 and GoldfishTable.objects.filter(owner=alice).count() == 1


def test_the_api_opens_a_table_against_an_unlisted_deck_with_its_key_only(client, alice, pair):
    mine, theirs = pair
    client.force_login(alice)
    body = {"deck": mine.pk, "opponent": theirs.pk}
    refused = client.post("/api/goldfish-tables/", body, content_type="application/json")
    assert refused.status_code == 404 and refused.json()["error"]["details"]["field"] == "opponent"
    opened = client.post("/api/goldfish-tables/", {**body, "opponent_key": theirs.share_token},
                         content_type="application/json")
    assert opened.status_code == 201, opened.content
    assert GoldfishTable.objects.get(owner=alice).params["decks"][1]["id"] == theirs.pk
