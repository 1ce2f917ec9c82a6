"""Plain-text deck lists: one "N Card Name" or "N collector-number" per line (docs/rules.md, DC-9).

Also read, as other sites write them: "3x Card Name", "3 x Card Name", "Card Name x3", and a
collector number in parentheses after the name, "3 Card Name (I-UNI-01)" (the number decides; a name of
another card beside it is refused). Moxfield's set code and number ("3 Card Name (SET) 12"), its finish marks
("*F*"), Archidekt's categories and labels ("[Units]", "^Have,#37d67a^") are read past; Arena's "About" section
gives the deck its name ("Name My Deck").
Curly apostrophes match straight ones (decks.cardindex.fold). A Markdown bullet before a line
("- 4 Name", "* 4x Name"), a comment after a card ("4 Name # early drop") and a byte-order mark
are read past.

Comments (# or //), blank lines and the sections of the main deck ("Units (24)", "Gateway:", "[Main]")
are tolerated. The cards of a sideboard or maybeboard section ("Sideboard", "// Sideboard",
"[Maybeboard]", "Considering:") and of MTGO's "SB: 2 Name" lines are the considering list, never the
main deck; a section this module does not know is a bad line. Reading never raises on bad text: every
bad line becomes an Issue with its line number, so the caller can show them all at once. Pure Python,
no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from core.invisible import without_invisible

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
# "Card Name (I-UNI-01)", and Moxfield's "Card Name (SET) 12": the set's own number after it is no card's here.
_NUMBER_AFTER = re.compile(r"^(?P<name>.*?)\s*\((?P<number>[^()]+)\)(?:\s+[A-Za-z0-9-]+)?$")
# After a card, what other sites mark it with: Moxfield's finish ("*F*", "*E*"), Archidekt's categories ("[Units]")
# and labels ("^Have,#37d67a^"). A whole line in brackets is a section header, never read past.
_MARKS = re.compile(r"(?:\s+(?:\*[A-Za-z]+\*|\[[^\[\]]*\]|\^[^^]*\^))+$")
_CATEGORY = re.compile(r"\[(?P<names>[^\[\]]*)\]")
_ABOUT_NAME = re.compile(r"^Name\s+(?P<value>\S.*)$", re.IGNORECASE)  # Arena: "About", then "Name My Deck"
_COLLECTOR_NUMBER = re.compile(r"^[A-Za-z]{1,4}-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$")  # as the catalog writes them
_HEADER = re.compile(r"^\[?\s*(?P<title>[A-Za-z][A-Za-z ]*?)\s*(?:\(\s*\d+\s*\))?\s*\]?\s*:?$")
_META = re.compile(r"^(?:#|//)\s*(?P<key>name|format|description)\s*:\s?(?P<value>.*?)\s*$", re.IGNORECASE)
SECTION_NAMES = frozenset(
    {"main", "main deck", "deck", "maindeck", "legend", "legends", "unit", "units", "talent", "talents", "glyph",
     "glyphs", "item", "items", "inventory", "inventory item", "inventory items", "cards", "equipment"}
)
# Sections that hold the deck's gateway pair (DC-7), outside the main deck: a card in one must be a gateway card.
GATEWAY_SECTION_NAMES = frozenset({"gateway", "gateways", "gateway pair"})
# Sections whose cards are kept beside the deck (its considering list): other sites' sideboard and maybeboard.
CONSIDERING_SECTION_NAMES = frozenset(
    {"sideboard", "side board", "side", "sb", "maybeboard", "maybe board", "maybe", "maybes", "considering",
     "considering list"}
)
MAIN, CONSIDERING, GATEWAY_PAIR, ABOUT = "main", "considering", "gateway pair", "about"
_BULLET = re.compile(r"^[-*\u2022]\s+")  # "- 4 Name", "* 4x Name", "\u2022 4 Name"
_SIDEBOARD_LINE = re.compile(r"^SB:\s*(?=\S)", re.IGNORECASE)  # MTGO: "SB: 2 Name"
# A comment after a card: a space, then # or //. No card name or collector number holds either (the catalog's
# text round trip in tests/decks/test_roundtrip.py reads every name back).
_TRAILING_COMMENT = re.compile(r"\s+(?:#|//).*$")


class DeckListError(Exception):
    """The text cannot be read as a deck list at all (too long); line problems are Issues instead."""


@dataclass(slots=True)
class ParsedList:
    entries: list[Entry] = field(default_factory=list)
    gateway: CardInfo | None = None
    considering: list[Entry] = field(default_factory=list)  # the cards of sideboard and maybeboard sections
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
    lines = text.removeprefix("\ufeff").splitlines()  # a byte-order mark, as some editors save a file
    if len(lines) > MAX_LINES:
        raise DeckListError(f"A deck list has at most {MAX_LINES} lines; this one has {len(lines)}.")
    for number, raw in enumerate(lines, start=1):
        # Decision (DC-9): characters drawn as nothing (a zero-width space a web page's copy leaves, a direction
        # override) are read past: a line is what it shows, and no refusal quotes one that reorders its words.
        line = without_invisible(raw).strip()
        if line:
            yield number, line


@dataclass(frozen=True, slots=True)
class Section:
    kind: str  # MAIN, CONSIDERING, GATEWAY_PAIR or ABOUT
    title: str  # as the list writes it, e.g. "Sideboard"


def section_of(line: str) -> Section | None:
    """The section a header line opens ("Units (24)", "[Sideboard]", "Maybeboard:", "// Sideboard", "## Units"),
    or None when the line is no header of a known section."""
    commented = line.startswith(("#", "//"))
    text = line.lstrip("#/").strip() if commented else line
    header = _HEADER.match(text)
    if not header:
        return None
    title = " ".join(header["title"].lower().split())
    if title in CONSIDERING_SECTION_NAMES:
        return Section(CONSIDERING, " ".join(header["title"].split()))
    if title == "about":
        return Section(ABOUT, " ".join(header["title"].split()))
    if title in GATEWAY_SECTION_NAMES:
        return Section(GATEWAY_PAIR, " ".join(header["title"].split()))
    if title in SECTION_NAMES:
        return Section(MAIN, " ".join(header["title"].split()))
    return None


def unknown_section(line: str, index: CardIndex) -> str | None:
    """The title of a line written as a section header ("Tokens:", "[Commander]", "Creatures (20)") that is no
    section DC-9 knows and no card, else None."""
    header = _HEADER.match(line)
    if not header or not (line.endswith(":") or line.startswith("[") or "(" in line):
        return None
    title = " ".join(header["title"].split())
    return None if index.resolve(line) or index.resolve(title) else title


def deck_texts(text: str) -> list[str]:
    """The decks of a text that holds several, each begun by its `# name:` line (the export of all of a player's
    decks writes them so); a text with one such line or none is one deck."""
    if not isinstance(text, str):
        return [text]  # refused by the reading, as one
    lines = text.removeprefix("\ufeff").splitlines()  # each deck is held to MAX_LINES when it is read, not all
    starts = [i for i, raw in enumerate(lines) if _name_line(raw) is not None]
    if len(starts) < 2:
        return [text]
    bounds = [0, *starts[1:], len(lines)]
    return ["\n".join(lines[start:end]) for start, end in zip(bounds, bounds[1:], strict=False)]


def list_name(text: str) -> str | None:
    """The name a list gives itself in its first `# name:` line, if it has one."""
    return next((name for raw in text.splitlines() if (name := _name_line(raw)) is not None), None)


def _name_line(raw: str) -> str | None:
    meta = _META.match(_BULLET.sub("", without_invisible(raw).strip(), count=1))
    return meta["value"].strip() if meta and meta["key"].lower() == "name" else None


def parse_deck_list(text: str, index: CardIndex) -> ParsedList:
    out = ParsedList()
    section = Section(MAIN, "")
    for number, line in list_lines(text):
        if len(line) > MAX_LINE_LENGTH:
            out.problems.append(_problem("bad_line", f"The line is longer than {MAX_LINE_LENGTH} characters.",
                                         number))
            continue
        line = _BULLET.sub("", line, count=1)
        commented = line.startswith(("#", "//"))
        marked_aside = None
        if not commented:
            line, marked_aside = _without_marks(_TRAILING_COMMENT.sub("", line))
        opened = section_of(line)
        if opened is not None:
            section = opened
            continue
        if commented:
            meta = _META.match(line)
            if meta and meta["key"].lower() == "description" and "description" in out.meta:
                out.meta["description"] += "\n" + meta["value"]  # a description of several lines, a line each
            elif meta:
                out.meta[meta["key"].lower()] = meta["value"].strip()
            continue
        here = section if marked_aside is None else marked_aside
        if here.kind == ABOUT:
            about = _ABOUT_NAME.match(line)
            if about:
                out.meta["name"] = about["value"]
            else:
                out.problems.append(_problem("bad_line", f'"{line}" is not a line of the "About" section, which holds '
                                             'the deck\'s name ("Name My Deck"); its cards follow "Deck".', number))
            continue
        sideboard_line = _SIDEBOARD_LINE.match(line)
        if sideboard_line:
            here, line = Section(CONSIDERING, "SB:"), line[sideboard_line.end():]
        counted = _COUNTED.match(line)
        if counted and _NUMBERISH.match(counted["count"]):
            _read_card_line(out, index, number, counted["count"].rstrip("xX×"), counted["card"].strip(), here)
            continue
        after = _COUNT_AFTER.match(line)
        if after and index.resolve(line) is None:
            _read_card_line(out, index, number, after["count"], after["card"].strip(), here)
            continue
        header = _HEADER.match(line)
        title = " ".join(header["title"].split()) if header else ""
        if index.resolve(line) is not None or (title and index.resolve(title) is not None):
            out.problems.append(_problem("bad_count", f'"{line}" has no count; write it as '
                                         f'"1 {line if index.resolve(line) else title}".', number))
        elif unknown := unknown_section(line, index):
            # Decision (DC-9): a section the app does not know is refused rather than read as the main deck.
            out.problems.append(_problem(
                "bad_line", f'"{unknown}" is not a section of a deck list: the sections are the card types, Main, '
                "Gateway, and Sideboard, Maybeboard or Considering (the considering list).", number))
        else:
            out.problems.append(_problem(
                "bad_line", f'"{line}" is not a card line; write "N Card Name" or '
                "\"N collector-number\".", number))
    return out


def _without_marks(line: str) -> tuple[str, Section | None]:
    """The line without the marks other sites put after a card, and the considering list's section when one of its
    Archidekt categories names it ("[Sideboard]", "[Maybeboard{noDeck}]"): such a card is never the main deck's."""
    marks = _MARKS.search(line)
    if marks is None:
        return line, None
    for category in _CATEGORY.finditer(marks.group()):
        for name in category["names"].split(","):
            name = re.sub(r"\{[^{}]*\}", "", name).strip()
            if " ".join(name.lower().split()) in CONSIDERING_SECTION_NAMES:
                return line[:marks.start()], Section(CONSIDERING, name)
    return line[:marks.start()], None


def _count_refused(count_text: str, count: int | None) -> str:
    if count is not None and count > MAX_LINE_COUNT:
        return (f"{count} copies is more than any deck holds of one card: a line holds at most {MAX_LINE_COUNT} "
                "(DC-3), and the copy limits allow fewer (DC-4, DC-5).")
    return f'"{count_text}" is not a count; use a whole number from 1 to {MAX_LINE_COUNT}.'


def _read_card_line(out: ParsedList, index: CardIndex, number: int, count_text: str, card_text: str,
                    section: Section) -> None:
    card = index.resolve(card_text)
    if card is None and _TIMES.match(card_text):
        card_text = _TIMES.sub("", card_text)
        card = index.resolve(card_text)
    numbered = _NUMBER_AFTER.match(card_text) if card is None else None
    if numbered:
        written = numbered["number"].strip()
        card = index.resolve(written) or index.resolve(numbered["name"])
        if card is None and numbered["name"]:
            card_text = numbered["name"]
        elif card is not None and _COLLECTOR_NUMBER.match(written) and index.resolve(written) is None:
            # The number decides (DC-9): one the catalog does not have is not read past for the name beside it.
            out.problems.append(_problem("unknown_card", f'No card is numbered "{written}"; {card.name} is '
                                         f"{card.collector_number}: write its number, or its name alone.", number))
            return
        elif card is not None and (named := index.resolve(numbered["name"])) is not None and named.id != card.id:
            # Decision (DC-9): a name and a number of two cards is refused, not read as the number's card.
            out.problems.append(_problem("bad_line", f"{named.name} is {named.collector_number}, and "
                                         f"{card.collector_number} is {card.name}: write the card's name or its "
                                         "number alone.", number))
            return
    count = int(count_text) if count_text.isascii() and count_text.isdigit() else None
    if count is None or not 1 <= count <= MAX_LINE_COUNT:
        out.problems.append(_problem("bad_count", _count_refused(count_text, count), number))
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
    if section.kind == CONSIDERING:
        _consider(out, card, count, number, section)
        return
    if section.kind == GATEWAY_PAIR and card.type != GATEWAY:
        # Decision (DC-9): read as the main deck, it would land there from a section that meant the gateway pair.
        out.problems.append(_problem("bad_line", f'{card.name} is not a gateway card: the "{section.title}" section '
                                     "holds the deck's gateway pair (DC-7).", number))
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


def _consider(out: ParsedList, card: CardInfo, count: int, number: int, section: Section) -> None:
    """A card of a sideboard or maybeboard section: on the considering list, which is neither counted nor
    validated but holds no gateway card and at most MAX_LINE_COUNT copies of a card."""
    where = f'under "{section.title}"' if section.title != "SB:" else 'after "SB:"'
    if card.type == GATEWAY:
        out.problems.append(_problem("bad_line", f"{card.name} is the gateway card: it comes with the deck, not "
                                     f"{where} (the considering list).", number))
        return
    held = sum(e.count for e in out.considering if e.card.id == card.id)
    if held + count > MAX_LINE_COUNT:
        out.problems.append(_problem("bad_count", f"The considering list ({where}) holds at most {MAX_LINE_COUNT} "
                                     f"copies of {card.name}; this line makes {held + count}.", number))
        return
    out.considering.append(Entry(card, count, number))


def format_deck_list(entries: Sequence[Entry], *, gateway: CardInfo | None = None, name: str = "",
                     format: str = "", considering: Sequence[Entry] = (), description: str = "") -> str:
    """The deck as text, grouped by card type, its considering list last under its own section (DC-9); reading
    it back gives the same deck, its description too (a `# description:` line for each of its lines)."""
    lines: list[str] = []
    if name:
        lines.append(f"# name: {' '.join(name.split())}")
    if format:
        lines.append(f"# format: {format}")
    lines.extend(f"# description: {line}".rstrip() for line in description.strip().splitlines())
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
    if considering:
        lines += ["", f"Considering ({sum(e.count for e in considering)})"]
        lines.extend(f"{e.count} {e.card.name}" for e in sorted(considering, key=lambda e: e.card.name.casefold()))
    return "\n".join(lines) + "\n"
