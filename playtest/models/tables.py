"""A goldfish table: a person plays their deck step by step; the state lives on the server
as seed plus actions, so a reload (or another device) continues the same game."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class GoldfishTable(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="goldfish_tables")
    deck = models.ForeignKey("decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    params = models.JSONField(help_text="Deck snapshot and format, as for a playtest run.")
    seed = models.BigIntegerField()
    actions = models.JSONField(default=list, help_text="Every action so far, in order ([kind, a, b]).")
    human_moves = models.JSONField(default=list, help_text="Indexes in `actions` where each human action starts.")
    dummies = models.JSONField(default=list, help_text="Cells where training dummies wait to be placed.")
    engine_version = models.CharField(max_length=32)
    catalog_version = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Goldfish table {self.id}"
