"""Dread Draw's records: its card set, and the tables played in the browser.

A table's game is stored as its seed, nonce and decisions (notation): the engine replays it on load, so a
table survives reloads and restarts exactly; what each step showed is stored beside them (its frames), so the
table stays viewable after a change of rules (docs/rules.md, RV-2 to RV-5). The seed and nonce stay on the server
until the game is over (only their commitment is shown), so nobody can compute the hidden cards. The tables keep
the names they had when these models lived in the cards and playtest apps (db_table), so moving them changed no
stored row.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from django.conf import settings
from django.db import models


class DreadDrawKeyword(models.TextChoices):
    NONE = "", "No ability"
    SUMMON = "summon", "Summon"
    RESERVE = "reserve", "Reserve"
    AFTERMATH = "aftermath", "Aftermath"
    ALWAYS = "always", "Always on"


class DreadDrawCard(models.Model):
    """One card of the Dread Draw set (a separate game, not in the Dreadgate search)."""

    number = models.PositiveSmallIntegerField(unique=True)
    name = models.CharField(max_length=60, unique=True)
    strength = models.PositiveSmallIntegerField()
    damage = models.PositiveSmallIntegerField(help_text="Red damage dots.")
    keyword = models.CharField(max_length=10, choices=DreadDrawKeyword.choices, blank=True)
    effect = models.JSONField(default=dict, blank=True)
    text = models.TextField(blank=True)
    fortune_present = models.CharField(max_length=200)
    fortune_near = models.CharField(max_length=200, help_text="Meaning as the immediate future.")
    fortune_far = models.CharField(max_length=200, help_text="Meaning as the distant future.")
    catalog_version = models.CharField(max_length=32)

    class Meta:
        db_table = "cards_dreaddrawcard"
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.number}. {self.name}"


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


# A bot seat's name unless it is given one.
BOT_LABELS: dict[str, str] = {BotLevel.RANDOM: "Random bot", BotLevel.HEURISTIC: "Heuristic bot",
                              BotLevel.PROBABILITY: "Counting bot"}


def bot_name(level: str) -> str:
    """A bot level's one name, wherever a bot is named (the forms, a table's seats, a tournament's report): the
    name its seat carries, and its level where that name does not say it ("Counting bot (probability-aware)")."""
    name, label = BOT_LABELS[level], BotLevel(level).label
    return name if label.casefold() in name.casefold() else f"{name} ({label.casefold()})"


def seat_names(seats: Iterable[DreadDrawSeat]) -> list[str]:
    """The seats' names as the table and its log say them, in seat order: a name two seats share (three "Counting
    bot"s) says its seat too ("Counting bot (seat 4)"), so that "… takes 3 damage" names one player."""
    ordered = sorted(seats, key=lambda s: s.index)
    names = [s.name for s in ordered]
    return [f"{name} (seat {s.index + 1})" if names.count(name) > 1 else name for s, name in zip(ordered, names,
                                                                                                  strict=True)]


class DreadDrawTable(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dreaddraw_tables")
    players = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField(help_text="Revealed only when the game is over (dreaddraw/engine/fairness.py).")
    nonce = models.CharField(max_length=64, blank=True, default="",
                             help_text="Server-side random, mixed into every shuffle; revealed when the game is over. "
                                       "Empty for tables created before it existed.")
    commitment = models.CharField(max_length=64, blank=True, default="",
                                  help_text="SHA-256 of the seed and nonce, published from the start.")
    set_version = models.CharField(max_length=32)
    engine_version = models.CharField(max_length=32, help_text="The rules version its game is played under.")
    frames = models.BinaryField(default=b"", blank=True, editable=False, help_text=(
        "What each step showed each seat and a watcher (core.frames.pack), kept as the game goes (docs/rules.md, "
        "RV-2)."))
    snapshot = models.BinaryField(default=b"", blank=True, editable=False, help_text=(
        "The game's whole state after its last decision, with the rules version and decision count it was taken at "
        "(dreaddraw.services.table_game reads it instead of replaying every decision). Server-side only: it holds "
        "every hidden card and the shuffles to come."))
    closed_step = models.PositiveIntegerField(null=True, blank=True, help_text=(
        "Set when a change of rules would show this game otherwise from that step on: the table is closed, and its "
        "stored frames stay viewable (RV-5)."))
    closed_under = models.CharField(max_length=32, blank=True, help_text="The rules version that closed it.")
    decisions = models.JSONField(default=list, blank=True, help_text="Every decision so far, in notation.")
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.WAITING, db_index=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    to_move = models.PositiveSmallIntegerField(null=True, blank=True, help_text=(
        "The seat the game waits on, kept with each decision so that a list of tables says whose turn it is "
        "without replaying their games."))
    rematch_of = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="rematches", help_text=(
                                       "The finished table whose \"Play again\" started this one: its players "
                                       "are shown the way here."))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "playtest_dreaddrawtable"
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
        db_table = "playtest_dreaddrawseat"
        ordering = ["table", "index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="dreaddraw_seat_unique")]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.index + 1})"
