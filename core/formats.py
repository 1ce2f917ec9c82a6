"""The three formats of play: deck limits (DC-3 to DC-6) and win totals (DG-1.2 to DG-1.4), defined once."""

from __future__ import annotations

from dataclasses import dataclass

from .cardtypes import ITEM, MAIN_DECK_TYPES, UNIT


@dataclass(frozen=True, slots=True)
class Format:
    slug: str
    label: str
    min_cards: int
    max_cards: int
    allowed_types: frozenset[str]
    beyond_goal: int | None  # cards through the Gateway that win (None: not a way to win in this format)
    boneyard_goal: int  # opposing units in the Boneyard that win
    unique_limit: int = 1
    copy_limit: int = 4
    uses_gateway: bool = True
    legends_allowed: bool = True


STANDARD = Format("standard", "Standard", 36, 60, MAIN_DECK_TYPES, beyond_goal=40, boneyard_goal=20)
QUICK = Format("quick", "Quick", 36, 60, MAIN_DECK_TYPES, beyond_goal=20, boneyard_goal=10)
TACTICAL = Format("tactical", "Tactical", 36, 60, frozenset({UNIT, ITEM}), beyond_goal=None, boneyard_goal=30,
                  uses_gateway=False, legends_allowed=False)

# In this order: the engine numbers formats by their place here.
FORMATS: dict[str, Format] = {f.slug: f for f in (STANDARD, QUICK, TACTICAL)}
FORMAT_SLUGS: tuple[str, ...] = tuple(FORMATS)


def _deck_rules(f: Format) -> tuple[object, ...]:
    return (f.min_cards, f.max_cards, f.allowed_types, f.unique_limit, f.copy_limit, f.uses_gateway,
            f.legends_allowed)


def deck_formats_for(game_format: str) -> tuple[str, ...]:
    """The formats whose decks a game of `game_format` takes: those built under the same deck rules (DC-8), so
    Standard and Quick decks play in each other's games and a Tactical deck only in Tactical."""
    rules = _deck_rules(FORMATS[game_format])
    return tuple(slug for slug, f in FORMATS.items() if _deck_rules(f) == rules)
