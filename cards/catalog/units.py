"""Deterministic generator of the 8,100 unit cards (one per stat combination).

Pure Python: the loader, the rules engine and the benches use it without a database. Each unit's
choices come from a random source seeded with its own stats, so a unit keeps its craft, directions,
keywords and name however the others change; only a name collision falls back to the next candidate
name of that unit, in collector-number order. The design is written down in docs/catalog.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator
from typing import Any

from core.crafts import CRAFT_ORDER
from core.keywords import reminder_line

from .unit_words import WORDS

GENERATOR_SEED = "dreadgate-units-1"  # changing it reshuffles every generated choice

VITALITY = range(1, 10)
ATTACK = range(0, 10)
DEFENSE = range(0, 10)
RANGE = range(1, 4)
MANEUVER = range(1, 4)
UNIT_COUNT = len(VITALITY) * len(ATTACK) * len(DEFENSE) * len(RANGE) * len(MANEUVER)  # 8,100


# Direction bits (cards.models.DIRECTIONS): n=1 is forward, toward the opponent.
N, NE, E, SE, S, SW, W, NW = (1 << i for i in range(8))
ALL = 255
MANEUVER_PATTERNS = {
    "forward": N,
    "advance": N | NE | NW,
    "line": N | S,
    "cross": N | E | S | W,
    "flank": N | E | W,
    "diagonal": N | NE | NW | SE | SW,
    "star": ALL,
}
ATTACK_PATTERNS = {
    "forward": N,
    "spearhead": N | NE | NW,
    "front": N | NE | NW | E | W,
    "cross": N | E | S | W,
    "line": N | S,
    "diagonal": N | NE | NW | SE | SW,
    "all": ALL,
}
# Pattern weights per craft, in the order of the pattern dicts above.
MANEUVER_WEIGHTS = {
    "artifice": (1, 2, 1, 2, 2, 3, 3),
    "champion": (3, 4, 1, 1, 2, 1, 1),
    "divine": (2, 2, 3, 3, 2, 1, 1),
    "engineering": (4, 1, 3, 1, 2, 0.5, 0.5),
    "hinter": (2, 3, 1, 2, 2, 2, 2),
    "sorcery": (3, 2, 2, 2, 2, 2, 1),
    "universal": (3, 3, 2, 2, 2, 1, 1),
}
ATTACK_WEIGHTS = {
    "artifice": (2, 2, 1, 1, 1, 4, 1),
    "champion": (2, 4, 3, 1, 0.5, 1, 1.5),
    "divine": (3, 2, 2, 3, 2, 1, 1),
    "engineering": (5, 2, 1, 1, 2, 0.5, 0.5),
    "hinter": (2, 3, 3, 2, 1, 1, 2),
    "sorcery": (2, 2, 2, 2, 1, 2, 2),
    "universal": (4, 3, 2, 1, 1, 1, 0.5),
}
# Chance of each keyword per craft (independent draws; execution also needs attack 4+).
KEYWORD_CHANCES = {
    "artifice": {"subdue": 0.08, "execution": 0.03, "spectral": 0.05, "aviation": 0.04},
    "champion": {"subdue": 0.02, "execution": 0.09, "spectral": 0.01, "aviation": 0.03},
    "divine": {"subdue": 0.03, "execution": 0.01, "spectral": 0.03, "aviation": 0.05},
    "engineering": {"subdue": 0.02, "execution": 0.02, "spectral": 0.005, "aviation": 0.08},
    "hinter": {"subdue": 0.03, "execution": 0.02, "spectral": 0.01, "aviation": 0.10},
    "sorcery": {"subdue": 0.02, "execution": 0.01, "spectral": 0.07, "aviation": 0.06},
    "universal": {"subdue": 0.01, "execution": 0.01, "spectral": 0.005, "aviation": 0.03},
}
KEYWORD_ORDER = ("aviation", "subdue", "execution", "spectral")
NAME_ATTEMPTS = 60


def collector_number(vitality: int, attack: int, defense: int, range_: int, maneuver: int) -> str:
    """U-<v><a><d><r><m>: one digit per stat, so it is stable and can't be mistaken for a name."""
    return f"U-{vitality}{attack}{defense}{range_}{maneuver}"


def stat_space() -> Iterator[tuple[int, int, int, int, int]]:
    """Every stat combination, in collector-number order."""
    for v in VITALITY:
        for a in ATTACK:
            for d in DEFENSE:
                for r in RANGE:
                    for m in MANEUVER:
                        yield v, a, d, r, m


def craft_affinities(vitality: int, attack: int, defense: int, range_: int, maneuver: int) -> dict[str, float]:
    """How well the stats fit each craft's speciality, roughly 0..1.5 (the universal craft is flat)."""
    v, a, d = vitality / 9, attack / 9, defense / 9
    r, m = (range_ - 1) / 2, (maneuver - 1) / 2
    return {
        "artifice": 1.1 * m + 0.3 * (1 - v) - 0.2 * d,  # maneuver, small and slippery
        "champion": 1.4 * a - 0.3 * d + 0.1 * v,  # battle
        "divine": 1.4 * d - 0.3 * a + 0.1 * v,  # protection
        "engineering": 0.9 * r + 0.3 * d + 0.2 * v - 0.3 * m + 0.05,  # machines: long range, sturdy, slow
        "hinter": 1.2 * v + 0.2 * a - 0.2 * r,  # creatures: big bodies, close in
        "sorcery": 1.0 * r + 0.3 * a - 0.2 * d - 0.1 * v + 0.15,  # ranged magic, fragile
        "universal": 0.62,
    }


def generate_units(reserved_names: Iterable[str] = ()) -> list[dict[str, Any]]:
    """All 8,100 unit cards as plain dicts with the Card model's field names (keywords as slugs).

    `reserved_names` (the authored cards' names) are never given to a unit.
    """
    taken = set(reserved_names)
    units = []
    for stats in stat_space():
        unit = generate_unit(*stats, taken=taken)
        taken.add(unit["name"])
        units.append(unit)
    return units


def generate_unit(
    v: int, a: int, d: int, r: int, m: int, *, taken: set[str] | frozenset[str] = frozenset()
) -> dict[str, Any]:
    """One unit, from its stats alone; `taken` names are skipped."""
    number = collector_number(v, a, d, r, m)
    rng = random.Random(f"{GENERATOR_SEED}:{number}")
    affinities = craft_affinities(v, a, d, r, m)
    craft = rng.choices(CRAFT_ORDER, weights=[math.exp(3.0 * affinities[c]) for c in CRAFT_ORDER])[0]
    maneuver_dirs = rng.choices(tuple(MANEUVER_PATTERNS.values()), weights=MANEUVER_WEIGHTS[craft])[0]
    attack_dirs = rng.choices(tuple(ATTACK_PATTERNS.values()), weights=ATTACK_WEIGHTS[craft])[0]

    keywords = []
    chances = KEYWORD_CHANCES[craft]
    for slug in KEYWORD_ORDER:
        roll = rng.random()  # always drawn, so one keyword's odds never shift another's
        if roll < chances[slug] and len(keywords) < 2 and (slug != "execution" or a >= 4):
            keywords.append(slug)
    flying = min(4, m + 1 + (rng.random() < 0.35)) if "aviation" in keywords else None
    is_unique = rng.random() < 0.01 + 0.05 * (v + a + d) / 27

    return {
        "collector_number": number,
        "name": _name(rng, craft, v, "aviation" in keywords, taken),
        "craft": craft,
        "type": "unit",
        "subtype": "",
        "text": "\n".join(reminder_line(k) for k in keywords),
        "flavor": "",
        "vitality": v,
        "attack": a,
        "defense": d,
        "range": r,
        "maneuver": m,
        "flying_maneuver": flying,
        "attack_directions": attack_dirs,
        "maneuver_directions": maneuver_dirs,
        "is_unique": is_unique,
        "is_instant": False,
        "is_consumable": False,
        "cost": None,
        "influence": None,
        "keywords": keywords,
        "abilities": [],
    }


def _name(rng: random.Random, craft: str, vitality: int, flies: bool, taken: set[str]) -> str:
    words = WORDS[craft]
    if flies:
        nouns = words.flyers
    else:
        nouns = words.small if vitality <= 3 else words.medium if vitality <= 6 else words.large
    for _ in range(NAME_ATTEMPTS):
        noun = rng.choice(nouns)
        roll = rng.random()
        if roll < 0.7:
            name = f"{rng.choice(words.adjectives)} {noun}"
        elif roll < 0.9:
            name = f"{noun} of {rng.choice(words.places)}"
        else:
            name = f"{rng.choice(words.adjectives)} {noun} of {rng.choice(words.places)}"
        if name not in taken:
            return name
    # Crowded corner of the name space: walk all three-part names from a seeded starting point.
    total = len(words.adjectives) * len(nouns) * len(words.places)
    start = rng.randrange(total)
    for step in range(total):
        i = (start + step) % total
        adj, rest = divmod(i, len(nouns) * len(words.places))
        noun_i, place_i = divmod(rest, len(words.places))
        name = f"{words.adjectives[adj]} {nouns[noun_i]} of {words.places[place_i]}"
        if name not in taken:
            return name
    raise RuntimeError(f"no free {craft} name left for a unit of vitality {vitality}")
