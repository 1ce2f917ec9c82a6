from __future__ import annotations

from django.db.models import QuerySet

from core.formats import FORMAT_SLUGS, deck_formats_for
from decks.models import Deck
from decks.selectors import deck_list_for_owner, deck_list_public, starter_deck_list
from playtest.models import Run
from playtest.simulation.metagame_kind import METAGAME_FORMATS


def run_list_for(*, user) -> QuerySet[Run]:
    """Runs a user may see: their own (staff see every run in the admin)."""
    if not user.is_authenticated:
        return Run.objects.none()
    return Run.objects.filter(owner=user)


def metagame_deck_choices(*, user, formats: tuple[str, ...] = METAGAME_FORMATS) -> dict[str, list[Deck]]:
    """The decks a metagame table (or a tuning gauntlet) may hold, for its form: the starters, the user's own decks
    and (the first 100 by name) other users' public decks, of the formats that a game of one of `formats` takes
    (DC-8); the form offers those of its chosen format."""
    taken = [slug for slug in FORMAT_SLUGS if any(slug in deck_formats_for(fmt) for fmt in formats)]
    starters = [deck for slug in taken for deck in starter_deck_list(format=slug)]
    own = list(deck_list_for_owner(user=user).filter(format__in=taken).order_by("name", "pk"))
    public = list(deck_list_public().filter(format__in=taken, is_starter=False).exclude(owner=user)
                  .order_by("name", "pk")[:100])
    return {"starters": starters, "own": own, "public": public}


def playtest_deck_choices(*, user) -> dict[str, list[Deck]]:
    """The decks the playtest page's start form offers, to play and as opponents: the user's own decks, then (the
    first 100, starters first) other users' public decks; the same decks the deck page's playtest form offers."""
    own = list(deck_list_for_owner(user=user).order_by("name", "pk"))
    public = list(deck_list_public().exclude(owner=user).order_by("-is_starter", "name", "pk")[:100])
    return {"own": own, "public": public}
