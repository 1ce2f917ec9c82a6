"""The API's card filter: the search language, through the one parser and compiler."""

from __future__ import annotations

import django_filters

from core.errors import DomainError, ErrorCode

from . import selectors
from .models import Card
from .search import SearchError, search_cards
from .search.compiler import DIRECTIONS, ORDER_ALIASES, ORDERS
from .search.parser import MAX_QUERY_LENGTH

ORDER_CHOICES = sorted([*ORDERS, *ORDER_ALIASES])


class CardSearchFilter(django_filters.FilterSet):
    """Documents the search parameters in the schema; CardSearchBackend reads them (api_views.py)."""

    q = django_filters.CharFilter(method="noop", max_length=MAX_QUERY_LENGTH,
                                  help_text="A query in the search language (see /cards/help/).")
    order = django_filters.ChoiceFilter(method="noop", choices=[(o, o) for o in ORDER_CHOICES], help_text=(
        "name, vit, atk, def, rng, man, cost, influence, cn or craft (or a field's other name: vitality, attack, "
        "defense, range, maneuver, c, colour, color). Takes precedence over an order: term, with a warning."))
    direction = django_filters.ChoiceFilter(method="noop", choices=[(d, d) for d in DIRECTIONS], help_text=(
        "asc or desc. Takes precedence over a direction: term, with a warning."))

    class Meta:
        model = Card
        fields: list[str] = []

    def noop(self, queryset, name, value):
        return queryset


def api_search(queryset, query: str | None, order: str | None, direction: str | None):
    """search_cards() with its errors as the API's error envelope."""
    query = query or ""
    try:
        return search_cards(query, order, direction, queryset=queryset)
    except SearchError as error:
        raise DomainError(str(error),
                          code=ErrorCode.INVALID_QUERY, details={**error.details(), "query": query}) from None


def api_search_answer(query: str | None, order: str | None, direction: str | None, *, offset: int, limit: int):
    """selectors.card_search_answer() with its errors as the API's error envelope."""
    query = query or ""
    try:
        return selectors.card_search_answer(query=query, order=order, direction=direction, offset=offset,
                                            limit=limit)
    except SearchError as error:
        raise DomainError(str(error),
                          code=ErrorCode.INVALID_QUERY, details={**error.details(), "query": query}) from None
