"""Background runs (playtests, tournaments): one Run split into chunks that any worker can take."""

from __future__ import annotations

import functools
import uuid

from django.conf import settings
from django.db import models


class RunStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


FINISHED_STATUSES = frozenset({RunStatus.DONE, RunStatus.FAILED, RunStatus.CANCELLED})


class Run(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="runs")
    kind = models.CharField(max_length=40, db_index=True)
    title = models.CharField(max_length=200, blank=True)
    params = models.JSONField(default=dict)
    summary = models.JSONField(null=True, blank=True, help_text=(
        "What pages and the API show of the parameters (its kind's public_params), stored with them: a list of runs "
        "reads this, not the deck lists the workers play from (about 50 KB a run)."))
    games = models.PositiveIntegerField()
    chunk_size = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED, db_index=True)
    games_done = models.PositiveIntegerField(default=0)
    games_playing = models.PositiveIntegerField(default=0, help_text=(
        "Games played by chunks still in hand, not yet in games_done: the progress shown while a chunk plays."))
    stage = models.PositiveIntegerField(default=0, help_text="The stage under way (staged kinds; 0 for the others).")
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    engine_version = models.CharField(max_length=32)
    catalog_version = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now_add=True)
    dispatched_at = models.DateTimeField(null=True, blank=True, help_text="Null while waiting in the outbox.")
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True, help_text="Last progress by any worker.")
    finished_at = models.DateTimeField(null=True, blank=True)
    details_pruned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "status"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.status})"

    @property
    def shown_params(self) -> dict:
        """The parameters as shown: the stored summary. A run stored without one shows its parameters whole, as a
        list read them with it (`listed_params`: playtest.web.selectors.run_rows_for) or else read here."""
        if self.summary is not None:
            return self.summary
        listed = self.__dict__.get("listed_params")
        return listed if listed is not None else self.params

    @functools.cached_property
    def sides(self) -> list[dict]:
        """Each side of a playtest: its deck's name, whether the deck was legal, and the policy playing it (a tuning
        run's one side: the deck it tunes). Kept on the object: a list's row reads it once per column."""
        params = self.shown_params
        decks = params.get("decks") if isinstance(params, dict) else None
        if not isinstance(decks, list):
            tuned = params.get("deck") if isinstance(params, dict) else None
            return [{"name": tuned.get("name", "?"), "legal": tuned.get("legal", True), "policy": None}] \
                if isinstance(tuned, dict) else []
        policies = params.get("policies") or []
        return [{"name": deck.get("name", "?"), "legal": deck.get("legal", True),
                 "policy": policies[i] if i < len(policies) else None} for i, deck in enumerate(decks)]

    @property
    def has_illegal_deck(self) -> bool:
        return any(not side["legal"] for side in self.sides)

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED_STATUSES

    @property
    def games_short(self) -> int:
        """Games asked and never played by a finished run (cancelled, failed, or a staged race's last stage that
        could not share its budget evenly; the run's page says why, playtest.jobs.tally)."""
        return max(self.games - self.games_done, 0) if self.is_finished else 0

    @property
    def games_played(self) -> int:
        """The games played so far: while the run plays, those of its chunks in hand too (a chunk's games are counted
        in games_done only with its result); once it has finished, those whose results it has."""
        if self.is_finished:
            return self.games_done
        return min(self.games_done + self.games_playing, self.games)

    @property
    def progress_percent(self) -> int:
        # `games` is a staged run's budget: one that finished under it is complete all the same.
        if self.status == RunStatus.DONE or not self.games:
            return 100
        return int(100 * self.games_played / self.games)

    @property
    def duration_seconds(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None

    @property
    def games_per_second(self) -> float | None:
        """Games played over the time from the first chunk's start to the end (on however many workers)."""
        seconds = self.duration_seconds
        return self.games_done / seconds if seconds else None


class RunStage(models.Model):
    """One stage of a staged run (jobs/__init__): its plan is stored before its chunks are sent, its merged
    result once the last of them is done; the kind plans the next stage from the results of all before it."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="stages")
    index = models.PositiveIntegerField()
    plan = models.JSONField()
    games = models.PositiveIntegerField()
    result = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="run_stage_unique")]

    def __str__(self) -> str:
        return f"{self.run_id} stage {self.index}"


class ChunkStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DONE = "done", "Done"


class RunChunk(models.Model):
    """A slice of a run's games. Its result is stored once: (run, index) is unique, and a
    redelivered chunk that finds itself done changes nothing. Pending and sent, it is in flight: its run's window
    (PLAYTEST_DISPATCH_WINDOW) counts it."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    stage = models.PositiveIntegerField(default=0)
    first_game = models.PositiveIntegerField(help_text="Numbered within its stage.")
    games = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=ChunkStatus.choices, default=ChunkStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    games_played = models.PositiveIntegerField(default=0, help_text=(
        "Games its last attempt reported played (in its run's games_playing until the chunk is done)."))
    sent_at = models.DateTimeField(null=True, blank=True, help_text=(
        "When its message was last sent; null while it waits for room in its run's window (jobs/services.py)."))
    taken_by = models.CharField(max_length=200, blank=True,
                                help_text="The process that last took it (playtest/jobs/leases.py).")
    last_error = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="run_chunk_unique")]

    def __str__(self) -> str:
        return f"{self.run_id}#{self.index}"
