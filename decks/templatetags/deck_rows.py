"""`{% deck_row entry editable %}`: one card's line of a deck list (templates/decks/_deck_row.html), rendered once
per process for each card, count and mode, then kept.

The editor renders every line of the deck again at each save, where one line changed: about 0.2 ms a line, most of
a save's panel. A line shows only its entry (the card's catalog columns and its count, decks.cardinfo.Entry), which
is its key: a card whose columns change is another key, never a stale line.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from decks.cardinfo import Entry

register = template.Library()


def _render(entry: Entry, editable: bool) -> SafeString:
    return render_to_string("decks/_deck_row.html", {"e": entry, "editable": editable})


_kept = lru_cache(maxsize=4096)(_render)  # a few megabytes at most


@register.simple_tag
def deck_row(entry: Entry, editable) -> SafeString:
    # In development the template may change under a running server: rendered each time there.
    return (_render if settings.DEBUG else _kept)(entry, bool(editable))


def _forget(*, setting, **kwargs) -> None:
    if setting in ("ROOT_URLCONF", "TEMPLATES", "DEBUG"):  # a test's own URLs or templates
        _kept.cache_clear()


setting_changed.connect(_forget, dispatch_uid="deck-rows-forget")
