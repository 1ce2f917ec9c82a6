"""Did you mean: the one place that suggests what a player meant by a field or a value the language does not know.

Two sources, in this order:

- habits: what a player of other card searches (Scryfall's language above all) types for a field or a value that
  has another name here: `id:red` for the craft (`c:red`), `pow>=5` for attack (`atk>=5`), `sort:` for `order:`,
  `t:creature` for a unit, `sub:sword` for a weapon;
- spelling: the known names closest to the one written (difflib), `kw:aviaton` → `kw:aviation`.

A value that belongs to another field suggests that field (`kw:flying` → `is:flying`, `is:legend` → `t:legend`,
`kw:flyng` → `is:flying`). The compiler passes the vocabularies (compiler.py defines every field's values once);
this module only ranks them and writes the suggested terms.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

# A field a habit names -> the field meant here.
FIELD_HABITS = {
    "id": "c", "identity": "c", "ci": "c", "commander": "c",
    "pow": "atk", "power": "atk", "tou": "vit", "toughness": "vit", "hp": "vit", "health": "vit",
    "cmc": "cost", "mv": "cost", "manavalue": "cost", "mana": "cost", "m": "cost",
    "sort": "order", "dir": "direction", "oracle": "o", "fo": "o", "fulloracle": "o",
    "keywords": "kw", "number": "cn", "st": "sub", "types": "t",
}
# (kind, value a habit names) -> (field, value) meant here.
VALUE_HABITS: dict[tuple[str, str], tuple[str, str]] = {
    ("type", "creature"): ("t", "unit"), ("type", "planeswalker"): ("t", "legend"),
    ("type", "legendary"): ("t", "legend"), ("type", "commander"): ("t", "legend"),
    ("type", "artifact"): ("t", "item"),
    ("is", "legendary"): ("t", "legend"), ("is", "commander"): ("t", "legend"), ("is", "creature"): ("t", "unit"),
    ("is", "flyer"): ("is", "flying"), ("is", "flier"): ("is", "flying"),
    ("kw", "flyer"): ("is", "flying"), ("kw", "flier"): ("is", "flying"),
    ("order", "power"): ("order", "atk"), ("order", "pow"): ("order", "atk"),
    ("order", "toughness"): ("order", "vit"), ("order", "tou"): ("order", "vit"),
    ("order", "cmc"): ("order", "cost"), ("order", "mv"): ("order", "cost"), ("order", "set"): ("order", "cn"),
    ("order", "number"): ("order", "cn"), ("order", "color"): ("order", "craft"),
    ("sub", "sword"): ("sub", "weapon"), ("sub", "axe"): ("sub", "weapon"), ("sub", "blade"): ("sub", "weapon"),
    ("sub", "bow"): ("sub", "weapon"), ("sub", "spear"): ("sub", "weapon"), ("sub", "dagger"): ("sub", "weapon"),
    ("sub", "shield"): ("sub", "armor"), ("sub", "helm"): ("sub", "armor"), ("sub", "armour"): ("sub", "armor"),
    ("sub", "instrument"): ("sub", "musical instrument"),
    ("craft", "u"): ("c", "blue"), ("craft", "b"): ("c", "black"), ("craft", "r"): ("c", "red"),
    ("craft", "g"): ("c", "green"), ("craft", "colorless"): ("c", "universal"),
    ("craft", "colourless"): ("c", "universal"),
}
# The kinds whose values name what a card is: a value of one written under another suggests its own field.
CROSS_KINDS = ("is", "type", "sub", "kw", "craft")
MOST = 3


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """A field's known values: its short name (how a suggestion writes it) and every value it accepts."""

    field: str
    values: Mapping[str, object] | tuple[str, ...]


def term_text(field: str, op: str, value: str) -> str:
    """A term as a player writes it: a value with a space in quotes."""
    return f'{field}{op}"{value}"' if " " in value else f"{field}{op}{value}"


def field_suggestions(field: str, op: str, value: str, fields: Mapping[str, object]) -> list[str]:
    """The terms meant by `field op value` whose field is unknown, best first (at most three)."""
    meant = [FIELD_HABITS[field]] if field in FIELD_HABITS else []
    meant += difflib.get_close_matches(field, list(fields), n=MOST, cutoff=0.6)
    return [term_text(f, op, value) for f in dict.fromkeys(meant)][:MOST]


def value_suggestions(written_field: str, op: str, kind: str, value: str,
                      vocabularies: Mapping[str, Vocabulary]) -> list[str]:
    """The terms meant by a value that field `kind` does not know (written under `written_field`), best first."""
    value = value.strip().lower()
    own = vocabularies[kind]
    found: list[str] = []
    if (kind, value) in VALUE_HABITS:
        field, meant = VALUE_HABITS[kind, value]
        found.append(term_text(written_field if field == own.field else field, op, meant))
    others = [vocabularies[k] for k in CROSS_KINDS if k != kind and k in vocabularies] if kind in CROSS_KINDS else []
    found += [term_text(other.field, op, value) for other in others if value in other.values]
    found += [term_text(written_field, op, m) for m in difflib.get_close_matches(value, list(own.values), n=MOST)]
    for other in others:
        found += [term_text(other.field, op, m)
                  for m in difflib.get_close_matches(value, list(other.values), n=MOST, cutoff=0.75)]
    if len(value) >= 3:  # a word of a longer value: sub:relic → sub:"relic weapon"
        found += [term_text(written_field, op, known) for known in own.values
                  if known != value and value in known.split()]
    return list(dict.fromkeys(found))[:MOST]


def did_you_mean(suggestions: list[str]) -> str:
    """The sentence of a message that offers the suggestions ("" for none)."""
    return f" Did you mean {' or '.join(suggestions)}?" if suggestions else ""
