"""The effect vocabulary of Dreadgate abilities, and its validator.

Pure Python (no Django), so the rules engine and the benches can use it without a database.
The exact semantics of every trigger, target and primitive are in docs/effects.md; this module
holds the vocabulary as data and checks that an ability uses it correctly.

An ability is a plain dict (stored as JSON on Card.abilities):

    {"name": "Shield Wall", "trigger": "activated", "cost": 1,
     "text": "Friendly units within 1 cell get +2 defense until end of turn.",
     "effect": {"op": "modify", "stat": "defense", "amount": 2, "duration": "end_of_turn",
                "target": {"select": "all", "side": "friendly", "filter": {"within": 1}}}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .cardtypes import BOARD_TYPES, CARD_TYPES, ITEM_SUBTYPES, SUBTYPES
from .crafts import CRAFT_ORDER
from .keywords import KEYWORDS

# --- Vocabulary -----------------------------------------------------------------------------

# trigger -> (what pays the ability's `cost`, allowed cost range)
TRIGGERS: dict[str, tuple[str, range]] = {
    "activated": ("action points", range(1, 5)),  # your turn, at most once per turn per card
    "instant": ("talent points", range(0, 6)),  # any time, either player's turn
    "play": ("nothing beyond the card's cost", range(0, 1)),  # talent or glyph resolving as it is played
    "deploy": ("nothing", range(0, 1)),  # when the unit or legend enters the battlefield
    "static": ("nothing", range(0, 1)),  # continuous while the card is on the battlefield
    "equipped": ("nothing", range(0, 1)),  # continuous while the item is attached to its bearer
    "consumable": ("nothing beyond the card's cost", range(0, 1)),  # item used up as it is played
}
CONTINUOUS_TRIGGERS = frozenset({"static", "equipped"})

# Which triggers each card type may use.
TRIGGERS_BY_CARD_TYPE: dict[str, frozenset[str]] = {
    "unit": frozenset({"activated", "instant", "deploy", "static"}),
    "legend": frozenset({"activated", "instant", "deploy", "static"}),
    "talent": frozenset({"play", "instant"}),
    "glyph": frozenset({"play", "instant"}),
    "item": frozenset({"equipped", "consumable", "activated", "static"}),
    "gateway": frozenset({"static"}),
}

DURATIONS = frozenset({"end_of_turn", "next_turn", "permanent", "while_source"})
STATS = frozenset({"attack", "defense", "range", "maneuver"})
SIDES = frozenset({"friendly", "enemy", "any"})
SELECTS = frozenset({"chosen", "all", "self", "bearer", "previous"})
PLAYERS = frozenset({"self", "opponent", "each"})
MOVE_DIRECTIONS = frozenset({"forward", "backward", "away", "toward", "chosen"})
DISCARD_CHOOSERS = frozenset({"owner", "controller", "random"})
AP_WHEN = frozenset({"this_turn", "next_turn"})
CRAFTS = frozenset(CRAFT_ORDER)

# Field specs: name -> checker kind. Every op lists all of its fields; extra fields are errors.
_UNIT = "unit_target"
_PLAYER = "player"
OPS: dict[str, dict[str, Any]] = {
    "damage": {"target": _UNIT, "amount": range(1, 10)},
    "heal": {"target": _UNIT, "amount": range(1, 10)},
    "modify": {"target": _UNIT, "stat": STATS, "amount": range(-9, 10), "duration": DURATIONS},
    "grant_keyword": {"target": _UNIT, "keyword": "keyword", "duration": DURATIONS},
    "remove_keyword": {"target": _UNIT, "keyword": "keyword", "duration": DURATIONS},
    "move": {"target": _UNIT, "distance": range(1, 5), "direction": MOVE_DIRECTIONS},
    "destroy": {"target": _UNIT},
    "return_to_hand": {"target": _UNIT},
    "stun": {"target": _UNIT, "duration": frozenset({"end_of_turn", "next_turn"})},
    "draw": {"player": _PLAYER, "amount": range(1, 6)},
    "discard": {"player": _PLAYER, "amount": range(1, 6), "chooser": DISCARD_CHOOSERS},
    "action_points": {"player": _PLAYER, "amount": range(-4, 5), "when": AP_WHEN},
    "influence": {"player": _PLAYER, "amount": range(1, 6), "craft": CRAFTS | {"own"}},
    "reveal_hand": {"player": _PLAYER, "amount": range(0, 11)},  # 0 = the whole hand
    "search_deck": {"player": _PLAYER, "amount": range(1, 4), "filter": "card_filter"},
    "sequence": {"steps": "steps"},
}
OPTIONAL_FIELDS: dict[str, frozenset[str]] = {"search_deck": frozenset({"filter"})}
SELF_ONLY_OPS = frozenset({"influence", "search_deck"})  # a player only gains or searches for themself
CONTINUOUS_OPS = frozenset({"modify", "grant_keyword", "remove_keyword"})

UNIT_FILTER_KEYS: dict[str, Any] = {
    "type": BOARD_TYPES,  # list
    "craft": CRAFTS,  # list
    "keyword": "keyword",
    "without_keyword": "keyword",
    "max_vitality": range(0, 10),
    "min_vitality": range(1, 10),
    "within": range(1, 5),
    "bears": ITEM_SUBTYPES | {"any"},
}
CARD_FILTER_KEYS: dict[str, Any] = {
    "type": CARD_TYPES,  # list
    "subtype": SUBTYPES,  # list
    "craft": CRAFTS,  # list
    "keyword": "keyword",
    "max_vitality": range(0, 10),
}
_LIST_FILTERS = frozenset({"type", "craft", "subtype"})
ABILITY_FIELDS = frozenset({"name", "trigger", "cost", "text", "effect"})


# --- Validation -----------------------------------------------------------------------------


def validate_ability(ability: Any) -> list[str]:
    """Every problem with one ability, as messages naming the field; empty when it is valid."""
    if not isinstance(ability, dict):
        return ["ability: must be a mapping with name, trigger, cost, text and effect"]
    errors: list[str] = []
    for missing in sorted(ABILITY_FIELDS - ability.keys()):
        errors.append(f"{missing}: is required")
    for extra in sorted(ability.keys() - ABILITY_FIELDS):
        errors.append(f"{extra}: unknown ability field")
    for field in ("name", "text"):
        if field in ability and (not isinstance(ability[field], str) or not ability[field].strip()):
            errors.append(f"{field}: must be non-empty text")
    trigger = ability.get("trigger")
    if "trigger" in ability and trigger not in TRIGGERS:
        errors.append(f"trigger: {trigger!r} is not one of {', '.join(sorted(TRIGGERS))}")
        trigger = None
    if trigger and "cost" in ability:
        payer, allowed = TRIGGERS[trigger]
        if not _is_int_in(ability["cost"], allowed):
            article = "an" if trigger[0] in "aeiou" else "a"
            errors.append(f"cost: {article} {trigger} ability costs {allowed.start}..{allowed.stop - 1} ({payer})")
    if "effect" in ability:
        errors.extend(_check_effect(ability["effect"], "effect", continuous=trigger in CONTINUOUS_TRIGGERS))
    return errors


def validate_card_abilities(card: dict[str, Any]) -> list[str]:
    """validate_ability for each of a card's abilities, plus the checks that need the card's type.

    `self` needs a card on the battlefield (unit or legend), `bearer` an item, and `within` a cell to
    measure from (a unit, a legend, or an item's bearer).
    """
    ctype = card.get("type")
    abilities = card.get("abilities") or []
    errors: list[str] = []
    if ctype == "legend" and len(abilities) > 2:
        errors.append("abilities: a legend has at most two abilities")
    for i, ability in enumerate(abilities):
        where = f"abilities[{i}]"
        errors.extend(f"{where}.{e}" for e in validate_ability(ability))
        if not isinstance(ability, dict):
            continue
        allowed = TRIGGERS_BY_CARD_TYPE.get(ctype, frozenset()) if isinstance(ctype, str) else frozenset()
        if ability.get("trigger") in TRIGGERS and ability["trigger"] not in allowed:
            errors.append(f"{where}.trigger: {ability['trigger']!r} is not a trigger a {ctype} card can have")
        for path, target in _unit_targets(ability.get("effect"), f"{where}.effect"):
            select = target.get("select")
            if select == "self" and ctype not in BOARD_TYPES:
                errors.append(f"{path}.select: 'self' needs a unit or legend; this is a {ctype}")
            if select == "bearer" and ctype != "item":
                errors.append(f"{path}.select: 'bearer' needs an item; this is a {ctype}")
            within = isinstance(target.get("filter"), dict) and "within" in target["filter"]
            if within and ctype not in BOARD_TYPES | {"item"}:
                errors.append(f"{path}.filter.within: a {ctype} has no cell to measure from")
    return errors


def _check_effect(effect: Any, path: str, *, continuous: bool, in_sequence: bool = False) -> list[str]:
    if not isinstance(effect, dict):
        return [f"{path}: must be a mapping with an 'op'"]
    op = effect.get("op")
    if op not in OPS:
        return [f"{path}.op: {op!r} is not one of {', '.join(sorted(OPS))}"]
    errors: list[str] = []
    spec = OPS[op]
    optional = OPTIONAL_FIELDS.get(op, frozenset())
    for missing in sorted(spec.keys() - effect.keys() - optional):
        errors.append(f"{path}.{missing}: is required for {op}")
    for extra in sorted(effect.keys() - spec.keys() - {"op"}):
        errors.append(f"{path}.{extra}: unknown field for {op}")
    if continuous and op not in CONTINUOUS_OPS | {"sequence"}:
        errors.append(
            f"{path}.op: a static or equipped ability applies continuously, so it can only use "
            f"{', '.join(sorted(CONTINUOUS_OPS))}; {op!r} happens once"
        )
    if op in CONTINUOUS_OPS and "duration" in effect:
        if continuous and effect["duration"] != "while_source":
            errors.append(f"{path}.duration: a static or equipped ability lasts 'while_source'")
        if not continuous and effect["duration"] == "while_source":
            errors.append(f"{path}.duration: 'while_source' is only for static or equipped abilities")
    for field, kind in spec.items():
        if field not in effect:
            continue
        value = effect[field]
        where = f"{path}.{field}"
        if kind == _UNIT:
            errors.extend(_check_unit_target(value, where, in_sequence=in_sequence))
        elif kind == _PLAYER:
            if value not in PLAYERS:
                errors.append(f"{where}: {value!r} is not one of {', '.join(sorted(PLAYERS))}")
        elif kind == "steps":
            errors.extend(_check_steps(value, where, continuous=continuous))
        elif kind == "card_filter":
            errors.extend(_check_filter(value, where, CARD_FILTER_KEYS))
        else:
            errors.extend(_check_value(value, kind, where))
    if op in SELF_ONLY_OPS and effect.get("player", "self") != "self":
        errors.append(f"{path}.player: {op} is always for 'self'")
    if op == "modify" and effect.get("amount") == 0:
        errors.append(f"{path}.amount: a modifier of 0 does nothing")
    if op == "action_points" and effect.get("amount") == 0:
        errors.append(f"{path}.amount: 0 action points does nothing")
    return errors


def _check_steps(steps: Any, path: str, *, continuous: bool) -> list[str]:
    if not isinstance(steps, list) or len(steps) < 2:
        return [f"{path}: a sequence needs a list of at least two steps"]
    errors: list[str] = []
    seen_unit_step = False
    for i, step in enumerate(steps):
        where = f"{path}[{i}]"
        errors.extend(_check_effect(step, where, continuous=continuous, in_sequence=seen_unit_step))
        if isinstance(step, dict) and step.get("op") == "sequence":
            errors.append(f"{where}.op: sequences don't nest; list the steps in one sequence")
        if isinstance(step, dict) and OPS.get(step.get("op") or "", {}).get("target") == _UNIT:
            seen_unit_step = True
    return errors


def _check_unit_target(target: Any, path: str, *, in_sequence: bool) -> list[str]:
    if not isinstance(target, dict):
        return [f"{path}: must be a mapping with 'select'"]
    select = target.get("select")
    if select not in SELECTS:
        return [f"{path}.select: {select!r} is not one of {', '.join(sorted(SELECTS))}"]
    errors: list[str] = []
    allowed = {"select"}
    if select in ("chosen", "all"):
        allowed |= {"side", "filter"}
        if select == "chosen":
            allowed.add("count")
        if target.get("side") not in SIDES:
            errors.append(f"{path}.side: {select} targets need a side: one of {', '.join(sorted(SIDES))}")
    if select == "previous" and not in_sequence:
        errors.append(f"{path}.select: 'previous' needs an earlier step with unit targets in the same sequence")
    for extra in sorted(target.keys() - allowed):
        errors.append(f"{path}.{extra}: not allowed with select {select!r}")
    if "count" in target and "count" in allowed:
        errors.extend(_check_value(target["count"], range(1, 4), f"{path}.count"))
    if "filter" in target and "filter" in allowed:
        errors.extend(_check_filter(target["filter"], f"{path}.filter", UNIT_FILTER_KEYS))
    return errors


def _check_filter(filt: Any, path: str, keys: dict[str, Any]) -> list[str]:
    if not isinstance(filt, dict) or not filt:
        return [f"{path}: must be a non-empty mapping"]
    errors: list[str] = []
    for key, value in filt.items():
        if key not in keys:
            errors.append(f"{path}.{key}: unknown filter; use one of {', '.join(sorted(keys))}")
        elif key in _LIST_FILTERS:
            if not isinstance(value, list) or not value:
                errors.append(f"{path}.{key}: must be a non-empty list")
            else:
                for i, item in enumerate(value):
                    errors.extend(_check_value(item, keys[key], f"{path}.{key}[{i}]"))
        else:
            errors.extend(_check_value(value, keys[key], f"{path}.{key}"))
    return errors


def _check_value(value: Any, kind: Any, path: str) -> list[str]:
    if kind == "keyword":
        if value not in KEYWORDS:
            return [f"{path}: unknown keyword {value!r}; known: {', '.join(sorted(KEYWORDS))}"]
    elif isinstance(kind, range):
        if not _is_int_in(value, kind):
            return [f"{path}: must be an integer from {kind.start} to {kind.stop - 1}, got {value!r}"]
    elif value not in kind:
        return [f"{path}: {value!r} is not one of {', '.join(sorted(kind))}"]
    return []


def _is_int_in(value: Any, allowed: range) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in allowed


def _unit_targets(effect: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Yield (path, target) for every unit target in an effect, sequences included."""
    if not isinstance(effect, dict):
        return
    if effect.get("op") == "sequence" and isinstance(effect.get("steps"), list):
        for i, step in enumerate(effect["steps"]):
            yield from _unit_targets(step, f"{path}.steps[{i}]")
    elif isinstance(effect.get("target"), dict):
        yield f"{path}.target", effect["target"]
