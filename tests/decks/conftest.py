import pytest

from decks.selectors import clear_card_index


@pytest.fixture(autouse=True)
def _fresh_card_index():
    """Cards made in a test vanish when its transaction rolls back: never reuse an index across tests."""
    clear_card_index()
    yield
    clear_card_index()
