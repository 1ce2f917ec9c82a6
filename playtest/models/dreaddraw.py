"""Dread Draw tables played in the browser. A game is stored as its seed and decisions (notation):
the engine replays it on load, so a table survives reloads and restarts exactly."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class TableStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    PLAYING = "playing", "Playing"
    OVER = "over", "Game over"


class SeatKind(models.TextChoices):
    BOT = "bot", "Bot"
    LOCAL = "local", "Person at the creator's screen"
    INVITE = "invite", "Person joining by link"


class BotLevel(models.TextChoices):
    RANDOM = "random", "Random"
    HEURISTIC = "heuristic", "Heuristic"
    PROBABILITY = "probability", "Probability-aware"


class DreadDrawTable(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dreaddraw_tables")
    players = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    set_version = models.CharField(max_length=32)
    decisions = models.JSONField(default=list, blank=True, help_text="Every decision so far, in notation.")
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.WAITING, db_index=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Dread Draw table {self.id} ({self.status})"


class DreadDrawSeat(models.Model):
    table = models.ForeignKey(DreadDrawTable, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=6, choices=SeatKind.choices)
    bot = models.CharField(max_length=12, choices=BotLevel.choices, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="dreaddraw_seats")
    name = models.CharField(max_length=40)

    class Meta:
        ordering = ["table", "index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="dreaddraw_seat_unique")]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.index + 1})"
