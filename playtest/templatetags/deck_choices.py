"""How a deck picker words a deck, and which decks a choice's games take (docs/rules.md, DC-8).

The words say what colour might: a starter, the format, and "not legal" for a deck the one validator
(decks/validation.py, stored as the deck's `is_legal`) refuses.
"""

from django import template

from core.formats import deck_formats_for

register = template.Library()


@register.filter
def deck_choice(deck) -> str:
    """“Name (Quick, starter, not legal)”: the deck as a picker offers it."""
    notes = [deck.get_format_display()]
    if deck.is_starter:
        notes.append("starter")
    if not deck.is_legal:
        notes.append("not legal")
    return f"{deck.name} ({', '.join(notes)})"


@register.filter
def decks_taken(game_format: str) -> str:
    """The formats whose decks a game of `game_format` takes, space-separated (a picker's data-takes)."""
    return " ".join(deck_formats_for(game_format))
