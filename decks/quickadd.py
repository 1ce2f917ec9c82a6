"""The editor's quick-add box: lines that add or remove copies, as card players type them.

"4 Name", "4x Name", "4 x Name", "Name x4", a bare "Name" (one copy), "-1 Name" (remove one), and a collector
number in place of a name; several lines pasted at once are read together. Each line reads as the deck list
does (decks.decklist: the same names, numbers and suggestions), with a sign in front. Quick add changes the main
deck, and its considering list with the cards of a pasted sideboard or maybeboard section (or an "SB:" line), as an
import does; the text of the main deck ("Edit as text") refuses those, naming the section: they are never added to
the main deck (DC-9). Pure Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.intbounds import shortened

from .cardindex import CardIndex
from .cardinfo import CardInfo, Entry
from .decklist import (
    CONSIDERING,
    MAX_LINE_COUNT,
    MAX_LINE_LENGTH,
    Section,
    list_lines,
    parse_deck_list,
    section_of,
    unknown_section,
)
from .validation import ERROR, Issue, copies_allowed

_SIGNED = re.compile(r"^(?P<sign>[+-])\s*(?=\d)")  # "-1 Name", "+2 Name"
_LEADING_COUNT = re.compile(r"^\d+\s*[x×]?\s", re.IGNORECASE)
_TRAILING_COUNT = re.compile(r"\s[x×]\s*\d+$", re.IGNORECASE)  # "Name x4": its count is its own, never a name's
_NONE_OF = re.compile(r"^0+\s*[x×]?\s+(?=\S)", re.IGNORECASE)  # "0 Name": none of the card


@dataclass(frozen=True, slots=True)
class QuickChange:
    card: CardInfo
    delta: int  # copies to add (negative: to remove)
    line: int


@dataclass(slots=True)
class QuickLines:
    changes: list[QuickChange] = field(default_factory=list)
    considering: list[QuickChange] = field(default_factory=list)  # the considering list's (a sideboard's lines)
    problems: list[Issue] = field(default_factory=list)
    gateway: CardInfo | None = None  # the deck's own gateway card, named on a line read past

    def net(self) -> list[tuple[CardInfo, int]]:
        """The change of each card, its lines added up (in the order the cards first come): "2 X" and "-2 X" in one
        paste change nothing, whatever the copy limit would have made of each line alone."""
        return _net(self.changes)

    def net_considering(self) -> list[tuple[CardInfo, int]]:
        """The considering list's changes, added up as `net()` adds up the main deck's."""
        return _net(self.considering)


def _net(changes: list[QuickChange]) -> list[tuple[CardInfo, int]]:
    totals: dict[str, tuple[CardInfo, int]] = {}
    for change in changes:
        card, delta = totals.get(change.card.collector_number, (change.card, 0))
        totals[change.card.collector_number] = (card, delta + change.delta)
    return [(card, delta) for card, delta in totals.values() if delta]


def parse_quick_add(text: str, index: CardIndex, *, reader: str = "", zero_is_none: bool = False,
                    gateway: str = "") -> QuickLines:
    """Every line's change, or every line's problem (with its line number and suggestions); raises
    DeckListError for text that is not lines of a list at all (too many lines). A card of a sideboard or maybeboard
    section, or of an "SB:" line, is a change of the considering list (DC-9); a `reader` (the box that reads the
    main deck alone) refuses it, naming the box. `zero_is_none`: a line at 0 ("0 Name") is read as none of a card
    that must exist, and changes nothing, where a list of changes refuses it as no count. `gateway`: the deck's
    gateway card (collector number), whose line (as the deck's own text export writes it) is read past."""
    out = QuickLines()
    considered: Section | None = None  # the sideboard or maybeboard section the lines are under, if any
    for number, line in list_lines(text):
        opened = section_of(line)
        if opened is not None:
            considered = opened if opened.kind == CONSIDERING else None
            continue
        sign = 1
        signed = _SIGNED.match(line)
        if signed:
            sign = -1 if signed["sign"] == "-" else 1
            line = line[signed.end():]
        none_of = _NONE_OF.match(line) if zero_is_none else None
        if none_of:
            line = "1 " + line[none_of.end():]  # read for its card alone
        parsed = parse_deck_list(line[:MAX_LINE_LENGTH + 1], index)
        if parsed.problems and parsed.problems[0].code in ("bad_line", "bad_count") and not _LEADING_COUNT.match(line) \
                and not _TRAILING_COUNT.search(line) and unknown_section(line, index) is None:
            parsed = parse_deck_list(f"1 {line}", index)  # a name alone is one copy
        for problem in parsed.problems:
            message = _signed_count_refused(signed, line) if signed and problem.code == "bad_count" else None
            out.problems.append(Issue(problem.code, problem.rule, ERROR, message or problem.message, problem.card,
                                      number, problem.suggestions))
        if not parsed.problems and (considered is not None or parsed.considering):
            where = 'after "SB:"' if parsed.considering or considered is None else f'under "{considered.title}"'
            if reader:
                out.problems.append(Issue("bad_line", "", ERROR, f"This card is {where}: {reader} changes the main "
                                          "deck only; put it on the considering list with “Consider” on a search "
                                          "result.", None, number))
            elif parsed.gateway is not None:
                out.problems.append(Issue("bad_line", "", ERROR, f"{parsed.gateway.name} is {where}: the considering "
                                          "list takes no gateway card.", parsed.gateway.collector_number, number))
            else:
                out.considering += [QuickChange(entry.card, sign * entry.count, number)
                                    for entry in parsed.considering or parsed.entries]
            continue
        if parsed.gateway is not None and parsed.gateway.collector_number.casefold() == gateway.casefold():
            out.gateway = parsed.gateway
        elif parsed.gateway is not None:
            out.problems.append(Issue("not_main_deck_card", "DC-7", ERROR, f"{parsed.gateway.name} is the gateway "
                                      "card: it comes with the deck, not in it.", parsed.gateway.collector_number,
                                      number))
        if not none_of:
            out.changes += [QuickChange(entry.card, sign * entry.count, number) for entry in parsed.entries]
    return out


def _signed_count_refused(signed: re.Match, line: str) -> str | None:
    """A change of too many copies, quoted with its sign ("-99999", not the "99999 copies" a list's line reads)."""
    digits = re.match(r"\d+", line)
    if digits is None or int(digits[0]) <= MAX_LINE_COUNT:
        return None
    moved = "adds" if signed["sign"] == "+" else "takes away"
    return (f"“{signed['sign']}{shortened(digits[0], 20)}”: a line {moved} at most {MAX_LINE_COUNT} copies of a card "
            "(DC-3).")


def parse_whole_list(text: str, index: CardIndex, *, held: Mapping[str, int], deck_format: str,
                     gateway: str = "") -> QuickLines:
    """The main deck written out whole ("Edit as text"): each line a card and its count, read as quick add reads
    them, so that its changes are the counts wanted (`net()` adds up the lines of one card; a card at 0 or left out
    is wanted at 0). A line that takes copies away ("-1 Name") is a change, not a count, and more copies than the
    rules allow (DC-4, DC-5) are not what the deck will hold: each refused on its line. `held`: the deck's counts
    now (by collector number), which a text may keep even past the limit (a deck whose format changed)."""
    out = parse_quick_add(text, index, reader="the text", zero_is_none=True, gateway=gateway)
    first_line: dict[str, int] = {}
    for change in out.changes:
        first_line.setdefault(change.card.collector_number, change.line)
        if change.delta < 0:
            out.problems.append(Issue("bad_count", "", ERROR, f"{change.card.name}: the text gives each card's "
                                      "count, not a change; write how many copies the deck holds.",
                                      change.card.collector_number, change.line))
    for card, count in out.net():
        allowed = copies_allowed(card, deck_format)
        if count > max(allowed.limit, held.get(card.collector_number, 0)):
            out.problems.append(Issue(allowed.code, allowed.rule, ERROR, f"{allowed.text}; the text gives {count}.",
                                      card.collector_number, first_line[card.collector_number]))
    out.problems.sort(key=lambda problem: problem.line or 0)  # said in the order of the lines
    return out


def deltas_to(now: Sequence[Entry], wanted: Sequence[tuple[CardInfo, int]]) -> list[tuple[CardInfo, int]]:
    """The changes that make the deck `now` hold `wanted` (card, count) and nothing else: the cards wanted in their
    order, then those the deck holds and `wanted` leaves out."""
    held = {entry.card.collector_number: entry.count for entry in now}
    named = {card.collector_number for card, _ in wanted}
    changes = [(card, count - held.get(card.collector_number, 0)) for card, count in wanted]
    changes += [(entry.card, -entry.count) for entry in now if entry.card.collector_number not in named]
    return [(card, delta) for card, delta in changes if delta]
