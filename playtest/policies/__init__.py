"""The policies that play Dreadgate, by the names runs, tables and the API use.

A policy is `policy(view, rng) -> action`: it sees one seat's view (playtest.dreadgate.view.SeatView), never the
true state, and draws any randomness from `rng`, so a game replays from its seed. `goldfish` and `matchup` play
the whole deck (lookahead.py); `strong` searches `matchup`'s candidates through the opponent's replies on sampled
worlds (strong.py); `classic-goldfish` and `classic-matchup` are the earlier plans that play only
units (classic.py), kept so that runs played with them stay comparable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .classic import BOARD_KINDS, classic_goldfish, classic_matchup, passive, random_legal
from .lookahead import goldfish, matchup
from .strong import strong

Policy = Callable  # (SeatView, random.Random) -> Action

POLICIES: dict[str, Policy] = {
    "goldfish": goldfish,
    "matchup": matchup,
    "strong": strong,
    "classic-goldfish": classic_goldfish,
    "classic-matchup": classic_matchup,
    "passive": passive,
    "random": random_legal,
}
CLASSIC_NAMES = {"goldfish": "classic-goldfish", "matchup": "classic-matchup"}  # what the names meant before
# What each policy is, in a player's words, where a form offers them.
POLICY_WORDS = {
    "goldfish": "the AI racing alone to its win total, playing every card that speeds it up",
    "matchup": "the AI playing against an opponent: it races, attacks and defends",
    "strong": "the AI searching its opponent's replies: the best play, some seconds a game",
    "classic-goldfish": "the earlier plan for racing alone, units only (for comparing with older runs)",
    "classic-matchup": "the earlier plan against an opponent, units only (for comparing with older runs)",
    "passive": "does nothing: a deck to race against (goldfish)",
    "random": "any legal action, at random",
}

# Games a run's chunk may hold when a policy's games take seconds: `strong` plays a Standard game in about 7.5 s of
# CPU on one seat (its budget of 128), twice that on both, and a chunk must end well within the task's time limit
# (600 s).
SLOW_POLICY_CHUNK_GAMES = {"strong": 4}


def chunk_games(policies: Iterable[str], usual: int) -> int:
    """The games a run's chunk holds with these policies: `usual`, or fewer for a slow policy."""
    return min([usual, *(SLOW_POLICY_CHUNK_GAMES.get(name, usual) for name in policies)])


__all__ = ["BOARD_KINDS", "CLASSIC_NAMES", "POLICIES", "POLICY_WORDS", "Policy", "chunk_games"]
