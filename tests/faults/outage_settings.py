"""The test settings with the answer caches on, for the Redis outage test: a search answer and a deck page are
read from and written to the shared cache, as in production."""

from config.settings_test import *  # noqa: F403

SEARCH_CACHE_SECONDS = 600
DECK_PAGE_CACHE_SECONDS = 600
