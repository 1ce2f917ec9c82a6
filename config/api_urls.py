"""Every app's API under /api/: each app owns its own api_urls module."""

from django.urls import include, path

urlpatterns = [
    path("", include("cards.api_urls")),
    path("", include("decks.api_urls")),
    path("", include("playtest.web.api_urls")),
    path("dreaddraw/", include("dreaddraw.api_urls")),
]
