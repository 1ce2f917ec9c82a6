"""Which cards can't change a goldfish game, where the opponent never deploys, attacks or plays a card.

Either each of a card's effects acts only on what a goldfish opponent never brings (enemy units, attacks and
combat, the opponent's hand or points), so playing it can't bring the win closer, or one could (moving or
speeding friendly units, drawing, searching, points for this seat). The `goldfish` policy doesn't try the
first kind (its evaluation of a race could not tell them from doing nothing), and a goldfish report gives
that as the reason such a card was never played.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

# Stats and keywords that change how a friendly unit races to the Gateway (DG-8, DG-11, DG-13).
RACE_STATS = frozenset({"maneuver"})
RACE_KEYWORDS = frozenset({"aviation"})  # flying over units (DG-8.4); spectral only defends (DG-13)
FRIENDLY_SELECTS = frozenset({"self", "bearer"})


def _leaves(effect: dict[str, Any], side: str = "") -> Iterator[tuple[dict[str, Any], str]]:
    """Each primitive of an effect with the side it acts on ('previous' inherits the step before)."""
    if effect.get("op") == "sequence":
        for step in effect["steps"]:
            for leaf, leaf_side in _leaves(step, side):
                side = leaf_side
                yield leaf, leaf_side
        return
    target = effect.get("target")
    if target is not None:
        select = target.get("select")
        if select in FRIENDLY_SELECTS:
            side = "friendly"
        elif select != "previous":
            side = target.get("side", "any")
    else:
        side = effect.get("player", "self")
    yield effect, side


def _helps_the_race(effect: dict[str, Any], side: str) -> bool:
    op = effect["op"]
    own = side in ("friendly", "any", "self", "each")
    if op in ("draw", "search_deck", "influence"):
        return own
    if op == "action_points":
        return own and effect["amount"] > 0
    if op == "modify":
        return own and effect["stat"] in RACE_STATS and effect["amount"] > 0
    if op == "grant_keyword":
        return own and effect["keyword"] in RACE_KEYWORDS
    if op == "move":
        return own
    return False


def needs_an_opponent(card: Mapping[str, Any]) -> bool:
    """True when none of the card's effects can bring a goldfish win closer (see the module docstring); `card`
    has the Card model's field names (a deck snapshot's card, or a CardDef's fields)."""
    return abilities_need_an_opponent(card.get("type", ""), card.get("abilities") or [])


def abilities_need_an_opponent(card_type: str, abilities: list[dict[str, Any]]) -> bool:
    if card_type in ("unit", "legend"):
        return False  # the card itself races
    for ability in abilities:
        for leaf, side in _leaves(ability["effect"]):
            if _helps_the_race(leaf, side):
                return False
    return True


ENEMY_SIDES = frozenset({"enemy", "opponent"})


def acts_only_on_the_opponent(card: Mapping[str, Any]) -> bool:
    """Whether every effect of the card acts on enemy units or the opponent (never on a friendly unit or this
    seat): what a report may say of a card that needs an opponent, rather than of one that heals or buffs."""
    leaves = [side for ability in card.get("abilities") or [] for _, side in _leaves(ability["effect"])]
    return bool(leaves) and all(side in ENEMY_SIDES for side in leaves)
