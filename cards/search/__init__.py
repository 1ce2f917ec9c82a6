"""The card search language: one parser and one compiler for the catalog page, the API and the deck editor.

Use it through one function::

    from cards.search import SearchError, search_cards

    result = search_cards("t:unit c:champion atk>=7 order:atk", order=None, direction=None)
    result.queryset   # Card queryset, filtered and ordered (not yet evaluated)
    result.warnings   # [SearchWarning(message, position)] for terms understood but ignored
    result.order, result.direction  # the ordering that applies ("name", "asc" by default)

`order` and `direction` arguments (the sort controls of a page or API parameters) take precedence
over `order:` and `direction:` terms in the text, with a warning at the term they override;
`result.query_order` and `result.query_direction` are what the text alone chooses. A query that
cannot be run raises SearchError with `position` (0-based offset in the text) and `expected`;
`SearchError.details()` is what the API puts in its error envelope. The language itself is documented on the help page
(templates/cards/search_help.html) and in parser.py (grammar) and compiler.py (fields).

`search_indexed` answers the same query over the in-process index of the catalog (index.py) instead
of the database: `result.page(offset, limit)` gives the count and the positions of one page, whose
prepared rows are `result.index.results_json(positions)` (`result.index.result(p)`: a dict). The SQL path stays the
reference and the fallback (settings.SEARCH_ENGINE); the tests compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from ..models import Card
from .compiler import DIRECTIONS, ORDER_ALIASES, ORDERS, Backend, Compiled, compile_query, ordering
from .errors import SearchError, SearchWarning
from .index import CatalogIndex, IndexBackend
from .parser import parse

__all__ = ["SearchError", "SearchResult", "IndexedResult", "SearchWarning", "ORDERS", "DIRECTIONS", "search_cards",
           "search_indexed"]

DEFAULT_ORDER = "name"
DEFAULT_DIRECTION = "asc"


@dataclass(frozen=True, slots=True)
class SearchResult:
    queryset: QuerySet[Card]
    warnings: list[SearchWarning]
    order: str
    direction: str
    query_order: str = DEFAULT_ORDER  # the sort the query text alone chooses
    query_direction: str = DEFAULT_DIRECTION


def _parameter(value: str | None, allowed, name: str, aliases: dict[str, str] | None = None) -> str | None:
    if value in (None, ""):
        return None
    value = value.strip().lower()
    value = (aliases or {}).get(value, value)
    if value not in allowed:
        raise SearchError(f"Unknown {name} '{value}'.", expected=sorted(allowed), parameter=name)
    return value


@dataclass(frozen=True, slots=True)
class IndexedResult:
    index: CatalogIndex
    matched: int | None  # bit set of the matching cards' positions; None: every card
    warnings: list[SearchWarning]
    order: str
    direction: str
    query_order: str = DEFAULT_ORDER
    query_direction: str = DEFAULT_DIRECTION

    def page(self, offset: int, limit: int) -> tuple[int, list[int]]:
        """(matching cards, the positions in the index of the `limit` cards from `offset`, in order)."""
        return self.index.page(self.matched, self.order, self.direction, offset, limit)


def _compile(query_text: str, order: str | None, direction: str | None, backend: Backend | None):
    """The compiled query, its warnings and the sort that applies (order, direction, query_order, query_direction)."""
    order = _parameter(order, ORDERS, "order", ORDER_ALIASES)
    direction = _parameter(direction, DIRECTIONS, "direction")
    compiled: Compiled = compile_query(parse(query_text or ""), backend)
    warnings = list(compiled.warnings)
    for name, given in (("order", order), ("direction", direction)):
        term = compiled.terms.get(name)
        if given and term is not None and given != getattr(compiled, name):
            warnings.append(SearchWarning(f"The {name} asked for apart from the query ({given}) takes precedence; "
                                          f"'{term.field}:{term.value}' is ignored.", term.start))
    query_order = compiled.order or DEFAULT_ORDER
    query_direction = compiled.direction or DEFAULT_DIRECTION
    sort = (order or query_order, direction or query_direction, query_order, query_direction)
    return compiled, sorted(warnings, key=lambda w: w.position or 0), sort


def search_cards(query_text: str, order: str | None = None, direction: str | None = None,
                 queryset: QuerySet[Card] | None = None) -> SearchResult:
    """Cards matching `query_text`, ordered; raises SearchError for a query that cannot be run."""
    compiled, warnings, sort = _compile(query_text, order, direction, None)
    qs = Card.objects.all() if queryset is None else queryset
    if compiled.q is not None:
        qs = qs.filter(compiled.q)
    return SearchResult(qs.order_by(*ordering(sort[0], sort[1])), warnings, *sort)


def search_indexed(query_text: str, order: str | None = None, direction: str | None = None, *,
                   index: CatalogIndex) -> IndexedResult:
    """search_cards() over the in-process index: the same cards, order, warnings and errors."""
    compiled, warnings, sort = _compile(query_text, order, direction, IndexBackend(index))
    return IndexedResult(index, compiled.q, warnings, *sort)
