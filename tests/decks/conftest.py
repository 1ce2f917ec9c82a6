import pytest
from rest_framework.test import APIClient

from decks.selectors import clear_card_index

from .factories import make_user


@pytest.fixture(autouse=True)
def _fresh_card_index():
    """Cards made in a test vanish when its transaction rolls back: never reuse an index across tests."""
    clear_card_index()
    yield
    clear_card_index()


@pytest.fixture
def owner():
    return make_user()


@pytest.fixture
def logged_in(client, owner):
    """The site, signed in as the owner."""
    client.force_login(owner)
    return client


@pytest.fixture
def api(owner):
    """The API, as the owner."""
    client = APIClient()
    client.force_authenticate(owner)
    return client
