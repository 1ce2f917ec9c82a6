"""Plain-text deck lists: one "N Card Name" or "N collector-number" per line.

Also read, as other sites write them: "3x Card Name", "3 x Card Name", "Card Name x3", and a
collector number in parentheses after the name, "3 Card Name (I-UNI-01)" (the number decides).
Curly apostrophes match straight ones (decks.cardindex.fold).

Comments (# or //), blank lines and section headers ("Units (24)", "Gateway:", "[Main]") are
tolerated. Reading never raises on bad text: every bad line becomes an Issue with its line
number, so the caller can show them all at once. Pure Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from .cardindex import CardIndex
from .cardinfo import GATEWAY, TYPE_LABELS, TYPE_ORDER, CardInfo, Entry
from .validation import ERROR, Issue

MAX_LINE_COUNT = 60  # no deck holds more copies of anything (DC-3)
MAX_LINES = 1000
MAX_LINE_LENGTH = 200

_COUNTED = re.compile(r"^(?P<count>\S+)\s+(?P<card>\S.*)$")
_TIMES = re.compile(r"^[x×]\s+", re.IGNORECASE)  # "2 x Card Name"
_NUMBERISH = re.compile(r"^[+-]?[\d.,]+[x×]?$", re.IGNORECASE)
_COUNT_AFTER = re.compile(r"^(?P<card>\S.*?)\s+[x×]\s*(?P<count>\d+)$", re.IGNORECASE)  # "Card Name x3"
_NUMBER_AFTER = re.compile(r"^(?P<name>.*?)\s*\((?P<number>[^()]+)\)$")  # "Card Name (I-UNI-01)"
_HEADER = re.compile(r"^\[?\s*(?P<title>[A-Za-z][A-Za-z ]*?)\s*(?:\(\s*\d+\s*\))?\s*\]?\s*:?$")
_META = re.compile(r"^(?:#|//)\s*(?P<key>name|format)\s*:\s*(?P<value>.*?)\s*$", re.IGNORECASE)
SECTION_NAMES = frozenset(
    {"main", "main deck", "deck", "maindeck", "legend", "legends", "unit", "units", "talent", "talents", "glyph",
     "glyphs", "item", "items", "inventory", "inventory item", "inventory items", "gateway", "gateways",
     "gateway pair", "cards"}
)


class DeckListError(Exception):
    """The text cannot be read as a deck list at all (too long); line problems are Issues instead."""


@dataclass(slots=True)
class ParsedList:
    entries: list[Entry] = field(default_factory=list)
    gateway: CardInfo | None = None
    problems: list[Issue] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def _problem(code: str, message: str, line: int, suggestions: Sequence[str] = ()) -> Issue:
    return Issue(code, "", ERROR, message, None, line, tuple(suggestions))


def list_lines(text: str) -> Iterator[tuple[int, str]]:
    """The non-blank lines of a list, stripped, with their numbers (from 1); raises DeckListError for text that
    is not text, or has more than MAX_LINES lines."""
    if not isinstance(text, str):
        raise DeckListError("A deck list must be text.")
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise DeckListError(f"A deck list has at most {MAX_LINES} lines; this one has {len(lines)}.")
    for number, raw in enumerate(lines, start=1):
        if raw.strip():
            yield number, raw.strip()


def parse_deck_list(text: str, index: CardIndex) -> ParsedList:
    out = ParsedList()
    for number, line in list_lines(text):
        if len(line) > MAX_LINE_LENGTH:
            out.problems.append(_problem("bad_line", f"The line is longer than {MAX_LINE_LENGTH} characters.",
                                         number))
            continue
        if line.startswith(("#", "//")):
            meta = _META.match(line)
            if meta:
                out.meta[meta["key"].lower()] = meta["value"]
            continue
        counted = _COUNTED.match(line)
        if counted and _NUMBERISH.match(counted["count"]):
            _read_card_line(out, index, number, counted["count"].rstrip("xX×"), counted["card"].strip())
            continue
        after = _COUNT_AFTER.match(line)
        if after and index.resolve(line) is None:
            _read_card_line(out, index, number, after["count"], after["card"].strip())
            continue
        header = _HEADER.match(line)
        if header and (line.endswith(":") or line.startswith("[") or header["title"].lower() in SECTION_NAMES):
            continue
        if index.resolve(line) is not None:
            out.problems.append(_problem("bad_count", f'"{line}" has no count; write it as '
                                         f'"1 {line}".', number))
        else:
            out.problems.append(_problem(
                "bad_line", f'"{line}" is not a card line; write "N Card Name" or '
                "\"N collector-number\".", number))
    return out


def _read_card_line(out: ParsedList, index: CardIndex, number: int, count_text: str, card_text: str) -> None:
    card = index.resolve(card_text)
    if card is None and _TIMES.match(card_text):
        card_text = _TIMES.sub("", card_text)
        card = index.resolve(card_text)
    numbered = _NUMBER_AFTER.match(card_text) if card is None else None
    if numbered:
        card = index.resolve(numbered["number"].strip()) or index.resolve(numbered["name"])
        if card is None and numbered["name"]:
            card_text = numbered["name"]
    count = int(count_text) if count_text.isascii() and count_text.isdigit() else None
    if count is None or not 1 <= count <= MAX_LINE_COUNT:
        out.problems.append(_problem(
            "bad_count", f'"{count_text}" is not a count; use a whole number from 1 to '
            f"{MAX_LINE_COUNT}.", number))
        if card is not None:
            return
    if card is None:
        suggestions = index.suggest(card_text)
        hint = f" Did you mean {', '.join(suggestions)}?" if suggestions else ""
        out.problems.append(_problem("unknown_card", f'No card is named "{card_text}".{hint}',
                                     number, suggestions))
        return
    if count is None:
        return
    if card.type == GATEWAY:
        if count > 2:
            out.problems.append(_problem("bad_count", f"The gateway pair is 2 cards, not {count}.",
                                         number))
        elif out.gateway is not None and out.gateway.id != card.id:
            out.problems.append(_problem("bad_line", f"The deck already has the gateway card "
                                         f"{out.gateway.name}.", number))
        else:
            out.gateway = card
        return
    out.entries.append(Entry(card, count, number))


def format_deck_list(entries: Sequence[Entry], *, gateway: CardInfo | None = None, name: str = "",
                     format: str = "") -> str:
    """The deck as text, grouped by card type; reading it back gives the same deck."""
    lines: list[str] = []
    if name:
        lines.append(f"# name: {' '.join(name.split())}")
    if format:
        lines.append(f"# format: {format}")
    totals: dict[int, list] = {}
    for e in entries:
        if e.card.id in totals:
            totals[e.card.id][1] += e.count
        else:
            totals[e.card.id] = [e.card, e.count]
    for card_type in TYPE_ORDER:
        group = sorted((v for v in totals.values() if v[0].type == card_type), key=lambda v: v[0].name.casefold())
        if not group:
            continue
        if lines:
            lines.append("")
        label = TYPE_LABELS[card_type]
        lines.append(f"{label if label.endswith('s') else label + 's'} ({sum(c for _, c in group)})")
        lines.extend(f"{count} {card.name}" for card, count in group)
    if gateway is not None:
        lines += ["", "Gateway (2)", f"2 {gateway.name}"]
    return "\n".join(lines) + "\n"
