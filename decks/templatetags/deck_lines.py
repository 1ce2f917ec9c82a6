"""`{% deck_line "list" entry editable tags %}` and `{% deck_line "pile" entry editable tags %}`: one card's line of a
deck list, or its face in the piles (templates/decks/_list_line.html, _pile_line.html), rendered once per process for
each entry, mode and tag, then kept. `tags` (collector number -> the player's tag) is the editor's; elsewhere none.

The editor renders every line of the deck again at each save, where one line changed: about 0.2 ms a line, most of
a save's CPU before they were kept. A line shows only its entry (the card's catalog columns and its count,
decks.cardinfo.Entry) and its tag, which are its key: a card whose columns or tag change is another key, never a
stale line.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils.safestring import SafeString

from decks.cardinfo import Entry

register = template.Library()

TEMPLATES = {"list": "decks/_list_line.html", "pile": "decks/_pile_line.html"}


def _render(kind: str, entry: Entry, editable: bool, tag: str, prefix: str) -> SafeString:
    """`prefix`: the URL prefix the line's links are reversed under (a key of the kept lines, as of
    config.site_links)."""
    return render_to_string(TEMPLATES[kind], {"e": entry, "editable": editable, "tag": tag})


_kept = lru_cache(maxsize=4096)(_render)  # a few megabytes at most


@register.simple_tag
def deck_line(kind: str, entry: Entry, editable, tags=None) -> SafeString:
    tag = tags.get(entry.card.collector_number, "") if tags else ""
    # In development the templates may change under a running server: rendered each time there.
    return (_render if settings.DEBUG else _kept)(kind, entry, bool(editable), tag, get_script_prefix())


def _forget(*, setting, **kwargs) -> None:
    if setting in ("ROOT_URLCONF", "TEMPLATES", "DEBUG"):  # a test's own URLs or templates
        _kept.cache_clear()


setting_changed.connect(_forget, dispatch_uid="deck-lines-forget")
