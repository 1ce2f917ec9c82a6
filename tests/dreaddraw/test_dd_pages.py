"""Dread Draw card pages and card API (apart from the Dreadgate ones)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_card_list_page_shows_the_set_and_filters_it(client):
    html = client.get("/dread-draw/cards/").content.decode()
    assert "100 cards." in html and "Candle Stub" in html
    html = client.get("/dread-draw/cards/?strength=5").content.decode()
    assert "12 cards." in html and "Candle Stub" not in html
    html = client.get("/dread-draw/cards/?keyword=always").content.decode()
    assert "8 cards." in html


def test_card_list_page_refuses_a_bad_filter_with_a_message(client):
    response = client.get("/dread-draw/cards/?strength=eleventy")
    assert response.status_code == 400
    assert "strength must be a whole number" in response.content.decode()


def test_card_page_shows_the_fortune_meanings(client):
    html = client.get("/dread-draw/cards/2/").content.decode()
    assert "Grave Moth" in html and "As the immediate future" in html and "A detail you overlooked returns." in html
    assert client.get("/dread-draw/cards/101/").status_code == 404


def test_card_api_lists_filters_and_details(client):
    body = client.get("/api/dreaddraw/cards/").json()
    assert body["count"] == 100
    body = client.get("/api/dreaddraw/cards/?keyword=none&strength=10").json()
    assert body["count"] == 6 and all(c["keyword"] == "" and c["strength"] == 10 for c in body["results"])
    card = client.get("/api/dreaddraw/cards/2/").json()
    assert card["effect"] == {"op": "sift_draw", "amount": 2}
    assert set(card["fortune"]) == {"present", "near", "far"}


def test_card_api_errors_use_the_envelope(client):
    response = client.get("/api/dreaddraw/cards/?keyword=sometimes")
    assert response.status_code == 400
    assert response.json()["error"]["details"]["parameter"] == "keyword"
    assert client.get("/api/dreaddraw/cards/0/").json()["error"]["code"] == "not_found"


def test_dread_draw_cards_are_not_in_the_dreadgate_api(client):
    body = client.get("/api/cards/?q=Candle").json()
    assert "Candle Stub" not in str(body)
