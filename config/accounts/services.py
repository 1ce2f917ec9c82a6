from __future__ import annotations

from django.db import transaction


@transaction.atomic
def account_delete(*, user) -> int:
    """Delete a user with everything they own (decks with their revisions, runs); returns the deck count."""
    decks = user.decks.count()
    user.decks.all().delete()
    user.delete()  # runs and the remaining relations cascade or are set null
    return decks
