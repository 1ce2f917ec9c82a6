"""Name and rules-text search give the same cards on PostgreSQL as the plain substring filter
(which is what SQLite runs), whatever index PostgreSQL picks and with the full-text pre-filter of
phrases; and why that pre-filter leaves the first word of a phrase out: the catalog has matches
inside words."""

import re

import pytest
from django.db import connection
from django.db.models import Q

from cards.models import Card
from cards.search import search_cards
from cards.search.compiler import implied_tsquery
from tests.cards.search_factories import make_card

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
    # phrases, which the full-text pre-filter narrows on PostgreSQL
    ('o:"draw a card"', Q(text__icontains="draw a card")),
    ('o:"nd of tu"', Q(text__icontains="nd of tu")),
    ('o:"until end of turn."', Q(text__icontains="until end of turn.")),
    ('o:"gets +1 attack until"', Q(text__icontains="gets +1 attack until")),
    ('o:"(1 AP): Friendly"', Q(text__icontains="(1 AP): Friendly")),
    ('o:"unit can\'t attack, ma"', Q(text__icontains="unit can't attack, ma")),
    ('o:" a"', Q(text__icontains=" a")),
    ('name:"of the"', Q(name__icontains="of the")),
    ('name:"the a"', Q(name__icontains="the a")),
    ('"Smoke-Eyed Urch"', Q(name__icontains="Smoke-Eyed Urch")),
    ('"ke-eyed urchin sp"', Q(name__icontains="ke-eyed urchin sp")),
    ('"eteran\'s longsw"', Q(name__icontains="eteran's longsw")),
    ('-o:"end of turn"', ~Q(text__icontains="end of turn")),
    # != is the cards that have the field and another value: a card without rules text is left out
    ('o!="draw a card"', ~Q(text__icontains="draw a card") & ~Q(text="")),
    ('war -o:"draw a card"', Q(name__icontains="war") & ~Q(text__icontains="draw a card")),
    ('-name:"of the" o:"end of turn"', ~Q(name__icontains="of the") & Q(text__icontains="end of turn")),
    ('-(o:"end of turn" or "of the")', ~(Q(text__icontains="end of turn") | Q(name__icontains="of the"))),
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
            field, _, kind = lookup.partition("__")
            assert kind in ("icontains", ""), lookup
            results.append(value.lower() in fields[field].lower() if kind else fields[field] == value)
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


def _phrases(value: str) -> set[str]:
    """Every run of 2 to 4 words of `value` as written, whole and cut inside its first and last word."""
    words = list(re.finditer(r"\S+", value))
    phrases = set()
    for size in (2, 3, 4):
        for first, last in zip(words, words[size - 1:], strict=False):
            phrase = value[first.start():last.end()]
            phrases.update({phrase, phrase[1:-1], phrase[2:-2]})
    return {p for p in phrases if p.strip() and '"' not in p}


def test_phrases_from_the_catalog_find_exactly_the_substring_matches():
    rows = list(Card.objects.order_by("id").values_list("id", "name", "text"))
    cards = [(pk, name.lower(), text.lower()) for pk, name, text in rows]
    sample = rows[::120]
    phrases = sorted({("name", p) for _, name, _ in sample for p in _phrases(name)}
                     | {("o", p) for _, _, text in sample for p in _phrases(text)})
    assert len(phrases) > 1000
    assert sum(implied_tsquery(p) is not None for _, p in phrases) > 0.9 * len(phrases)
    column = {"name": 1, "o": 2}
    for number, (field, phrase) in enumerate(phrases):
        query = f'{field}:"{phrase}"'
        found = set(search_cards(query).queryset.values_list("id", flat=True))
        wanted = {card[0] for card in cards if phrase.lower() in card[column[field]]}
        assert found == wanted, query
        if number % 50 == 0:  # and negated, now and then
            unwanted = {card[0] for card in cards} - wanted
            assert set(search_cards("-" + query).queryset.values_list("id", flat=True)) == unwanted, query


# Texts PostgreSQL's parser reads unusually, none of them in the catalog. `naive` is what a
# pre-filter on to_tsvector('simple', text) with every word after whitespace would ask: it would
# lose the card.
UNUSUAL = [
    ("Read the <note about fire> aloud.", "note about fire", "about:* & fire:*"),  # <tags> are dropped
    ("See http://dreadgate.example/rules now.", "see http", "http:*"),  # and so is "http://"
    ("The ſtone golem wakes.", "the stone golem", "stone & golem:*"),  # upper('ſ') is 'S'
    ("A ıron wall.", "a iron wall", "iron & wall:*"),  # upper('ı') is 'I'
    ("Gain 1e5ab power.", "gain 1e5ab power", None),  # "1e5ab" reads as "1e5" and "ab"
    ("Not well-known here.", "not well", None),
    ("It can't be helped.", "it can't be", None),
    ("Deal 10:30 damage.", "deal 10", None),
    ("Split\nlines\there.", "split\nlines\th", None),
]


@pytest.mark.parametrize(("text", "phrase", "naive"), UNUSUAL, ids=[u[1] for u in UNUSUAL])
def test_texts_the_parser_reads_unusually_are_still_found(text, phrase, naive):
    card = make_card(text=text)
    assert card in search_cards(f'o:"{phrase}"').queryset
    assert implied_tsquery(phrase) is not None
    if naive:
        with connection.cursor() as cursor:
            cursor.execute("SELECT to_tsvector('simple', %s) @@ to_tsquery('simple', %s)", [text, naive])
            assert cursor.fetchone() == (False,)
