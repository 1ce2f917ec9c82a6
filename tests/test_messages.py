"""The site's one-time messages (config.middleware.LazyMessageMiddleware: Django's, its storage made on first use)."""

from __future__ import annotations

import pytest
from django.test import Client

from decks.models import Deck
from tests.decks.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_message_waits_through_api_reads_is_shown_once_and_then_gone():
    client = Client()
    client.force_login(make_user())
    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    assert client.post(f"/decks/{starter.pk}/copy/").status_code == 302
    assert client.get("/api/keywords/").status_code == 200  # uses no message: neither shows nor loses it
    assert "Copied" in client.get("/decks/").content.decode()
    assert "Copied" not in client.get("/decks/").content.decode()
