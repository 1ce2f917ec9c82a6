"""What the deck pages show, computed from plain entries: grouped list, legality, stats and charts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from core.crafts import CRAFTS
from core.intbounds import shortened

from . import stats
from .cardinfo import CardInfo, Entry
from .charts import bar_chart
from .piles import piles
from .validation import copy_limits, validate_deck

OPENING_HAND = 6  # DG-4.4
DEFAULT_TURNS = 4


# The odds' inputs: (parameter, its label on the page, default, least, most).
ODDS_NUMBERS = (("hand", "Opening hand", OPENING_HAND, 0, 20), ("draws", "Draws per turn", 1, 0, 10),
                ("turns", "Turns", DEFAULT_TURNS, 1, 15))


@dataclass(frozen=True, slots=True)
class OddsInputs:
    category: str = "type:unit"
    hand: int = OPENING_HAND
    draws: int = 1
    turns: int = DEFAULT_TURNS
    # What was asked and could not be used, in the player's words ((parameter, words), ...): the odds shown use
    # the default instead, and say so beside the inputs, which show the values used.
    problems: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> OddsInputs:
        values, problems = {}, []
        for name, label, default, low, high in ODDS_NUMBERS:
            raw = str(params.get(name, "")).strip()
            if raw.isascii() and raw.isdigit() and low <= int(raw) <= high:
                values[name] = int(raw)
                continue
            values[name] = default
            if raw:  # an emptied box is the default, asked for
                problems.append((name, f"{label}: “{shortened(raw, 12)}” is not a whole number from {low} to "
                                       f"{high}; the odds below use {default}."))
        return cls(str(params.get("category", "") or "type:unit")[:60], problems=tuple(problems), **values)

    @property
    def invalid(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.problems)


def grouped(entries: Sequence[Entry]) -> list[dict]:
    """The deck by type, as the deck page and the print page show it (each group's `type` is its key)."""
    return [{**pile, "type": pile["key"]} for pile in piles(entries, "type")]


def panel(entries: Sequence[Entry], deck_format: str, odds: OddsInputs | None = None,
          gateway: CardInfo | None = None) -> dict:
    """Everything the deck panel (editor and deck page) shows, recomputed on every change."""
    odds = odds or OddsInputs()
    report = validate_deck(entries, deck_format, gateway=gateway)
    curve = stats.vitality_curve(entries)
    crafts = stats.craft_breakdown(entries)
    types = stats.type_breakdown(entries)
    label, odds_rows = stats.category_odds(entries, odds.category, hand_size=odds.hand, draws_per_turn=odds.draws,
                                           turns=odds.turns)
    categories = [(key, name) for key, (name, _) in stats.categories(entries).items()]
    if odds.category not in dict(categories):  # a category this deck has not: said, and Units shown
        odds = replace(odds, category="type:unit", problems=(*odds.problems, (
            "category", f"At least one of: this deck has no category “{shortened(odds.category, 40)}”; the odds "
                        f"below are for {label}.")))
    return {
        "groups": grouped(entries),
        "report": report,
        "count": report.count,
        "curve": curve,
        "curve_chart": bar_chart("Vitality curve (copies per vitality)", [(str(v), n) for v, n in curve]),
        "crafts": [(c, CRAFTS[c].colour if c in CRAFTS else "", n) for c, n in crafts],
        "craft_chart": bar_chart("Cards per craft", [(c[:3].title(), n) for c, n in crafts],
                                 colours=[CRAFTS[c].hex if c in CRAFTS else "#6a3d9a" for c, _ in crafts]),
        "types": types,
        "type_chart": bar_chart("Cards per type", [(t.split()[-1][:6], n) for t, n in types]),
        "averages": stats.averages(entries),
        "odds": odds,
        "odds_label": label,
        "odds_rows": odds_rows,
        "odds_categories": categories,
        "copy_limits": copy_limits(deck_format),
    }
