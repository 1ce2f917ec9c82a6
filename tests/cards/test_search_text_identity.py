"""Name and rules-text search give the same cards on PostgreSQL as the plain substring filter
(which is what SQLite runs), whatever index PostgreSQL picks; and why a word-based full-text
pre-filter could not: the catalog has matches inside words."""

import re

import pytest
from django.db import connection
from django.db.models import Q

from cards.models import Card
from cards.search import search_cards

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="compares PostgreSQL's plans with the plain filter"),
]

CASES = [
    ("golem", Q(name__icontains="golem")),
    ("knight", Q(name__icontains="knight")),
    ('"of the"', Q(name__icontains="of the")),
    ("name:stone", Q(name__icontains="stone")),
    ("name:ard", Q(name__icontains="ard")),
    ("o:draw", Q(text__icontains="draw")),
    ("o:end", Q(text__icontains="end")),
    ("o:turn", Q(text__icontains="turn")),
    ('o:"end of turn"', Q(text__icontains="end of turn")),
    ("o:age", Q(text__icontains="age")),
    ("war -o:attack", Q(name__icontains="war") & ~Q(text__icontains="attack")),
]


def _substring_filter(q: Q) -> set[str]:
    """The plain filter, computed in Python so that no index is involved."""
    rows = Card.objects.values_list("collector_number", "name", "text")
    found = set()
    for number, name, text in rows:
        fields = {"name": name, "text": text}
        if _matches(q, fields):
            found.add(number)
    return found


def _matches(q: Q, fields: dict[str, str]) -> bool:
    results = []
    for child in q.children:
        if isinstance(child, Q):
            results.append(_matches(child, fields))
        else:
            lookup, value = child
            field = lookup.split("__")[0]
            results.append(value.lower() in fields[field].lower())
    result = all(results) if q.connector == Q.AND else any(results)
    return not result if q.negated else result


@pytest.mark.parametrize(("query", "plain"), CASES, ids=[c[0] for c in CASES])
def test_postgresql_finds_exactly_the_substring_matches(query, plain):
    found = set(search_cards(query).queryset.values_list("collector_number", flat=True))
    assert found == _substring_filter(plain)
    assert found  # each case finds cards in the catalog


@pytest.mark.parametrize(("query", "field", "word"), [("o:end", "text", "end"), ("o:age", "text", "age"),
                                                      ("name:stone", "name", "stone")])
def test_substring_search_finds_cards_that_a_word_prefix_search_would_miss(query, field, word):
    inside = [
        card for card in search_cards(query).queryset.values(field)
        if not re.search(rf"\b{word}", card[field], re.IGNORECASE)
    ]
    assert inside, f"every match of {query} starts a word: a full-text prefix pre-filter would be exact here"
