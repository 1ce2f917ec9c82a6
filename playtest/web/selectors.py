from __future__ import annotations

import functools
import uuid

from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Coalesce

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


def run_rows_for(*, user, with_result: bool = False) -> QuerySet[Run]:
    """run_list_for as lists show the runs: with their summaries, not the parameters' deck lists (some 50 KB a run,
    most of a list's cost when they were read) nor, unless `with_result`, the report. A run stored without a summary
    (by the code before them, while a new release starts) brings its parameters in the same query, as
    `listed_params` (Run.shown_params), rather than in a query of its own."""
    runs = run_list_for(user=user).defer("params", *(() if with_result else ("result",)))
    return runs.annotate(listed_params=Coalesce("summary", "params"))


# What a run's progress bar shows (the template's `#progress` partial); the first is the run's id.
PROGRESS_FIELDS = ("id", "owner_id", "kind", "status", "games", "games_done", "games_playing", "stage", "error")


@functools.cache
def _progress_statement(vendor: str) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(Run._meta.get_field(field).column) for field in PROGRESS_FIELDS[1:])
    return (f"SELECT {columns} FROM {quote(Run._meta.db_table)} "
            f"WHERE {quote(Run._meta.pk.column)} = %s AND {quote(Run._meta.get_field('owner').column)} = %s")


def run_progress_fields(*, user, run_id: uuid.UUID) -> tuple | None:
    """PROGRESS_FIELDS of the user's run `run_id` (the scope of run_list_for), or None when the user may not see it.

    Polled every second while a run plays: one statement, written once per process. Compiling the equivalent
    queryset cost about five times the CPU of executing it, which made the poll dearer than the trivial endpoint."""
    if not user.is_authenticated:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_progress_statement(connection.vendor),
                       (Run._meta.pk.get_db_prep_value(run_id, connection), user.pk))
        row = cursor.fetchone()
    return None if row is None else (run_id, *row)


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
