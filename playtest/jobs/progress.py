"""A chunk's games reported as they are played, so that a run's progress moves while a chunk plays, and never back.

A chunk's games count in its run's games_done only with its result, and a chunk may hold a hundred games: a run of
one chunk showed 0% until it was done. While it plays, a chunk adds the games it has played to its run's
games_playing, at most every REPORT_SECONDS. What it reported stays as the chunk's mark (RunChunk.games_played)
until its result counts those games or its run stops: an attempt that ends otherwise (its worker killed, or asked to
stop, playtest/jobs/shutdown.py) leaves it, and the next attempt, which plays the chunk again from its first game
(the same games, the same results), reports only the games past it. The mark used to be taken back as the next
attempt began, and a run's progress went back by the games the dead attempt had played. The figure is progress
only: the run's results are its chunks'.
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
    """One attempt at a chunk: the instance as a checkpoint's progress while it plays, `end()` once its result
    counts its games or its run has stopped."""

    def __init__(self, chunk: RunChunk) -> None:
        self._chunk_pk, self._run_pk = chunk.pk, chunk.run_id
        self._marked = chunk.games_played > 0  # as the chunk was read: almost always 0, which needs no query at the end
        self._at = time.monotonic()

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if now - self._at < REPORT_SECONDS:
            return
        self._at = now
        # The run's row locked first, as its senders and the end of a chunk lock it, then the chunk's: two attempts
        # at once (a redelivery) add each game once.
        with transaction.atomic():
            Run.objects.select_for_update().filter(pk=self._run_pk).values_list("pk", flat=True).first()
            mark = RunChunk.objects.select_for_update().filter(
                pk=self._chunk_pk, status=ChunkStatus.PENDING).values_list("games_played", flat=True).first()
            if mark is not None and done > mark:
                RunChunk.objects.filter(pk=self._chunk_pk).update(games_played=done)
                Run.objects.filter(pk=self._run_pk).update(games_playing=F("games_playing") + done - mark)
                self._marked = True

    def end(self) -> None:
        """Takes the chunk's games out of its run's progress: its result counts them now (called in the transaction
        that counts it, so that the progress never dips between the two), or its run has stopped."""
        if not self._marked:
            return
        with transaction.atomic():
            Run.objects.select_for_update().filter(pk=self._run_pk).values_list("pk", flat=True).first()
            mark = RunChunk.objects.select_for_update().filter(pk=self._chunk_pk).values_list(
                "games_played", flat=True).first()
            if mark:
                RunChunk.objects.filter(pk=self._chunk_pk).update(games_played=0)
                _take_back(self._run_pk, mark)
        self._marked = False


def _take_back(run_pk, games: int) -> None:
    # Never below 0, whatever an older release left in the figures.
    Run.objects.filter(pk=run_pk).update(games_playing=Greatest(F("games_playing") - games, 0))
