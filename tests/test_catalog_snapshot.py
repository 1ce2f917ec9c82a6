"""The catalog snapshot (tests/catalog_snapshot.py) puts back every row the session's load wrote, relations included,
on both databases: what the tests after a transactional test find is the catalog as loaded."""

from cards.models import Card, Keyword
from decks.models import Deck, DeckEntry
from tests.conftest import snapshot_key
from tests.support import live_db


def counts() -> dict[str, int]:
    return {"cards": Card.objects.count(), "keywords": Keyword.objects.count(),
            "card keywords": Card.keywords.through.objects.count(), "decks": Deck.objects.count(),
            "deck entries": DeckEntry.objects.count()}


@live_db
def test_the_snapshot_puts_back_every_row_of_the_catalog_relations_included(request):
    loaded = counts()
    assert all(loaded.values()), loaded
    sable = Card.objects.get(name="Sable, the Faceless Queen")
    keywords = sorted(sable.keywords.values_list("slug", flat=True))
    Card.keywords.through.objects.all().delete()
    DeckEntry.objects.all().delete()
    Card.objects.filter(pk=sable.pk).update(name="Renamed by a test")
    request.config.stash[snapshot_key].restore()
    assert counts() == loaded
    assert sorted(Card.objects.get(pk=sable.pk).keywords.values_list("slug", flat=True)) == keywords
