"""Each save of the deck editor is applied once: the page gives every change a key of its own and sends it again
with the same key when the connection dropped before the answer came back (static/decks/editor.js). The key is
recorded in the transaction of the change itself, so a change and its record are kept or lost together; a key seen
before is answered with what the first save answered, and nothing is applied again."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from .errors import InvalidDeck
from .models import Deck, EditorSave

# Long past any retry of a page (its queue waits 4 s between tries), short enough to keep the table small.
KEPT = timedelta(days=1)
MAX_KEY_LENGTH = 64


class Repeated(Exception):
    """This save was applied before; `undo` is what its first answer gave."""

    def __init__(self, undo: list) -> None:
        super().__init__("saved before")
        self.undo = undo


@dataclass
class Save:
    undo: list | None = None  # set by the caller once its change is saved; None: nothing was saved, nothing kept


@contextmanager
def once(deck: Deck, key: str):
    """Runs the block as one transaction and records `key` with it when the block sets `save.undo`; raises Repeated
    for a key already recorded for this deck (before the block, or at the record when the same save ran twice at
    once, which rolls the second one back). Without a key (an API client, a plain form) the block just runs."""
    if not key:
        yield Save()
        return
    if len(key) > MAX_KEY_LENGTH:
        raise InvalidDeck(f"A save's key has at most {MAX_KEY_LENGTH} characters.")
    _raise_if_seen(deck, key)
    save = Save()
    try:
        with transaction.atomic():
            yield save
            if save.undo is not None:
                EditorSave.objects.create(deck=deck, key=key, undo=save.undo)
                EditorSave.objects.filter(deck=deck, created_at__lt=timezone.now() - KEPT).delete()
    except IntegrityError:
        _raise_if_seen(deck, key)
        raise


def _raise_if_seen(deck: Deck, key: str) -> None:
    undo = EditorSave.objects.filter(deck=deck, key=key).values_list("undo", flat=True).first()
    if undo is not None:
        raise Repeated(undo)
