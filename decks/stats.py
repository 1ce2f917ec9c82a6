"""Deck statistics for the editor: curve, breakdowns, averages and exact draw odds. Pure Python."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from .cardinfo import GATEWAY, TYPE_LABELS, TYPE_ORDER, UNIT, CardInfo, Entry

STAT_FIELDS = ("attack", "defense", "range", "maneuver")


@dataclass(frozen=True, slots=True)
class Odds:
    deck_size: int  # N
    successes: int  # K: copies of the chosen category in the deck
    seen: int  # n: cards seen (opening hand plus draws)
    probability: float  # P(at least one) = 1 - C(N-K, n) / C(N, n)
    exact: Fraction | None = None  # the same, exactly

    @property
    def percent(self) -> str:
        return percent(self.exact if self.exact is not None else Fraction(self.probability))


def percent(p: Fraction) -> str:
    """A probability to one decimal, never rounded to a certainty it is not: "> 99.9%", "< 0.1%"."""
    shown = f"{float(p) * 100:.1f}%"
    if shown == "100.0%" and p < 1:
        return "> 99.9%"
    if shown == "0.0%" and p > 0:
        return "< 0.1%"
    return shown


def at_least_one(deck_size: int, successes: int, seen: int) -> Fraction:
    """Exact hypergeometric P(X >= 1) when drawing `seen` cards without replacement."""
    if deck_size <= 0 or successes <= 0 or seen <= 0:
        return Fraction(0)
    seen = min(seen, deck_size)
    successes = min(successes, deck_size)
    return 1 - Fraction(comb(deck_size - successes, seen), comb(deck_size, seen))


def odds(deck_size: int, successes: int, seen: int) -> Odds:
    exact = at_least_one(deck_size, successes, seen)
    return Odds(deck_size, successes, min(max(seen, 0), deck_size), float(exact), exact)


def main_entries(entries: Sequence[Entry]) -> list[Entry]:
    return [e for e in entries if e.card.type != GATEWAY]


def vitality_curve(entries: Sequence[Entry]) -> list[tuple[int, int]]:
    """(vitality, copies) for every vitality from 0 to the highest in the deck, Units and Legends."""
    counts: dict[int, int] = {}
    for e in main_entries(entries):
        if e.card.vitality is not None:
            counts[e.card.vitality] = counts.get(e.card.vitality, 0) + e.count
    if not counts:
        return []
    return [(v, counts.get(v, 0)) for v in range(0, max(counts) + 1)]


def breakdown(entries: Sequence[Entry], key: Callable[[CardInfo], str]) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for e in main_entries(entries):
        k = key(e.card)
        counts[k] = counts.get(k, 0) + e.count
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def type_breakdown(entries: Sequence[Entry]) -> list[tuple[str, int]]:
    counts = dict(breakdown(entries, lambda c: c.type))
    return [(TYPE_LABELS[t], counts[t]) for t in TYPE_ORDER if t in counts]


def craft_breakdown(entries: Sequence[Entry]) -> list[tuple[str, int]]:
    return breakdown(entries, lambda c: c.craft)


def averages(entries: Sequence[Entry]) -> dict[str, float | None]:
    """Copy-weighted averages of the Units' stats (None when the deck has no Unit)."""
    out: dict[str, float | None] = {}
    units = [e for e in entries if e.card.type == UNIT]
    for name in ("vitality", *STAT_FIELDS):
        total = n = 0
        for e in units:
            value = getattr(e.card, name)
            if value is not None:
                total += value * e.count
                n += e.count
        out[name] = round(total / n, 2) if n else None
    return out


# Categories a player can ask the odds of: a label and a test on a card.
def categories(entries: Sequence[Entry]) -> dict[str, tuple[str, Callable[[CardInfo], bool]]]:
    cats: dict[str, tuple[str, Callable[[CardInfo], bool]]] = {}
    for t in TYPE_ORDER:
        if t != GATEWAY:
            cats[f"type:{t}"] = (f"Any {TYPE_LABELS[t]}", lambda c, t=t: c.type == t)
    for v in range(1, 7):
        cats[f"vit:{v}"] = (f"A Unit of vitality {v} or less",
                            lambda c, v=v: c.type == UNIT and c.vitality is not None and c.vitality <= v)
    for craft in sorted({e.card.craft for e in entries}):
        cats[f"craft:{craft}"] = (f"Any {craft.title()} card", lambda c, craft=craft: c.craft == craft)
    for e in sorted(main_entries(entries), key=lambda e: e.card.name):
        cats[f"card:{e.card.collector_number}"] = (e.card.name, lambda c, cid=e.card.id: c.id == cid)
    return cats


def category_odds(entries: Sequence[Entry], category: str, *, hand_size: int, draws_per_turn: int,
                  turns: int) -> tuple[str, list[tuple[str, Odds]]]:
    """Odds of at least one card of `category` in the opening hand and by each turn up to `turns`."""
    cats = categories(entries)
    label, test = cats.get(category) or cats["type:unit"]
    main = main_entries(entries)
    deck_size = sum(e.count for e in main)
    k = sum(e.count for e in main if test(e.card))
    rows = [("Opening hand", odds(deck_size, k, hand_size))]
    for turn in range(1, turns + 1):
        rows.append((f"By turn {turn}", odds(deck_size, k, hand_size + turn * draws_per_turn)))
    return label, rows


def odds_table(entries: Sequence[Entry], *, hand_size: int, draws_per_turn: int, turns: int,
               category: str | None = None) -> list[dict]:
    """The draw odds of every category (or of one), exact, as plain data: for each, the opening hand and
    each turn up to `turns`, with P(at least one) as a fraction, a number and a percent."""
    cats = categories(entries)
    keys = [category] if category else list(cats)
    main = main_entries(entries)
    deck_size = sum(e.count for e in main)
    table = []
    for key in keys:
        label, test = cats[key]
        copies = sum(e.count for e in main if test(e.card))
        rows = []
        for turn in range(0, turns + 1):
            o = odds(deck_size, copies, hand_size + turn * draws_per_turn)
            rows.append({"turn": turn, "seen": o.seen, "exact": f"{o.exact.numerator}/{o.exact.denominator}",
                         "probability": o.probability, "percent": o.percent})
        table.append({"category": key, "label": label, "copies": copies, "rows": rows})
    return table
