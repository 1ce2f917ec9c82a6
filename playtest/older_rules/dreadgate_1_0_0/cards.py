"""Card definitions as plain data: the Card model's fields, built from dicts, no database needed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from core.crafts import CRAFT_INDEX
from core.keywords import KEYWORDS

UNIVERSAL = CRAFT_INDEX["universal"]

KW_SUBDUE, KW_EXECUTION, KW_SPECTRAL, KW_AVIATION = 1, 2, 4, 8
KEYWORD_BITS = {"subdue": KW_SUBDUE, "execution": KW_EXECUTION, "spectral": KW_SPECTRAL, "aviation": KW_AVIATION}
assert KEYWORD_BITS.keys() == KEYWORDS.keys(), "a keyword of core.keywords has no bit in the engine"


class CardDataError(ValueError):
    """A card definition the engine can't play (unknown keyword, missing stat, ...)."""


@dataclass(slots=True)
class CardDef:
    """One card as the engine sees it; field names are those of cards.models.Card."""

    collector_number: str
    name: str
    craft: str
    type: str
    subtype: str = ""
    vitality: int | None = None
    attack: int | None = None
    defense: int | None = None
    range: int | None = None
    maneuver: int | None = None
    flying_maneuver: int | None = None
    attack_directions: int = 0
    maneuver_directions: int = 0
    is_unique: bool = False
    is_instant: bool = False
    is_consumable: bool = False
    cost: int | None = None
    influence: int | None = None
    keywords: list[str] = field(default_factory=list)
    abilities: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CardDef:
        """Build from a dict with the model's field names; unknown keys (text, flavor, ...) are left out."""
        names = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        kws = values.get("keywords") or []
        values["keywords"] = [k if isinstance(k, str) else k["slug"] for k in kws]
        values["abilities"] = list(values.get("abilities") or [])
        return cls(**values)

    @property
    def is_board_card(self) -> bool:
        return self.type in ("unit", "legend")


class Compiled:
    """Per-definition numbers the hot loop reads, computed once per game."""

    __slots__ = (
        "card", "index", "code", "kind", "craft", "vit", "atk", "dfn", "rng", "mnv", "fmnv", "adirs", "mdirs",
        "kw", "cost", "influence", "abilities", "has_static", "has_use", "instant", "tp_cost", "relic_weapon",
        "battlefield_item", "consumable", "subtype", "lasting", "board", "continuous", "chosen", "uses", "positional",
    )  # fmt: skip

    def __init__(self, card: CardDef, index: int):
        self.card = card
        self.index = index
        self.code = card.collector_number
        self.kind = card.type
        self.board = card.type in ("unit", "legend")
        self.subtype = card.subtype or ""
        if card.craft not in CRAFT_INDEX:
            raise CardDataError(f"{card.collector_number}: unknown craft {card.craft!r}")
        self.craft = CRAFT_INDEX[card.craft]
        kw = 0
        for slug in card.keywords:
            if slug not in KEYWORD_BITS:
                raise CardDataError(f"{card.collector_number}: unknown keyword {slug!r}")
            kw |= KEYWORD_BITS[slug]
        self.kw = kw
        if card.is_board_card:
            for stat in ("vitality", "attack", "defense", "range", "maneuver"):
                if getattr(card, stat) is None:
                    raise CardDataError(f"{card.collector_number}: a {card.type} needs {stat}")
        self.vit = card.vitality or 0
        self.atk = card.attack or 0
        self.dfn = card.defense or 0
        self.rng = card.range or 0
        self.mnv = card.maneuver or 0
        self.fmnv = card.flying_maneuver if card.flying_maneuver is not None else self.mnv
        self.adirs = card.attack_directions or 0
        self.mdirs = card.maneuver_directions or 0
        self.cost = card.cost or 0
        self.influence = card.influence or 0
        self.abilities = tuple(card.abilities)
        triggers = [a.get("trigger") for a in self.abilities]
        self.has_static = any(t in ("static", "equipped") for t in triggers)
        self.has_use = any(t in ("activated", "instant") for t in triggers)
        # (index, ability, activated?, cost) of the abilities a player uses as actions or instants
        self.uses = tuple(
            (i, a, a["trigger"] == "activated", a.get("cost", 0))
            for i, a in enumerate(self.abilities)
            if a.get("trigger") in ("activated", "instant")
        )
        self.instant = card.type in ("talent", "glyph") and (card.is_instant or "instant" in triggers)
        instant_costs = [a.get("cost", 0) for a in self.abilities if a.get("trigger") == "instant"]
        self.tp_cost = sum(instant_costs) if instant_costs else self.cost
        self.relic_weapon = card.type == "item" and self.subtype == "relic weapon"
        self.battlefield_item = card.type == "item" and self.subtype == "battlefield"
        self.consumable = card.type == "item" and (card.is_consumable or "consumable" in triggers)
        self.lasting = _lasting(self.abilities)
        # the chosen targets of the abilities that resolve as the card is played (DG-18.5)
        played = ("consumable",) if card.type == "item" else ("play", "instant")
        self.chosen = tuple(t for a in self.abilities if a.get("trigger") in played for t in chosen_of(a))
        # (trigger, steps) of the continuous abilities, read by refresh_statics after most actions
        self.continuous = tuple(
            (a["trigger"], tuple(_steps(a["effect"])))
            for a in self.abilities
            if a.get("trigger") in ("static", "equipped")
        )
        # a continuous ability that reaches by distance: only then can a unit's maneuver change what it modifies
        self.positional = any(
            "within" in ((step.get("target") or {}).get("filter") or {})
            for _, steps in self.continuous
            for step in steps
        )


_TEMPLATES: dict[int, tuple[CardDef, Compiled]] = {}


def compile_card(card: CardDef, index: int) -> Compiled:
    """Compiled(card, index), reusing the work done for the same CardDef object in an earlier game.

    The cache keeps the card alive beside its template, so an id is never reused for another card. A card
    changed in place after it was compiled would be stale; CardDefs are treated as immutable.
    """
    hit = _TEMPLATES.get(id(card))
    if hit is None or hit[0] is not card:
        if len(_TEMPLATES) > 20_000:
            _TEMPLATES.clear()
        hit = _TEMPLATES[id(card)] = (card, Compiled(card, index))
    template = hit[1]
    c = Compiled.__new__(Compiled)
    for name in Compiled.__slots__:
        setattr(c, name, getattr(template, name))
    c.index = index
    return c


def _steps(effect: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = effect["steps"] if effect.get("op") == "sequence" else [effect]
    return steps


def chosen_of(ability: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """The target specs of an ability's steps that the player chooses, in order."""
    return tuple(
        step["target"]
        for step in _steps(ability["effect"])
        if isinstance(step.get("target"), dict) and step["target"].get("select") == "chosen"
    )


def _lasting(abilities: Iterable[dict[str, Any]]) -> str | None:
    """The longest duration among a card's effects, for Battlefield Talents on the sideline (DG-15.2)."""
    order = {"end_of_turn": 0, "next_turn": 1, "permanent": 2}
    best = None
    stack = [a.get("effect") for a in abilities]
    while stack:
        eff = stack.pop()
        if not isinstance(eff, dict):
            continue
        if eff.get("op") == "sequence":
            stack.extend(eff.get("steps") or [])
        dur = eff.get("duration")
        if dur in order and (best is None or order[dur] > order[best]):
            best = dur
    return best
