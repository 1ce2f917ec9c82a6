"""What a first visit meets: empty states that say what to do next, refusals that link to their rule, a log-in page
that says why it is there."""

import re

import pytest
from django.test import Client

from cards.models import Card
from decks.services import deck_create
from tests.decks.factories import entries_of, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.config_independent]  # pages and words, not the database


def signed_in() -> Client:
    client = Client()
    client.force_login(make_user())
    return client


def test_a_search_that_finds_nothing_says_so_and_how_to_search():
    page = Client().get("/cards/", {"q": "zzzzqqq"}).content.decode()
    assert "No card matches this search" in page and 'href="/cards/help/"' in page


def test_the_log_in_page_says_why_a_page_sent_there_and_offers_to_sign_up():
    sent = Client().get("/decks/new/", follow=True)
    page = sent.content.decode()
    assert sent.redirect_chain[-1][0].startswith("/accounts/login/")
    assert "Log in to go on to that page" in page and 'href="/accounts/signup/?next=/decks/new/"' in page
    assert "Log in to go on to that page" not in Client().get("/accounts/login/").content.decode()


def test_a_legality_refusal_links_to_its_rule_and_a_tactical_deck_misses_no_gateway():
    legend = Card.objects.filter(type="legend").order_by("name").first()
    deck = deck_create(owner=make_user(), name="T", format="tactical", entries=entries_of((legend, 1)))
    client = Client()
    client.force_login(deck.owner)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert '<a href="/rules/#DC-6" title="Rule DC-6, on the rules page">DC-6</a>' in page
    assert "No gateway card: Tactical is played without one." in page


def test_compare_with_no_run_ticked_says_so_and_with_no_runs_says_how_to_get_one():
    client = signed_in()
    page = client.get("/playtest/compare/").content.decode()
    assert 'href="/playtest/">start a playtest run</a>' in page and "<button" not in page.split("<h1>")[1]
    assert "Tick at least one run" not in page
    assert "Tick at least one run to compare." in client.get("/playtest/compare/", {"compare": "1"}).content.decode()


def test_the_dread_draw_page_links_to_its_rules_and_the_first_card_has_no_stray_separator():
    assert 'href="/rules/#dread-draw-dd"' in Client().get("/dread-draw/").content.decode()
    first = Client().get("/dread-draw/cards/1/").content.decode()
    assert re.search(r"<p>\s*<a href=\"/dread-draw/cards/2/\">Next card →</a>", first)


def test_the_words_a_newcomer_meets_are_explained_where_they_first_appear():
    assert "alone against a do-nothing opponent (goldfish)" in Client().get("/").content.decode()
    rules = Client().get("/rules/").content.decode()
    assert 'New to Dreadgate? Start with the turn (<a href="#DG-5">DG-5</a>)' in rules and 'id="DG-5"' in rules
    client = signed_in()
    assert "play it alone, against an opponent that does nothing" in client.get("/playtest/").content.decode()
    deck = deck_create(owner=make_user(), name="Mine")
    client.force_login(deck.owner)
    assert "Cards you are thinking about for this deck (a maybeboard)" in client.get(
        f"/decks/{deck.pk}/edit/").content.decode()
