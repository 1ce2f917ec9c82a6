"""The links of every page's header and footer, reversed once per process (and URL prefix) rather than on every
page: their twelve `{% url %}` tags cost about a third of a millisecond of each page, more than a cheap API request's
whole view."""

from __future__ import annotations

from functools import cache

from django.core.signals import setting_changed
from django.urls import get_script_prefix, reverse

LINKS = {  # the template's name: the URL's name and arguments
    "home": ("home",),
    "cards": ("cards:index",),
    "decks": ("decks:index",),
    "playtest": ("playtest:index",),
    "dreaddraw": ("dreaddraw:index",),
    "rules": ("rules",),
    "account": ("account",),
    "logout": ("logout",),
    "login": ("login",),
    "signup": ("signup",),
    "api_docs": ("api-docs",),
    "status": ("healthz",),
    "card_preview": ("cards:preview", "CN"),  # the card previews' script puts a collector number for CN
}


@cache
def _links(prefix: str) -> dict[str, str]:
    return {key: reverse(name, args=args) for key, (name, *args) in LINKS.items()}


def context(request) -> dict:
    """Template context: `site_links`, the header's and footer's URLs by the names of LINKS."""
    return {"site_links": _links(get_script_prefix())}


def _forget(*, setting, **kwargs) -> None:
    if setting == "ROOT_URLCONF":  # a test's own URLs
        _links.cache_clear()


setting_changed.connect(_forget, dispatch_uid="site-links-forget")
