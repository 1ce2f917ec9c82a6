import pytest

FIXED_NONCE = "5eed" * 16


@pytest.fixture(autouse=True)
def fixed_nonce(monkeypatch):
    """A table's shuffles and AI are keyed by a server-side nonce as well as its seed (DG-4.6): a fixed nonce makes a
    seed name the same game in every run. A module may override it: the fairness tests draw real nonces."""
    monkeypatch.setattr("playtest.goldfish.services.new_nonce", lambda: FIXED_NONCE)
