import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_login_counters():
    """Failed log-in counters live in the cache; each test starts from none."""
    cache.clear()
    yield
    cache.clear()
