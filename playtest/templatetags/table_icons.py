"""`{% icon "sword" %}`: a small inline SVG icon drawn from the table's sprite (templates/playtest/_icons.html).

Icons are SVG, not font glyphs, so they show the same in every browser; they are decoration beside a word or
inside a labelled control, hence hidden from screen readers.
"""

from django import template
from django.utils.html import format_html

register = template.Library()

ICONS = frozenset({
    "heart", "sword", "shield", "range", "arrow", "wing", "ghost", "chain", "star", "spark", "plus", "crosshair",
    "aim", "gear", "play", "pause", "first", "last", "prev", "next", "deck", "undo", "alert", "robot",
})  # fmt: skip


@register.simple_tag
def icon(name: str, extra: str = "") -> str:
    if name not in ICONS:
        raise template.TemplateSyntaxError(f"icon: no icon named {name!r}")
    return format_html('<svg class="icon{}" aria-hidden="true" focusable="false"><use href="#i-{}"></use></svg>',
                       f" {extra}" if extra else "", name)
