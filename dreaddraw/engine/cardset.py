"""The Dread Draw card set as plain, read-only data for the engine.

Cards are identified by their number (1..N); every per-card property is a tuple indexed by
number (index 0 unused) so the engine's hot loop reads ints, not objects.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data"  # dreaddraw/data/
DEFAULT_PATH = DATA / "cardset.json"  # the current set; an older one stays as cardset-<version>.json

KEYWORDS = ("", "summon", "reserve", "aftermath", "always")
K_NONE, K_SUMMON, K_RESERVE, K_AFTERMATH, K_ALWAYS = range(5)

OPS = (
    "", "gain_life", "scry", "peek_draw", "arrange_draw", "peek_life", "drain", "recruit",
    "salvage", "scavenge", "shield", "spikes", "lookout", "steadfast", "sift_draw", "sift_life", "sift_any_life",
    "cull_life",
)
(OP_NONE, OP_GAIN_LIFE, OP_SCRY, OP_PEEK_DRAW, OP_ARRANGE_DRAW, OP_PEEK_LIFE, OP_DRAIN, OP_RECRUIT,
 OP_SALVAGE, OP_SCAVENGE, OP_SHIELD, OP_SPIKES, OP_LOOKOUT, OP_STEADFAST, OP_SIFT_DRAW, OP_SIFT_LIFE,
 OP_SIFT_ANY_LIFE, OP_CULL_LIFE) = range(len(OPS))

# Which keywords each effect may carry: always-on effects are continuous, the others are one-shot.
ALWAYS_OPS = frozenset({"shield", "spikes", "lookout", "steadfast"})
TRIGGERED_OPS = frozenset(OPS[1:]) - ALWAYS_OPS
# The amount matters (and must be >= 1) for these; for the others it is ignored (written as 1).
COUNTED_OPS = frozenset({"gain_life", "peek_draw", "arrange_draw", "peek_life", "shield", "spikes", "sift_draw",
                         "sift_life", "sift_any_life", "cull_life"})
# Effects that put looked-at cards back in an order the player chooses: their amount is capped.
ORDERED_OPS = frozenset({"arrange_draw", "sift_draw", "sift_life", "sift_any_life", "cull_life"})
MAX_ARRANGE = 4  # permutations of more would make the legal-decision list unwieldy


class CardSetError(ValueError):
    """The card data is malformed: the message names the card number and the field."""


@dataclass(frozen=True, slots=True)
class CardDef:
    number: int
    name: str
    strength: int
    damage: int
    keyword: str
    op: str
    amount: int
    text: str
    fortune_present: str
    fortune_near: str
    fortune_far: str


class CardSet:
    """Immutable per-number tables of a card set."""

    __slots__ = ("version", "cards", "strength", "damage", "keyword", "op", "amount", "numbers",
                 "all_mask", "max_strength")

    def __init__(self, cards: list[CardDef], version: str) -> None:
        cards = sorted(cards, key=lambda c: c.number)
        self.version = version
        self.cards: tuple[CardDef | None, ...] = (None, *cards)
        self.numbers = tuple(c.number for c in cards)
        self.strength = (0, *(c.strength for c in cards))
        self.damage = (0, *(c.damage for c in cards))
        self.keyword = (0, *(KEYWORDS.index(c.keyword) for c in cards))
        self.op = (0, *(OPS.index(c.op) for c in cards))
        self.amount = (0, *(c.amount for c in cards))
        self.all_mask = sum(1 << c.number for c in cards)
        self.max_strength = max(c.strength for c in cards)

    def __len__(self) -> int:
        return len(self.numbers)

    def card(self, number: int) -> CardDef:
        """The card of this number (1..N)."""
        card = self.cards[number]
        if card is None:
            raise IndexError(f"no card number {number} in set {self.version}")
        return card

    def name(self, number: int) -> str:
        card = self.cards[number]
        return card.name if card else f"#{number}"

    def label(self, number: int) -> str:
        """Short readable label: 'Bone Dice (2)'."""
        return f"{self.name(number)} ({self.strength[number]})"


def parse_cardset(doc: dict[str, Any]) -> CardSet:
    """Validate a card-set document (the YAML's structure) and build the engine tables."""
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise CardSetError("the document needs a top-level 'cards' list")
    version = str(doc.get("version") or "")
    if not version:
        raise CardSetError("the document needs a 'version'")
    cards = []
    seen_names: set[str] = set()
    for index, raw in enumerate(doc["cards"], start=1):
        where = f"card #{index}"
        if not isinstance(raw, dict):
            raise CardSetError(f"{where}: expected a mapping")
        number = raw.get("number")
        if number != index:
            raise CardSetError(f"{where}: 'number' must be {index} (numbers run 1..N in order), got {number!r}")
        where = f"card {number}"
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CardSetError(f"{where}: 'name' is required")
        if name in seen_names:
            raise CardSetError(f"{where}: duplicate name {name!r}")
        seen_names.add(name)
        for field in ("strength", "damage"):
            value = raw.get(field)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise CardSetError(f"{where}: '{field}' must be a non-negative integer, got {value!r}")
        keyword = raw.get("keyword", "") or ""
        if keyword not in KEYWORDS:
            raise CardSetError(f"{where}: unknown keyword {keyword!r} (one of {', '.join(KEYWORDS[1:])})")
        effect = raw.get("effect") or {}
        op = effect.get("op", "") if isinstance(effect, dict) else None
        if op is None or op not in OPS:
            raise CardSetError(f"{where}: unknown effect op {op!r}")
        if bool(keyword) != bool(op):
            raise CardSetError(f"{where}: a keyword needs an effect and an effect needs a keyword")
        if keyword == "always" and op not in ALWAYS_OPS:
            raise CardSetError(f"{where}: effect {op!r} is one-shot; it cannot be always-on")
        if keyword and keyword != "always" and op in ALWAYS_OPS:
            raise CardSetError(f"{where}: effect {op!r} is continuous; its keyword must be 'always'")
        if op == "salvage" and keyword != "aftermath":
            raise CardSetError(f"{where}: 'salvage' only makes sense as an Aftermath ability")
        amount = effect.get("amount", 1) if op else 0
        if op and (not isinstance(amount, int) or amount < 1):
            raise CardSetError(f"{where}: effect amount must be a positive integer, got {amount!r}")
        if op in ORDERED_OPS and amount > MAX_ARRANGE:
            raise CardSetError(f"{where}: {op} amount is at most {MAX_ARRANGE}")
        fortune = raw.get("fortune") or {}
        for part in ("present", "near", "far"):
            if not isinstance(fortune.get(part), str) or not fortune[part].strip():
                raise CardSetError(f"{where}: 'fortune.{part}' is required")
        cards.append(CardDef(
            number=number, name=name.strip(), strength=raw["strength"], damage=raw["damage"], keyword=keyword,
            op=op, amount=amount, text=str(raw.get("text") or ""), fortune_present=fortune["present"],
            fortune_near=fortune["near"], fortune_far=fortune["far"],
        ))
    if len(cards) < 20:
        raise CardSetError(f"a set needs at least 20 cards, got {len(cards)}")
    return CardSet(cards, version)


_CACHE: dict[str, CardSet] = {}


def load_cardset(path: Path | str | None = None, version: str | None = None) -> CardSet:
    """Read a set from JSON (plain data, so the engine needs only the standard library).

    With no path: the current set, or the set of `version` (the current one, or an older one kept as
    `cardset-<version>.json` so that games played under it replay exactly as played). Those are read once and
    cached; an unknown version raises CardSetError."""
    if path is not None:
        with open(path, encoding="utf-8") as handle:
            return parse_cardset(json.load(handle))
    key = version or ""
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    current = _CACHE.get("") or _read(DEFAULT_PATH)
    _CACHE[""] = _CACHE[current.version] = current
    if version and version != current.version:
        older = DATA / f"cardset-{version}.json"
        if not re.fullmatch(r"[A-Za-z0-9._-]+", version) or not older.is_file():
            raise CardSetError(f"no card set of version {version!r} (the current one is {current.version!r})")
        cardset = _read(older)
        if cardset.version != version:
            raise CardSetError(f"{older.name} holds version {cardset.version!r}, not {version!r}")
        _CACHE[version] = cardset
    return _CACHE[key]


def _read(path: Path) -> CardSet:
    with open(path, encoding="utf-8") as handle:
        return parse_cardset(json.load(handle))


def cardset_versions() -> list[str]:
    """Every version that can be loaded: the older ones kept beside the current, then the current."""
    older = sorted(p.name[len("cardset-"):-len(".json")] for p in DATA.glob("cardset-*.json"))
    return [*older, load_cardset().version]
