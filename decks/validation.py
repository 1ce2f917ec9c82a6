"""The one deck validator (rules DC-1..DC-7 of docs/rules.md), used by the editor, the API,
the importer and playtest submission alike.

Formats are data (FORMATS); each check is a small generic function over plain CardInfo
entries, never a special case for a card id. `validate_deck` returns every violation at
once, plus warnings for legal but weak decks. It imports nothing from Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from core.formats import FORMATS, Format

from .cardinfo import GATEWAY, LEGEND, MAIN_DECK_TYPES, TYPE_LABELS, UNIT, UNIVERSAL, CardInfo, Entry

ERROR, WARNING = "error", "warning"


FormatRules = Format  # a format's deck limits, from core.formats

# Thresholds of the advice warnings (docs/rules.md, after DC-7).
FEW_UNITS = 12
HIGH_CURVE = 6.0


@dataclass(frozen=True, slots=True)
class Issue:
    """One violation or warning. `card` is the collector number where one card is at fault."""

    code: str
    rule: str
    severity: str
    message: str
    card: str | None = None
    line: int | None = None
    suggestions: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"code": self.code, "rule": self.rule, "message": self.message}
        if self.card is not None:
            data["card"] = self.card
        if self.line is not None:
            data["line"] = self.line
        if self.suggestions:
            data["suggestions"] = list(self.suggestions)
        return data


@dataclass(slots=True)
class Report:
    format: str
    count: int
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.errors

    def as_dict(self) -> dict[str, object]:
        return {
            "legal": self.legal,
            "count": self.count,
            "errors": [i.as_dict() for i in self.errors],
            "warnings": [i.as_dict() for i in self.warnings],
        }


@dataclass(frozen=True, slots=True)
class Totals:
    """An entry list merged per card (a card may be listed twice), with the line that reached each total."""

    cards: dict[int, CardInfo]
    counts: dict[int, int]
    lines: dict[int, int | None]
    main_count: int
    gateway: CardInfo | None = None  # the gateway pair beside the main deck (DC-7)


def merge(entries: Iterable[Entry], gateway: CardInfo | None = None) -> Totals:
    cards: dict[int, CardInfo] = {}
    counts: dict[int, int] = {}
    lines: dict[int, int | None] = {}
    main = 0
    for e in entries:
        cid = e.card.id
        cards[cid] = e.card
        counts[cid] = counts.get(cid, 0) + e.count
        lines[cid] = e.line if e.line is not None else lines.get(cid)
        if e.card.type != GATEWAY:
            main += e.count
    return Totals(cards, counts, lines, main, gateway)


Check = Callable[[Totals, FormatRules], Iterator[Issue]]


def _err(code: str, rule: str, message: str, card: CardInfo | None = None, line: int | None = None) -> Issue:
    return Issue(code, rule, ERROR, message, card.collector_number if card else None, line)


def check_main_deck_types(t: Totals, f: FormatRules) -> Iterator[Issue]:
    for cid, card in t.cards.items():
        if card.type not in MAIN_DECK_TYPES:
            yield _err(
                "not_main_deck_card", "DC-2",
                f"{card.name} is a {TYPE_LABELS.get(card.type, card.type)} card: it comes with the deck beside the "
                "main deck, not in it.", card, t.lines[cid],
            )


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def check_size(t: Totals, f: FormatRules) -> Iterator[Issue]:
    if t.main_count < f.min_cards:
        yield _err("too_few_cards", "DC-3",
                   f"The main deck has {_cards(t.main_count)}; a {f.label} deck needs at least {f.min_cards}.")
    elif t.main_count > f.max_cards:
        yield _err("too_many_cards", "DC-3",
                   f"The main deck has {_cards(t.main_count)}; a {f.label} deck holds at most {f.max_cards}.")


@dataclass(frozen=True, slots=True)
class CopyLimit:
    """The most copies of a card a deck may hold (DC-4, DC-5), with the rule and the words that say so."""

    limit: int
    code: str
    rule: str
    text: str  # "X has the unique icon: at most 1 copy": a refusal adds ".", the report the deck's count


def copy_limits(deck_format: str) -> dict[str, int]:
    """The copies of a card the format allows: {"unique": DC-4's limit, "copies": DC-5's}."""
    f = FORMATS.get(deck_format, FORMATS["standard"])
    return {"unique": f.unique_limit, "copies": f.copy_limit}


def copies_allowed(card: CardInfo, deck_format: str) -> CopyLimit:
    f = FORMATS.get(deck_format, FORMATS["standard"])
    if card.is_unique:
        return CopyLimit(f.unique_limit, "unique_over_limit", "DC-4",
                         f"{card.name} has the unique icon: at most {f.unique_limit} copy")
    return CopyLimit(f.copy_limit, "copies_over_limit", "DC-5", f"{card.name}: at most {f.copy_limit} copies of a card")


def check_copies(t: Totals, f: FormatRules) -> Iterator[Issue]:
    for cid, card in t.cards.items():
        if card.type not in MAIN_DECK_TYPES:
            continue
        n = t.counts[cid]
        allowed = copies_allowed(card, f.slug)
        if n > allowed.limit:
            yield _err(allowed.code, allowed.rule, f"{allowed.text}, the deck has {n}.", card, t.lines[cid])


def check_format_types(t: Totals, f: FormatRules) -> Iterator[Issue]:
    allowed = " and ".join(sorted(TYPE_LABELS[x] + "s" for x in f.allowed_types))
    for cid, card in t.cards.items():
        if card.type in MAIN_DECK_TYPES and card.type not in f.allowed_types:
            yield _err("type_not_allowed", "DC-6",
                       f"{card.name} is a {card.type_label}: a {f.label} deck holds only {allowed}.",
                       card, t.lines[cid])


def warn_gateway_unused(t: Totals, f: FormatRules) -> Iterator[Issue]:
    """DC-7: a format played without a gateway does not use the pair; it stays beside the deck for the others."""
    if t.gateway is not None and not f.uses_gateway:
        yield Issue("gateway_unused", "DC-7", WARNING,
                    f"{t.gateway.name}: {f.label} is played without a gateway, so the deck's gateway pair is not "
                    "used (it is kept for Standard and Quick).", t.gateway.collector_number)


CHECKS: tuple[Check, ...] = (check_main_deck_types, check_size, check_copies, check_format_types)


def warn_craft_without_legend(t: Totals, f: FormatRules) -> Iterator[Issue]:
    if not f.legends_allowed:
        return
    legend_crafts = {c.craft for c in t.cards.values() if c.type == LEGEND}
    missing: dict[str, int] = {}
    for cid, card in t.cards.items():
        if card.type in MAIN_DECK_TYPES and card.type != LEGEND and card.craft != UNIVERSAL \
                and card.craft not in legend_crafts:
            missing[card.craft] = missing.get(card.craft, 0) + t.counts[cid]
    for craft, n in sorted(missing.items()):
        yield Issue("craft_without_legend", "", WARNING,
                    f"{n} {craft.title()} card{'s' if n != 1 else ''} but no {craft.title()} Legend: no influence "
                    "pays for their Units, only action points and recycled cards.")


def warn_few_units(t: Totals, f: FormatRules) -> Iterator[Issue]:
    units = sum(t.counts[cid] for cid, c in t.cards.items() if c.type == UNIT)
    if t.main_count and units < FEW_UNITS:
        yield Issue("few_units", "", WARNING,
                    f"Only {units} Unit{'s' if units != 1 else ''}: fewer than {FEW_UNITS} leaves little to "
                    + ("push through the gateway or to defend with." if f.uses_gateway else "fight or defend with."))


def warn_high_curve(t: Totals, f: FormatRules) -> Iterator[Issue]:
    total = n = 0
    for cid, c in t.cards.items():
        if c.type == UNIT and c.vitality is not None:
            total += c.vitality * t.counts[cid]
            n += t.counts[cid]
    if n and total / n > HIGH_CURVE:
        yield Issue("high_curve", "", WARNING,
                    f"Average Unit vitality is {total / n:.1f}: most Units cost more than a turn's 4 action points "
                    "to deploy.")


WARNINGS: tuple[Check, ...] = (warn_craft_without_legend, warn_few_units, warn_high_curve, warn_gateway_unused)


def validate_deck(entries: Sequence[Entry], format: str, *, prior_errors: Iterable[Issue] = (),
                  gateway: CardInfo | None = None) -> Report:
    """Every violation of the format's rules at once, and the warnings. `prior_errors` (from
    reading a list: unknown cards, bad counts) are reported first and make the deck illegal;
    `gateway` is the deck's gateway card, beside the main deck (DC-7)."""
    rules = FORMATS.get(format)
    if rules is None:
        raise ValueError(f"Unknown format {format!r}; the formats are {', '.join(FORMATS)}.")
    totals = merge(entries, gateway)
    report = Report(format, totals.main_count, list(prior_errors))
    for check in CHECKS:
        report.errors.extend(check(totals, rules))
    for warn in WARNINGS:
        report.warnings.extend(warn(totals, rules))
    return report
