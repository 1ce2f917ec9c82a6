"""Bot matches in chunks: pure functions shared by the bench scripts and the tournament jobs.

A lineup names the bot of each seat; game i rotates it by i seats so every bot plays every seat
equally often. `play_chunk` plays games [first_game, first_game + games) and returns counts that
`merge` adds up, so a tournament can run in any number of chunks and give the same result.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from core.interrupt import checkpoint
from core.stats import wilson_interval

from .bots import make_bot, play_game


def seat_lineup(lineup: list[str], game_index: int) -> list[str]:
    k = game_index % len(lineup)
    return lineup[k:] + lineup[:k]


def play_chunk(params: dict[str, Any], seed: int, first_game: int, games: int) -> dict[str, Any]:
    """Play `games` games of `params['lineup']` (one bot kind per seat), seeds derived from `seed`."""
    lineup = list(params["lineup"])
    wins: Counter[str] = Counter()
    rounds: Counter[int] = Counter()
    round_summons: Counter[int] = Counter()
    first_wins = decisions = 0
    for i in range(first_game, first_game + games):
        checkpoint()
        kinds = seat_lineup(lineup, i)
        game_seed = seed * 1_000_003 + i
        bots = [make_bot(kind, seed=game_seed * 7 + p) for p, kind in enumerate(kinds)]
        g = play_game(bots, game_seed)
        wins[kinds[g.winner]] += 1
        rounds[g.round_no] += 1
        for length in g.round_lengths:
            round_summons[length] += 1
        first_wins += g.winner == g.first_player
        decisions += len(g.history)
    return {
        "games": games, "wins": dict(wins), "rounds": {str(k): v for k, v in rounds.items()},
        "round_summons": {str(k): v for k, v in round_summons.items()}, "first_player_wins": first_wins,
        "decisions": decisions,
    }


def merge(partials: list[dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
    """Add up chunk results; win rates with 95% Wilson intervals per bot kind."""
    lineup = list(params["lineup"])
    games = sum(p["games"] for p in partials)
    wins: Counter[str] = Counter()
    rounds: Counter[int] = Counter()
    round_summons: Counter[int] = Counter()
    first_wins = decisions = 0
    for p in partials:
        wins.update(p["wins"])
        rounds.update({int(k): v for k, v in p["rounds"].items()})
        round_summons.update({int(k): v for k, v in p["round_summons"].items()})
        first_wins += p["first_player_wins"]
        decisions += p["decisions"]
    seats = Counter(lineup)
    bots = []
    for kind in sorted(seats):
        low, high = wilson_interval(wins[kind], games)
        bots.append({
            "bot": kind, "seats": seats[kind], "wins": wins[kind],
            "win_rate": wins[kind] / games if games else 0.0, "ci95": [low, high],
            "fair_share": seats[kind] / len(lineup),
        })
    n_rounds = sum(round_summons.values())
    return {
        "games": games, "players": len(lineup), "bots": bots,
        "first_player_win_rate": first_wins / games if games else 0.0,
        "first_player_ci95": list(wilson_interval(first_wins, games)),
        "rounds_histogram": {str(k): rounds[k] for k in sorted(rounds)},
        "mean_rounds": sum(k * v for k, v in rounds.items()) / games if games else 0.0,
        "mean_round_summons": sum(k * v for k, v in round_summons.items()) / n_rounds if n_rounds else 0.0,
        "round_summons_histogram": {str(k): round_summons[k] for k in sorted(round_summons)},
        "mean_decisions": decisions / games if games else 0.0,
    }
