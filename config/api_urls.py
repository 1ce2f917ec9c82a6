"""Every app's API under /api/: each app owns its own api_urls module. The apps' lists are joined into one, not
included under an empty prefix each: an include is one more resolver to walk, and one more match to build, for every
API request."""

from django.urls import include, path

from cards import api_urls as cards_api
from decks import api_urls as decks_api
from playtest.web import api_urls as playtest_api

urlpatterns = [
    *cards_api.urlpatterns,
    *decks_api.urlpatterns,
    *playtest_api.urlpatterns,
    path("dreaddraw/", include("dreaddraw.api_urls")),
]
