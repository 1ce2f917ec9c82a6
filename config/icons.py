"""`{% icon "warning" %}`: a small icon drawn inline as SVG, from static/icons/ (the one copy of each icon; the
stylesheets use the same files as masks). Icons are SVG, not characters such as ⚠ or ＋, which show as empty boxes
where the reader's fonts lack them. An icon is decoration beside its words (aria-hidden): it never replaces them."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django import template
from django.contrib.staticfiles import finders
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@lru_cache(maxsize=64)
def _svg(name: str) -> str:
    path = finders.find(f"icons/{name}.svg") if name.isidentifier() else None
    if not path:
        raise template.TemplateSyntaxError(f"There is no icon {name!r} in static/icons/.")
    return Path(path).read_text(encoding="utf-8").strip()


@register.simple_tag
def icon(name: str) -> SafeString:
    return mark_safe(_svg(name))  # our own static file, not user input
