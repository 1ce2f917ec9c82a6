"""Reads the authored cards (cards/catalog/data/dreadgate.yaml) into plain card dicts.

Pure Python (PyYAML, no Django). Every problem in the data file is reported at once, each naming
the card and the field, so a curator can fix the file in one pass.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from core.cardtypes import ITEM_SUBTYPES, TALENT_SUBTYPES
from core.effects import validate_card_abilities
from core.keywords import KEYWORDS, reminder_line

DATA_DIR = Path(__file__).resolve().parent / "data"
DREADGATE_FILE = DATA_DIR / "dreadgate.yaml"

DIRECTION_BITS = {name: 1 << i for i, name in enumerate(("n", "ne", "e", "se", "s", "sw", "w", "nw"))}
CRAFT_CODES = {
    "artifice": "ART", "champion": "CHA", "divine": "DIV", "engineering": "ENG",
    "hinter": "HIN", "sorcery": "SOR", "universal": "UNI",
}  # fmt: skip
# section of a craft in the data file -> (card type, collector number letter)
SECTIONS = {"legends": ("legend", "L"), "glyphs": ("glyph", "G"), "talents": ("talent", "T"), "items": ("item", "I")}
STAT_RANGES = {
    "vitality": range(1, 10), "attack": range(0, 10), "defense": range(0, 10),
    "range": range(1, 4), "maneuver": range(1, 4),
}  # fmt: skip
CARD_FIELDS = frozenset(
    {
        "number", "name", "subtype", "cost", "instant", "consumable", "unique", "stats", "flying_maneuver",
        "maneuver_directions", "attack_directions", "influence", "keywords", "text", "flavor", "abilities",
    }
)  # fmt: skip


_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser when libyaml is there: ~10x faster


class CatalogDataError(ValueError):
    """The data file has problems; `errors` lists every one of them."""

    def __init__(self, errors: list[str], source: str = "") -> None:
        self.errors = errors
        where = f" in {source}" if source else ""
        super().__init__(f"{len(errors)} problem(s){where}:\n" + "\n".join(f"  - {e}" for e in errors))


def load_authored(path: Path = DREADGATE_FILE) -> tuple[str, list[dict[str, Any]]]:
    """(declared version, authored card dicts with the Card model's field names)."""
    with open(path, encoding="utf-8") as fh:
        data = yaml.load(fh, Loader=_SafeLoader)
    return parse_authored(data, source=path.name)


def parse_authored(data: Any, source: str = "") -> tuple[str, list[dict[str, Any]]]:
    errors: list[str] = []
    if not isinstance(data, dict):
        raise CatalogDataError(["the file must be a mapping with version, crafts and gateway"], source)
    version = data.get("version")
    if not isinstance(version, str) or not re.fullmatch(r"[0-9A-Za-z.\-]{1,20}", version):
        errors.append("version: must be a short version string such as '2026.1'")
    cards: list[dict[str, Any]] = []
    crafts = data.get("crafts")
    if not isinstance(crafts, dict):
        errors.append("crafts: must be a mapping of craft name to its sections")
        crafts = {}
    for craft, sections in crafts.items():
        if craft not in CRAFT_CODES:
            errors.append(f"crafts.{craft}: unknown craft; use one of {', '.join(CRAFT_CODES)}")
            continue
        for section, entries in (sections or {}).items():
            if section not in SECTIONS:
                errors.append(f"crafts.{craft}.{section}: unknown section; use one of {', '.join(SECTIONS)}")
                continue
            ctype, letter = SECTIONS[section]
            for i, entry in enumerate(entries or []):
                where = f"crafts.{craft}.{section}[{i}]"
                card, card_errors = _card(entry, craft=craft, ctype=ctype, letter=letter, where=where)
                errors.extend(card_errors)
                if card:
                    cards.append(card)
    gateway, gateway_errors = _card(
        data.get("gateway"), craft="universal", ctype="gateway", letter="X", where="gateway"
    )
    errors.extend(gateway_errors)
    if gateway:
        cards.append(gateway)
    errors.extend(_duplicates(cards))
    if errors:
        raise CatalogDataError(errors, source)
    return version, cards


def _card(entry: Any, *, craft: str, ctype: str, letter: str, where: str) -> tuple[dict[str, Any] | None, list[str]]:
    if not isinstance(entry, dict):
        return None, [f"{where}: must be a mapping"]
    name = entry.get("name")
    label = f"{where} ({entry.get('number', '?')} {name or '?'})"
    errors = [f"{label}.{k}: unknown field" for k in sorted(entry.keys() - CARD_FIELDS)]

    def err(field: str, message: str) -> None:
        errors.append(f"{label}.{field}: {message}")

    if not isinstance(name, str) or not name.strip() or len(name) > 80:
        err("name", "must be text of 1 to 80 characters")
    number = entry.get("number")
    pattern = r"X-GATE" if ctype == "gateway" else rf"{letter}-{CRAFT_CODES[craft]}-\d\d"
    if not isinstance(number, str) or not re.fullmatch(pattern, number):
        err("number", f"must match {pattern} for a {craft} {ctype}")

    subtype = entry.get("subtype", "")
    allowed_subtypes = {"talent": TALENT_SUBTYPES, "item": ITEM_SUBTYPES}.get(ctype, frozenset({""}))
    if subtype not in allowed_subtypes:
        err("subtype", f"must be one of {', '.join(sorted(allowed_subtypes)) or 'nothing'} for a {ctype}")

    cost = entry.get("cost")
    if ctype in ("talent", "glyph", "item"):
        if not _int_in(cost, range(0, 6)):
            err("cost", "must be an integer from 0 to 5 (action points to play)")
    elif cost is not None:
        err("cost", f"a {ctype} has no cost field (a legend's cost is its vitality)")

    stats = entry.get("stats")
    card_stats: dict[str, int | None] = dict.fromkeys(STAT_RANGES)
    if ctype == "legend":
        if not isinstance(stats, dict) or set(stats) != set(STAT_RANGES):
            err("stats", f"a legend needs exactly {', '.join(STAT_RANGES)}")
        else:
            for stat, allowed in STAT_RANGES.items():
                if not _int_in(stats[stat], allowed):
                    err(f"stats.{stat}", f"must be an integer from {allowed.start} to {allowed.stop - 1}")
                else:
                    card_stats[stat] = stats[stat]
    elif stats is not None:
        err("stats", f"a {ctype} has no stats")

    keywords = entry.get("keywords", [])
    if not isinstance(keywords, list) or any(k not in KEYWORDS for k in keywords):
        err("keywords", f"must be a list of {', '.join(KEYWORDS)}")
        keywords = []
    flying = entry.get("flying_maneuver")
    if "aviation" in keywords:
        if not _int_in(flying, range(1, 5)):
            err("flying_maneuver", "an aviation legend needs a flying maneuver from 1 to 4")
    elif flying is not None:
        err("flying_maneuver", "only units with aviation have a flying maneuver")

    directions = {}
    for field in ("maneuver_directions", "attack_directions"):
        value = entry.get(field)
        if ctype != "legend":
            if value is not None:
                err(field, f"a {ctype} has no direction indicator")
            directions[field] = 0
        elif not isinstance(value, list) or not value or any(d not in DIRECTION_BITS for d in value):
            err(field, f"must be a non-empty list of {', '.join(DIRECTION_BITS)}")
        else:
            directions[field] = sum(DIRECTION_BITS[d] for d in set(value))

    influence = entry.get("influence")
    if ctype == "legend" and not _int_in(influence, range(1, 4)):
        err("influence", "a legend provides 1 to 3 influence of its craft")
    elif ctype != "legend" and influence is not None:
        err("influence", "only legends provide influence")

    abilities = entry.get("abilities", [])
    if not isinstance(abilities, list):
        err("abilities", "must be a list")
        abilities = []
    errors.extend(f"{label}.{e}" for e in validate_card_abilities({"type": ctype, "abilities": abilities}))
    triggers = {a.get("trigger") for a in abilities if isinstance(a, dict)}
    is_instant = bool(entry.get("instant", False))
    is_consumable = bool(entry.get("consumable", False))
    if ctype in ("talent", "glyph"):
        if not abilities:
            err("abilities", f"a {ctype} needs at least one ability")
        if is_instant != ("instant" in triggers):
            err("instant", "an instant card has an instant ability, and only instant cards do")
    if is_consumable != ("consumable" in triggers) or (is_consumable and ctype != "item"):
        err("consumable", "a consumable item has a consumable ability, and only consumable items do")
    if subtype == "battlefield" and "equipped" in triggers:
        err("abilities", "a Battlefield item is never attached, so it has no equipped ability")

    for field in ("text", "flavor"):
        if not isinstance(entry.get(field, ""), str):
            err(field, "must be text")
    if errors:
        return None, errors
    is_unique = ctype in ("legend", "glyph", "gateway") or bool(entry.get("unique", False))
    text_lines = [reminder_line(k) for k in keywords]
    text_lines += [_ability_line(a) for a in abilities]
    if entry.get("text"):
        text_lines.append(entry["text"].strip())
    return {
        "collector_number": number,
        "name": name.strip(),
        "craft": craft,
        "type": ctype,
        "subtype": subtype,
        "text": "\n".join(text_lines),
        "flavor": (entry.get("flavor") or "").strip(),
        **card_stats,
        "flying_maneuver": flying,
        **directions,
        "is_unique": is_unique,
        "is_instant": is_instant,
        "is_consumable": is_consumable,
        "cost": cost,
        "influence": influence,
        "keywords": list(keywords),
        "abilities": abilities,
    }, []


def _ability_line(ability: dict[str, Any]) -> str:
    """The printed line of an ability: its cost and trigger, then its rules text."""
    name, trigger, cost, text = ability["name"], ability["trigger"], ability["cost"], ability["text"].strip()
    if trigger == "activated":
        return f"{name} ({cost} AP): {text}"
    if trigger == "instant":
        points = "talent point" if cost == 1 else "talent points"
        return f"{name} (instant, {cost} {points}): {text}"
    if trigger == "deploy":
        return f"{name} (deploy): {text}"
    if trigger == "static":
        return f"{name}: {text}"
    if trigger == "equipped":
        return f"Equipped: {text}"
    return text  # play, consumable: the card's own effect


def _duplicates(cards: list[dict[str, Any]]) -> list[str]:
    errors = []
    for field in ("collector_number", "name"):
        seen: set[str] = set()
        for card in cards:
            if card[field] in seen:
                errors.append(f"{card['collector_number']}: {field} {card[field]!r} is used by two cards")
            seen.add(card[field])
    return errors


def _int_in(value: Any, allowed: range) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in allowed
