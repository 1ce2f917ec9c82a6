"""The in-process index of the catalog: a search answered with set operations, no database.

The catalog is small and fixed per catalog version, so each process keeps one index of it, built
from the database the first time a version is searched, rebuilt when the version changes, and
shared by every request (one build at a time, under a lock; a built index is never changed).

- Cards have positions 0..n-1 in the database's order of names, the SQL path's (compiler.ordering:
  case-insensitive, ties by collector number), read from the database itself so that the two agree.
  A set of cards is a Python int used as a bit set: bit p is the card at position p, so AND, OR and
  NOT of conditions are single integer operations.
- A bit set per value of every field with fixed values (craft, type, subtype, the `is:` flags,
  direction bit, keyword), and per value of every stat: a stat comparison is the OR of the values
  that satisfy it (the catalog has at most ten values a stat).
- Names and rules texts, upper-cased, with a bit set per string of one to three characters for
  substrings (a longer value: the AND of its trigrams' sets, each candidate then tested); the texts as
  written for patterns (cards/search/regex.py, the same evaluator as the SQL path's).
- Every sort order of `order:` and both directions, precomputed as each card's rank and the bit sets
  of ranks in blocks of BLOCK: a page is found by counting the matches block by block and sorting
  only the block where the page starts (and the next, if it runs on).
- Each card's search result, as the dict the API serialises and as its JSON bytes, so that a page is
  a slice of prepared rows.

`IndexBackend` gives the compiler (compiler.py) the same primitives as the SQL backend, computed
over the index; tests/cards/test_search_index.py compares the two on random query trees.
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, repeat
from operator import not_

from django.db.models import QuerySet

from ..models import DIRECTION_BITS, Card, Keyword
from ..summaries import SUMMARY_FIELDS, card_summary
from .compiler import ORDERS, OWN_NAME, ordering
from .regex import Pattern, matching

BLOCK = 128
STAT_COLUMNS = ("vitality", "attack", "defense", "range", "maneuver", "cost", "influence", "flying_maneuver")
EQUAL_COLUMNS = ("craft", "type", "subtype", "is_unique", "is_instant", "is_consumable", "attack_directions",
                 "maneuver_directions")


def bitset(positions) -> int:
    """The bit set of these positions."""
    positions = list(positions)
    if not positions:
        return 0
    buffer = bytearray(max(positions) // 8 + 1)
    for p in positions:
        buffer[p >> 3] |= 1 << (p & 7)
    return int.from_bytes(buffer, "little")


def positions_of(bits: int) -> list[int]:
    """The positions in a bit set, ascending."""
    text = bin(bits)  # "0b1…": the last character is bit 0
    top = len(text) - 1
    found = []
    i = text.find("1", 2)
    while i >= 0:
        found.append(top - i)
        i = text.find("1", i + 1)
    found.reverse()
    return found


@dataclass(frozen=True, slots=True)
class SortOrder:
    rank: list[int]  # position -> rank in this order
    blocks: list[int]  # block k: the bit set of the cards ranked k*BLOCK to (k+1)*BLOCK - 1

    @classmethod
    def of(cls, ordered: list[int], numbers: list[int]) -> SortOrder:
        """The order of these positions; `numbers` is range(n) as a list, whose int objects every
        order shares (a rank list then costs a pointer a card, not an int object too)."""
        rank = [0] * len(ordered)
        for r, p in zip(numbers, ordered, strict=True):
            rank[p] = r
        return cls(rank, [bitset(ordered[k : k + BLOCK]) for k in range(0, len(ordered), BLOCK)])


@dataclass(frozen=True, slots=True)
class _Texts:
    """One text column: upper-cased with a bit set per trigram for substrings, as written for patterns."""

    upper: list[str]
    written: list[str]
    trigrams: dict[str, int]  # three characters -> the cards whose upper-cased text holds them

    @classmethod
    def of(cls, texts: list[str]) -> _Texts:
        upper = [t.upper() for t in texts]
        holders: dict[str, list[int]] = {}
        for p, text in enumerate(upper):
            for gram in {text[i : i + 3] for i in range(len(text) - 2)}:
                holders.setdefault(gram, []).append(p)
        return cls(upper, texts, {gram: bitset(ps) for gram, ps in holders.items()})

    def containing(self, value: str) -> int:
        """The cards whose text contains `value`, ignoring case (both sides upper-cased, as PostgreSQL's
        UPPER(column) LIKE UPPER(value) does, and SQLite's LIKE for ASCII).

        Three characters: the trigram's bit set is the answer. A longer value's text holds each of
        its trigrams: the AND of their bit sets gives the candidates, each then tested. Shorter
        values test every text."""
        needle = value.upper()
        if len(needle) < 3:
            return bitset(compress(range(len(self.upper)), map(str.__contains__, self.upper, repeat(needle))))
        if len(needle) == 3:
            return self.trigrams.get(needle, 0)
        candidates = -1
        for i in range(len(needle) - 2):
            candidates &= self.trigrams.get(needle[i : i + 3], 0)
            if not candidates:
                return 0
        positions = positions_of(candidates)  # most candidates usually match: the misses are taken out
        found = map(str.__contains__, map(self.upper.__getitem__, positions), repeat(needle))
        return candidates & ~bitset(compress(positions, map(not_, found)))


class CatalogIndex:
    """The catalog of one version, as bit sets, texts, sort orders and prepared result rows."""

    def __init__(self, stamp: str, image: str, cards: QuerySet[Card] | None = None) -> None:
        """The index of `cards` (every card; the tests may index a few), with result images at `image`
        (its CN replaced by the collector number)."""
        self.stamp = stamp
        cards = Card.objects.all() if cards is None else cards
        rows = list(cards.order_by(*ordering("name", "asc")).values_list("id", *SUMMARY_FIELDS))
        self.size = n = len(rows)
        # A list per field rather than a dict per card: a third of the memory.
        columns = {field: [row[i] for row in rows] for i, field in enumerate(("id", *SUMMARY_FIELDS))}
        del rows
        self.all = (1 << n) - 1
        self.ids = columns["id"]
        position = {card_id: p for p, card_id in enumerate(self.ids)}
        slugs: list[list[str]] = [[] for _ in range(n)]
        for card_id, slug in Card.keywords.through.objects.values_list("card_id", "keyword__slug"):
            if card_id in position:
                slugs[position[card_id]].append(slug)
        self.keyword_names = list(Keyword.objects.values_list("slug", "name"))

        self.equal: dict[str, dict[object, int]] = {}
        for column in EQUAL_COLUMNS:
            groups: dict[object, list[int]] = {}
            for p, value in enumerate(columns[column]):
                groups.setdefault(value, []).append(p)
            self.equal[column] = {value: bitset(ps) for value, ps in groups.items()}
        self.equal["text"] = {"": bitset(p for p, text in enumerate(columns["text"]) if text == "")}
        self.bits = {column: {bit: self._or_sets(bits for value, bits in self.equal[column].items() if value & bit)
                              for bit in DIRECTION_BITS.values()}
                     for column in ("attack_directions", "maneuver_directions")}
        self.stats: dict[str, dict[int, int]] = {}
        for column in STAT_COLUMNS:
            groups = {}
            for p, value in enumerate(columns[column]):
                if value is not None:
                    groups.setdefault(value, []).append(p)
            self.stats[column] = {value: bitset(ps) for value, ps in sorted(groups.items())}
        self.present = {column: self._or_sets(values.values()) for column, values in self.stats.items()}
        by_keyword: dict[str, list[int]] = {}
        for p, card_slugs in enumerate(slugs):
            for slug in card_slugs:
                by_keyword.setdefault(slug, []).append(p)
        self.keywords = {slug: bitset(ps) for slug, ps in by_keyword.items()}
        self.any_keyword = bitset(p for p, card_slugs in enumerate(slugs) if card_slugs)

        self._columns, self._slugs, self._image = columns, slugs, image
        self._texts: dict[str, _Texts] = {}
        self.names_upper = self._groups(name.upper() for name in columns["name"])
        self.numbers_upper = self._groups(number.upper() for number in columns["collector_number"])
        self.numbers_sorted = sorted((number.upper(), p) for p, number in enumerate(columns["collector_number"]))
        self.number_keys = [number for number, _ in self.numbers_sorted]

        self._numbers = list(range(n))  # the positions as int objects that every sort order shares
        self._number_order = [self._numbers[position[i]] for i in
                              cards.order_by("collector_number").values_list("id", flat=True)]
        self._crafts = list(cards.order_by("craft").values_list("craft", flat=True).distinct())
        self._orders: dict[tuple[str, str], SortOrder] = {}
        self._json: list[bytes | None] = [None] * n

    # -- parts made on first use --
    # The texts, each sort order and each card's JSON are made when first needed, so that a process
    # (or a test that changed cards) pays only for what its searches use. Two requests may make the
    # same part at once: both make the same value, and either is kept.

    def texts(self, column: str) -> _Texts:
        texts = self._texts.get(column)
        if texts is None:
            texts = self._texts[column] = _Texts.of(self._columns[column])
        return texts

    def order(self, key: str, direction: str) -> SortOrder:
        order = self._orders.get((key, direction))
        if order is None:
            order = self._orders[key, direction] = self._sort_order(key, direction)
        return order

    def rows(self, positions: list[int], fields: tuple[str, ...]) -> list[dict]:
        """Some of the cards' fields, as dicts, straight from the index (no database query)."""
        columns = [(field, self._columns[field]) for field in fields]
        return [{field: values[p] for field, values in columns} for p in positions]

    def results_json(self, positions: list[int]) -> list[bytes]:
        """The cards' search results as the API's JSON renderer encodes them."""
        found = self._json
        missing = [p for p in positions if found[p] is None]
        if missing:
            from rest_framework.renderers import JSONRenderer

            render = JSONRenderer().render
            for p in missing:
                row = {field: values[p] for field, values in self._columns.items()}
                found[p] = render(card_summary(row, self._slugs[p], self._image))
        return [found[p] for p in positions]  # type: ignore[misc]

    def build_all(self) -> CatalogIndex:
        """Make every part now (to measure the whole index, or to warm a process)."""
        for column in ("name", "text"):
            self.texts(column)
        for key in ORDERS:
            for direction in ("asc", "desc"):
                self.order(key, direction)
        self.results_json(list(range(self.size)))
        return self

    # -- building --

    @staticmethod
    def _or_sets(sets) -> int:
        result = 0
        for bits in sets:
            result |= bits
        return result

    @staticmethod
    def _groups(keys) -> dict[str, list[int]]:
        groups: dict[str, list[int]] = {}
        for p, key in enumerate(keys):
            groups.setdefault(key, []).append(p)
        return groups

    def _sort_order(self, key: str, direction: str) -> SortOrder:
        """The SQL path's ordering (compiler.ordering): the column, nulls last in both directions, then
        the name ascending. Names and collector numbers in the database's order; crafts in the order
        the database sorts their values."""
        column = ORDERS[key]
        if column == "name":
            ordered = self._numbers
        elif column == "collector_number":
            ordered = list(self._number_order)
        elif column == "craft":
            craft_rank = {craft: i for i, craft in enumerate(self._crafts)}
            sign = -1 if direction == "desc" else 1
            keys = [sign * craft_rank[craft] for craft in self._columns["craft"]]
            return SortOrder.of(sorted(self._numbers, key=keys.__getitem__), self._numbers)
        else:  # a stat
            values = self._columns[column]
            top = max((v for v in values if v is not None), default=0) + 1
            if direction == "desc":
                keys = [top if v is None else top - 1 - v for v in values]
            else:
                keys = [top if v is None else v for v in values]
            return SortOrder.of(sorted(self._numbers, key=keys.__getitem__), self._numbers)  # stable: ties by name
        return SortOrder.of(ordered[::-1] if direction == "desc" else ordered, self._numbers)

    # -- answering --

    def names_first(self, text: str) -> list[int]:
        """The cards named `text`, then those whose name starts with it, then those with a later word that starts
        with it: three bit sets, each without the cards of those before, ignoring case as name searches do."""
        names, upper = self.texts("name"), text.upper()
        exact = bitset(self.names_upper.get(upper, ()))
        holding = names.containing(text)
        starts = bitset(p for p in positions_of(holding & ~exact) if names.upper[p].startswith(upper))
        return [exact, starts, names.containing(" " + text) & ~exact & ~starts]

    def result(self, position: int) -> dict:
        """The search result of the card at `position`, as a dict (the API's other formats)."""
        return json.loads(self.results_json([position])[0])

    def page(self, matched: int | None, order: str, direction: str, offset: int, limit: int) -> tuple[int, list[int]]:
        """(matching cards, the positions of the page from `offset`), `matched` None meaning every card."""
        matched = self.all if matched is None else matched
        count = matched.bit_count()
        if offset >= count or limit <= 0:
            return count, []
        sort = self.order(order, direction)
        if count <= 2 * BLOCK:  # few: sort them all at once
            return count, sorted(positions_of(matched), key=sort.rank.__getitem__)[offset : offset + limit]
        skip, found = offset, []
        for block in sort.blocks:
            bits = matched & block
            if not bits:
                continue
            size = bits.bit_count()
            if size <= skip:
                skip -= size
                continue
            ranked = sorted(positions_of(bits), key=sort.rank.__getitem__)
            found.extend(ranked[skip : skip + limit - len(found)])
            skip = 0
            if len(found) >= limit:
                break
        return count, found


class IndexBackend:
    """The compiler's primitives (compiler.Backend) as bit sets over one CatalogIndex."""

    def __init__(self, index: CatalogIndex) -> None:
        self.index = index

    def and_(self, a: int, b: int) -> int:
        return a & b

    def or_(self, a: int, b: int) -> int:
        return a | b

    def not_(self, a: int) -> int:
        return self.index.all & ~a

    def substring(self, column: str, value: str, *, prefilter: bool) -> int:
        return self.index.texts(column).containing(value)

    def regex(self, column: str, pattern: Pattern) -> int:
        return bitset(matching(pattern, self.index.texts(column).written))

    def text_naming_itself(self, value: str) -> int:
        names, texts = self.index.texts("name").upper, self.index.texts("text").upper
        parts = value.upper().split(OWN_NAME)
        return bitset(p for p, (name, text) in enumerate(zip(names, texts, strict=True)) if name.join(parts) in text)

    def name_exact(self, value: str) -> int:
        return bitset(self.index.names_upper.get(value.upper(), ()))

    def equals(self, column: str, value: object) -> int:
        return self.index.equal[column].get(value, 0)

    def stat(self, column: str, lookup: str, number: int) -> int:
        test = _COMPARE[lookup]
        result = 0
        for value, bits in self.index.stats[column].items():
            if test(value, number):
                result |= bits
        return result

    def stat_versus(self, column: str, lookup: str, other: str) -> int:
        test = _COMPARE[lookup]
        result = 0
        others = self.index.stats[other].items()
        for value, bits in self.index.stats[column].items():
            for other_value, other_bits in others:
                if test(value, other_value):
                    result |= bits & other_bits
        return result

    def stat_range(self, column: str, low: int, high: int) -> int:
        result = 0
        for value, bits in self.index.stats[column].items():
            if low <= value <= high:
                result |= bits
        return result

    def stat_present(self, column: str) -> int:
        return self.index.present[column]

    def has_bit(self, column: str, bit: int) -> int:
        return self.index.bits[column][bit]

    def keyword(self, slug: str | None) -> int:
        return self.index.any_keyword if slug is None else self.index.keywords.get(slug, 0)

    def keyword_names(self) -> list[tuple[str, str]]:
        return self.index.keyword_names

    def cn_exact(self, value: str) -> int:
        return bitset(self.index.numbers_upper.get(value.upper(), ()))

    def cn_prefix(self, value: str) -> int:
        prefix, keys, numbers = value.upper(), self.index.number_keys, self.index.numbers_sorted
        found = []
        for i in range(bisect_left(keys, prefix), len(keys)):
            if not keys[i].startswith(prefix):
                break
            found.append(numbers[i][1])
        return bitset(found)


_COMPARE = {
    "exact": lambda a, b: a == b, "lt": lambda a, b: a < b, "lte": lambda a, b: a <= b,
    "gt": lambda a, b: a > b, "gte": lambda a, b: a >= b,
}


# --- The index of this process -----------------------------------------------------------------

_lock = threading.Lock()
_current: CatalogIndex | None = None
_generation = 0  # changes seen in this process (cards saved, the catalog loaded)


def catalog_index(stamp: str, image: str | Callable[[], str]) -> CatalogIndex:
    """The index of the catalog named by `stamp` (selectors.catalog_stamp_recent), built on first use.

    One request builds it while the others of the process wait for it. An index built while a change
    was seen (forget()) answers its own request but is not kept.
    """
    global _current
    index = _current
    if index is not None and index.stamp == stamp:
        return index
    with _lock:
        index = _current
        if index is not None and index.stamp == stamp:
            return index
        generation = _generation
        index = CatalogIndex(stamp, image() if callable(image) else image)
        if generation == _generation:
            _current = index
        return index


def forget(**_signal_arguments) -> None:
    """Drop the index: cards or keywords changed in this process (a signal receiver, see apps.py)."""
    global _current, _generation
    _generation += 1
    _current = None


def generation() -> int:
    return _generation
