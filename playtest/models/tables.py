"""A goldfish table: a person plays their deck step by step; the state lives on the server
as seed, nonce and actions, so a reload (or another device) continues the same game. The seed and nonce stay on
the server until the game is over (only their commitment is shown), so the person can't compute the AI's hand or
the order of a deck (DG-4.6, playtest/dreadgate/fairness.py). What each step showed is stored beside them (its
frames), so its replay needs no engine and it survives a change of rules (docs/rules.md, RV-2 to RV-5)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class GoldfishTable(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="goldfish_tables")
    deck = models.ForeignKey("decks.Deck", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    params = models.JSONField(help_text="Deck snapshot and format, as for a playtest run.")
    seed = models.BigIntegerField(help_text="Revealed only when the game is over (playtest/dreadgate/fairness.py).")
    nonce = models.CharField(max_length=64, blank=True, default="",
                             help_text="Server-side random, mixed into every shuffle and the AI's choices; revealed "
                                       "when the game is over. Empty for tables opened before it existed.")
    commitment = models.CharField(max_length=64, blank=True, default="",
                                  help_text="SHA-256 of the seed and nonce, published from the start.")
    actions = models.JSONField(default=list, help_text="Every action so far, in order ([kind, a, b]).")
    human_moves = models.JSONField(default=list, help_text="Indexes in `actions` where each human action starts.")
    dummies = models.JSONField(default=list, help_text="Cells where training dummies wait to be placed.")
    engine_version = models.CharField(max_length=32, help_text="The rules version its game is played under.")
    catalog_version = models.CharField(max_length=32)
    frames = models.BinaryField(default=b"", blank=True, editable=False, help_text=(
        "What each step showed each seat, and in full (core.frames.pack), kept as the game goes: its replay needs "
        "no engine (docs/rules.md, RV-2)."))
    closed_step = models.PositiveIntegerField(null=True, blank=True, help_text=(
        "Set when a change of rules would show this game otherwise from that step on: the table is closed, and its "
        "stored frames stay viewable (RV-5)."))
    closed_under = models.CharField(max_length=32, blank=True, help_text="The rules version that closed it.")
    conceded_step = models.PositiveIntegerField(null=True, blank=True, help_text=(
        "Set when the person conceded, to the number of actions played then: the game ended there, the opponent "
        "winning (playtest/goldfish/services.py, table_concede)."))
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text=(
        "The person's seat, 0 (South) or 1 (North), as the seed drew it (DG-4.3): whose view of the stored frames "
        "is theirs."))
    thinking_since = models.DateTimeField(null=True, blank=True, help_text=(
        "Set while a worker plays the AI's decisions at the strong level (playtest/goldfish/services.py, table_think): "
        "the person can't act until it is cleared."))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"Goldfish table {self.id}"
