"""What each card of a deck did in a game, and those facts added up over a run.

Per game and per deck: the cards drawn (held in hand at some point), the cards that were ever legal to play
(deploy, play, equip, instant), the cards played with the deck's own turn, and, for a card held but never
legal, the engine's own reason (its refusal of the card's natural action, with the rule number). Over a run
each card keeps: how often it was played and on which turn; the games it was played in and the games it was
drawn in but not played, each with their wins and turns to win (the report compares the two groups); and the
refusals counted by reason.
"""

from __future__ import annotations

from typing import Any

from playtest.dreadgate import why_not_played
from playtest.dreadgate.actions import DEPLOY, EQUIP, INSTANT, PLAY
from playtest.dreadgate.state import State

PLAY_KINDS = frozenset({DEPLOY, PLAY, EQUIP, INSTANT})  # actions that play a card from the hand


class GameCards:
    """The card facts of one game, for both decks (indexed by deck, not seat)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.drawn: list[set[str]] = [set(), set()]
        self.legal: list[set[str]] = [set(), set()]
        self.played: list[list[tuple[str, int]]] = [[], []]
        self.why_not: list[dict[str, str]] = [{}, {}]

    def _name(self, def_index: int) -> str:
        return self.state.defs[def_index].card.name

    def decision(self, deck: int, seat: int, legal: list[tuple[int, int, int]]) -> None:
        """Before the seat of `deck` decides: note its hand and which of its cards it could play now."""
        state = self.state
        inst = state.inst
        self.drawn[deck].update(inst[iid].card.name for iid in state.hand[seat])
        for kind, a, _ in legal:
            if kind in PLAY_KINDS:
                self.legal[deck].add(self._name(a))

    def play(self, deck: int, action: tuple[int, int, int], own_turn: int) -> None:
        if action[0] in PLAY_KINDS:
            self.played[deck].append((self._name(action[1]), own_turn))

    def explain(self, deck: int, seat: int) -> None:
        """At the start of the seat's turn: why each card held and never yet legal can't be played."""
        state = self.state
        for iid in list(state.hand[seat]):
            c = state.inst[iid]
            name = c.card.name
            if name in self.legal[deck] or name in self.why_not[deck]:
                continue
            why = why_not_played(state, seat, iid)
            if why:  # else legal after all (the legal list was for an earlier decision)
                self.why_not[deck][name] = why

    def result(self, deck: int) -> dict[str, Any]:
        return {"drawn": sorted(self.drawn[deck]), "legal": sorted(self.legal[deck]), "played": self.played[deck],
                "why_not": self.why_not[deck]}


# --- Over a run -----------------------------------------------------------------------------------------


def _card_row(table: dict[str, Any], name: str) -> dict[str, Any]:
    row = table.get(name)
    if row is None:
        row = table[name] = {"times": 0, "turn_sum": 0, "played_games": 0, "played_wins": 0, "played_turns": {},
                             "held_games": 0, "held_wins": 0, "held_turns": {}, "drawn_games": 0,
                             "legal_games": 0, "why_not": {}}  # fmt: skip
    return row


def _bump(counter: dict[str, int], key: Any, by: int = 1) -> None:
    counter[str(key)] = counter.get(str(key), 0) + by


def add_game(table: dict[str, Any], cards: dict[str, Any], won: bool, own_turns: int) -> None:
    """Add one game's card facts for one deck to the run's table (card name -> counters)."""
    played_names = set()
    for name, turn in cards["played"]:
        row = _card_row(table, name)
        row["times"] += 1
        row["turn_sum"] += turn
        played_names.add(name)
    for name in played_names:
        row = table[name]
        row["played_games"] += 1
        if won:
            row["played_wins"] += 1
            _bump(row["played_turns"], own_turns)
    for name in set(cards["drawn"]) - played_names:
        row = _card_row(table, name)
        row["held_games"] += 1
        if won:
            row["held_wins"] += 1
            _bump(row["held_turns"], own_turns)
    for name in cards["drawn"]:
        _card_row(table, name)["drawn_games"] += 1
    for name in cards["legal"]:
        _card_row(table, name)["legal_games"] += 1
    for name, reason in cards["why_not"].items():
        _bump(_card_row(table, name)["why_not"], reason)


def merge_tables(total: dict[str, Any], part: dict[str, Any]) -> None:
    for name, row in part.items():
        into = _card_row(total, name)
        for key, value in row.items():
            if isinstance(value, dict):
                for k, n in value.items():
                    _bump(into[key], k, n)
            else:
                into[key] += value
