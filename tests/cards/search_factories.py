"""Cards made by the tests themselves, apart from the loaded catalog.

Their collector numbers start with TST- and their names with "Tst", so a test can look at its own
cards only. Units get range 7 by default, outside the catalog's 8,100 stat space (range 1-3), so
they never collide with the catalog's unique unit stats.
"""

from __future__ import annotations

import itertools

from cards.models import DIRECTION_BITS, Card, CardType, Keyword

_serial = itertools.count(1)


def dirs(*names: str) -> int:
    return sum(DIRECTION_BITS[n] for n in names)


def make_keyword(slug: str, name: str | None = None) -> Keyword:
    keyword, _ = Keyword.objects.get_or_create(
        slug=slug, defaults={"name": name or slug.title(), "reminder": f"{slug} reminder."}
    )
    return keyword


def make_card(name: str | None = None, *, keywords: tuple[str, ...] = (), **fields) -> Card:
    n = next(_serial)
    fields.setdefault("collector_number", f"TST-{n:04d}")
    fields.setdefault("craft", "champion")
    fields.setdefault("type", CardType.UNIT)
    fields.setdefault("catalog_version", "test")
    if fields["type"] in (CardType.UNIT, CardType.LEGEND):
        # a distinct vitality per card keeps test units apart from each other as well
        for stat, default in (("vitality", 20 + n), ("attack", 2), ("defense", 2), ("range", 7), ("maneuver", 1)):
            fields.setdefault(stat, default)
    card = Card.objects.create(name=name or f"Tst Card {n}", **fields)
    if keywords:
        card.keywords.set([make_keyword(slug) for slug in keywords])
    return card


def own(queryset) -> list[str]:
    """Names of the test's own cards in a result, in result order."""
    return list(queryset.filter(collector_number__startswith="TST-").values_list("name", flat=True))
