"""Deck lists that pages of the apps below decks show (the card page's public decks with the card).

A template tag, so that the catalog's views never import the decks app that sits above them.
"""

from django import template

from decks import selectors

register = template.Library()


@register.simple_tag
def public_decks_with_card(card_id: int, limit: int = 20) -> list:
    """Public decks that use the card (the decks app owns the rule of what is public)."""
    return selectors.public_decks_with_card(card_id, limit)
