"""A chunk's games reported as they are played, so that a run's progress moves while a chunk plays.

A chunk's games count in its run's games_done only with its result, and a chunk may hold a hundred games: a run of
one chunk showed 0% until it was done. While it plays, a chunk adds the games it has played to its run's
games_playing, at most every REPORT_SECONDS, and takes them back when it ends however it ends (its result counted,
a stop, an error, a duplicate that found it done). What a worker that died had reported is taken back by the
chunk's next attempt (RunChunk.games_played). The figure is progress only: the run's results are its chunks'.
"""

from __future__ import annotations

import time

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest

from ..models import Run, RunChunk
from ..models.runs import ChunkStatus

REPORT_SECONDS = 1.0


class ChunkProgress:
    """One attempt at a chunk: `begin()` before it plays, the instance as a checkpoint's progress while it plays,
    `end()` once it is over."""

    def __init__(self, chunk: RunChunk) -> None:
        self._chunk_pk, self._run_pk = chunk.pk, chunk.run_id
        self._left = chunk.games_played  # as the chunk was read: almost always 0, which needs no query
        self._reported = 0
        self._at = time.monotonic()

    def begin(self) -> None:
        """Takes back what an earlier attempt reported and never took back (its worker died)."""
        if not self._left:
            return
        with transaction.atomic():
            left = RunChunk.objects.select_for_update().filter(pk=self._chunk_pk).values_list(
                "games_played", flat=True).first()
            if left:
                RunChunk.objects.filter(pk=self._chunk_pk).update(games_played=0)
                _take_back(self._run_pk, left)

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done <= self._reported or now - self._at < REPORT_SECONDS:
            return
        with transaction.atomic():
            if RunChunk.objects.filter(pk=self._chunk_pk, status=ChunkStatus.PENDING).update(games_played=done):
                Run.objects.filter(pk=self._run_pk).update(games_playing=F("games_playing") + done - self._reported)
                self._reported = done
        self._at = now

    def end(self) -> None:
        if not self._reported:
            return
        with transaction.atomic():
            RunChunk.objects.filter(pk=self._chunk_pk, games_played=self._reported).update(games_played=0)
            _take_back(self._run_pk, self._reported)
        self._reported = 0


def _take_back(run_pk, games: int) -> None:
    # Never below 0: two attempts of one chunk at once (a redelivery) may each take back what one of them reported.
    Run.objects.filter(pk=run_pk).update(games_playing=Greatest(F("games_playing") - games, 0))
