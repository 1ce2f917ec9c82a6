"""Optimistic concurrency under real parallel writes: of two edits made from the same version, exactly
one is saved and the other is refused with 412; the database keeps the saved one.

Runs on whichever database the suite uses; run it on PostgreSQL too with
DATABASE_URL=postgres://... pytest tests/decks/test_concurrency.py
"""

import threading

from django.db import connection, connections
from rest_framework.test import APIClient

from decks.models import Deck, DeckRevision
from decks.services import deck_create
from tests.support import live_db

from .factories import entries_of, make_card, make_user


def patch_in_threads(user, deck_id, bodies):
    barrier = threading.Barrier(len(bodies))
    results = [None] * len(bodies)

    def run(i, body):
        client = APIClient()
        client.force_authenticate(user)
        try:
            barrier.wait(timeout=10)
            response = client.patch(f"/api/decks/{deck_id}/", body, format="json", HTTP_IF_MATCH='"1"')
            results[i] = (response.status_code, response.json())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, b)) for i, b in enumerate(bodies)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@live_db
def test_two_simultaneous_edits_from_one_version_save_exactly_one():
    owner = make_user()
    card = make_card()
    for _ in range(5):  # a race can go either way: run it a few times
        deck = deck_create(owner=owner, name="Race", entries=entries_of((card, 2)))
        bodies = [{"name": "Tab A", "cards": [{"card": card.collector_number, "count": 3}]},
                  {"name": "Tab B", "cards": [{"card": card.collector_number, "count": 4}]}]
        results = patch_in_threads(owner, deck.pk, bodies)
        statuses = sorted(status for status, _ in results)
        assert statuses == [200, 412], results
        winner = next(i for i, (status, _) in enumerate(results) if status == 200)
        loser_body = next(body for status, body in results if status == 412)
        assert loser_body["error"]["code"] == "stale_version"
        row = Deck.objects.get(pk=deck.pk)
        assert row.name == bodies[winner]["name"] and row.version == 2
        assert row.entries.get().count == bodies[winner]["cards"][0]["count"]
        assert DeckRevision.objects.filter(deck=row).count() == 2
    assert connection.vendor in ("sqlite", "postgresql")
