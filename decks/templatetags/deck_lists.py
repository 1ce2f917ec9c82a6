"""Deck lists that pages of the apps below decks show (the card page's public decks with the card), and a deck's
description as its page shows it.

A template tag, so that the catalog's views never import the decks app that sits above them.
"""

from django import template
from django.utils.safestring import SafeString, mark_safe

from decks import selectors
from decks.primer import description_html

register = template.Library()


@register.simple_tag
def public_decks_with_card(card_id: int, limit: int = 20) -> list:
    """Public decks that use the card (the decks app owns the rule of what is public)."""
    return selectors.public_decks_with_card(card_id, limit)


@register.filter
def primer(text: str) -> SafeString:
    """A deck's description, its Markdown as HTML (decks/primer.py: raw HTML in it escaped)."""
    return mark_safe(description_html(text))  # noqa: S308  (markdown-it's output, raw HTML escaped)
