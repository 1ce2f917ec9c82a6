"""Two decks side by side: the cards only the first holds, those only the second holds, and those both hold, each
with its copies in either deck; and how many copies the two share (a card's smaller count, summed).

Pure: it reads the decks' entries (cardinfo.Entry), as validation and statistics do. The pages that show it are
decks/views.py's `compare`; a deck is named there by its number or its link (`deck_reference`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cardinfo import TYPE_ORDER, CardInfo, Entry


@dataclass(frozen=True, slots=True)
class Row:
    card: CardInfo
    first: int  # copies in the first deck (0: not in it)
    second: int

    @property
    def difference(self) -> int:
        """The second deck's copies less the first's."""
        return self.second - self.first

    @property
    def change(self) -> str:
        """The difference as the page says it: "+2", "−1" (a minus sign, not a hyphen) or "same"."""
        return f"+{self.difference}" if self.difference > 0 else f"−{-self.difference}" if self.difference else "same"


@dataclass(frozen=True, slots=True)
class Comparison:
    only_first: list[Row]
    only_second: list[Row]
    both: list[Row]
    first_total: int
    second_total: int

    @property
    def shared(self) -> int:
        """Copies the two decks have in common: each card's smaller count, summed."""
        return sum(min(row.first, row.second) for row in self.both)

    @property
    def differing(self) -> int:
        """Cards both decks hold in different numbers."""
        return sum(row.first != row.second for row in self.both)


def _order(row: Row) -> tuple:
    # Grouped as a deck list is (units, then legends, ...), by name within a type.
    kind = TYPE_ORDER.index(row.card.type) if row.card.type in TYPE_ORDER else len(TYPE_ORDER)
    return kind, row.card.name.casefold(), row.card.collector_number


def compare_decks(first: list[Entry], second: list[Entry]) -> Comparison:
    """`first` and `second`: the main decks' entries (one per card)."""
    cards = {e.card.id: e.card for e in (*first, *second)}
    a = {e.card.id: e.count for e in first}
    b = {e.card.id: e.count for e in second}
    rows = sorted((Row(cards[i], a.get(i, 0), b.get(i, 0)) for i in cards), key=_order)
    return Comparison(only_first=[r for r in rows if not r.second], only_second=[r for r in rows if not r.first],
                      both=[r for r in rows if r.first and r.second],
                      first_total=sum(a.values()), second_total=sum(b.values()))


# A deck's number ("12"), its page's path or whole link ("https://host/decks/12/"), an unlisted deck's link with its
# key ("…/decks/12/?key=…"), or a number followed by that key ("12?key=…").
_REFERENCE = re.compile(r"(?:[^\s?#]*/decks/)?(?P<id>\d{1,18})(?:/[^\s?#]*)?(?:\?(?P<query>[^\s#]*))?(?:#\S*)?")
_KEY = re.compile(r"(?:^|&)key=(?P<key>[A-Za-z0-9_-]+)(?:&|$)")


def deck_reference(text: str) -> tuple[int, str] | None:
    """(deck id, key or "") named by `text`, or None if it names no deck."""
    found = _REFERENCE.fullmatch(text.strip())
    if found is None:
        return None
    key = _KEY.search(found["query"] or "")
    return int(found["id"]), key["key"] if key else ""
