"""The Dread Draw pages' forms: a new table, a decision at a table, a seat shown at a shared screen, a tournament.

They read what a page sends; the services decide what is allowed (the number of players, the seats, the decision)
and refuse with their own messages, so a form only turns text into values and keeps what was typed for the page.
"""

from __future__ import annotations

from typing import Any

from django import forms

from .engine.game import MAX_PLAYERS, MIN_PLAYERS
from .models import BOT_LABELS, BotLevel, SeatKind, bot_name

DEFAULT_PLAYERS = 2

# The bots as every form offers them (a table's seats, a tournament's), by their one name.
BOT_CHOICES = [(b.value, bot_name(b)) for b in BotLevel]
SEAT_CHOICES = [("local", "Person at this screen")] + [(f"bot:{value}", label) for value, label in BOT_CHOICES] + [
    ("invite", "Person joining by link")]


def players_of(data: Any) -> int:
    """The number of players a start form asks for (the default when it says nothing readable)."""
    try:
        return int(data.get("players", DEFAULT_PLAYERS))
    except (TypeError, ValueError):
        return DEFAULT_PLAYERS


def shown_players(data: Any) -> int:
    """How many seat rows a start form shows: what it asks for, within the game's limits (a number out of them is
    refused by the service when the form is submitted, with its message)."""
    return min(max(players_of(data), MIN_PLAYERS), MAX_PLAYERS)


class TableForm(forms.Form):
    """A new table: the number of players and, for each seat, who sits there (seatN) and a name (nameN)."""

    players = forms.IntegerField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(MAX_PLAYERS):
            self.fields[f"seat{i}"] = forms.CharField(required=False, max_length=40)
            self.fields[f"name{i}"] = forms.CharField(required=False, max_length=40)

    def seats(self) -> list[dict[str, str]]:
        """The seats asked for, as the service takes them; one seat only when the number of players is out of the
        game's limits, so that the service refuses it with its own message."""
        data = self.cleaned_data
        players = data["players"] if data.get("players") is not None else DEFAULT_PLAYERS
        seats = []
        for i in range(max(0, min(players, MAX_PLAYERS))):
            choice, name = data.get(f"seat{i}") or "local", data.get(f"name{i}") or ""
            if choice.startswith("bot:"):
                seats.append({"kind": SeatKind.BOT, "bot": choice[4:], "name": name})
            else:
                seats.append({"kind": choice, "name": name})
        return seats if MIN_PLAYERS <= players <= MAX_PLAYERS else seats[:1]


class DecisionForm(forms.Form):
    """A decision at a table: the seat that makes it, the turn the page showed (optional), the decision's notation."""

    seat = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1)  # 0-based: pages say seat 1 for seat 0
    turn = forms.IntegerField(required=False, min_value=0)
    decision = forms.CharField(required=False, max_length=40)


class SeatForm(forms.Form):
    """The next person at a shared screen says which seat is theirs."""

    seat = forms.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1)


class TournamentForm(forms.Form):
    """A bot tournament: the number of players, the games to play, and the bot in each seat (botN)."""

    players = forms.IntegerField()
    games = forms.IntegerField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(MAX_PLAYERS):  # labelled as the page labels them, so a refusal names "Seat 1", not "bot0"
            self.fields[f"bot{i}"] = forms.CharField(required=False, max_length=40, label=f"Seat {i + 1}")

    def clean_players(self) -> int:
        players: int = self.cleaned_data["players"]
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:  # said here: past the range the seats are not read at all
            raise forms.ValidationError(f"a tournament seats {MIN_PLAYERS} to {MAX_PLAYERS} bots, not {players}.")
        return players

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for i in range(data.get("players") or 0):
            bot = data.get(f"bot{i}")
            if not bot:
                self.add_error(f"bot{i}", "choose its bot.")
            elif bot not in BOT_LABELS:
                self.add_error(f"bot{i}", f"“{bot}” is not a bot; choose one of {', '.join(BOT_LABELS)}.")
        return data

    def lineup(self) -> list[str]:
        players = self.cleaned_data["players"]
        return [self.cleaned_data.get(f"bot{i}") or "" for i in range(max(0, min(players, MAX_PLAYERS)))]
