"""Checks the Dread Draw card set's design by simulation (heuristic bots, 2, 4 and 6 players):
summons per round, rounds per game, and how often the randomly chosen first player wins.

Run from the repository root: .venv/bin/python bench/dreaddraw_design.py [games per table size]
"""

from __future__ import annotations

import sys

from _dreaddraw_common import figure

from dreaddraw.engine.tournament import merge, play_chunk

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 2000

for players in (2, 4, 6):
    params = {"lineup": ["heuristic"] * players}
    result = merge([play_chunk(params, seed=players, first_game=0, games=GAMES)], params)
    name = f"dreaddraw_design_{players}p"
    figure(name, "summons per round (mean)", result["mean_round_summons"], "summons", better="none")
    figure(name, "rounds per game (mean)", result["mean_rounds"], "rounds", better="none",
           histogram=result["rounds_histogram"])
    low, high = result["first_player_ci95"]
    figure(name, "first player win rate", result["first_player_win_rate"], "fraction", target=1 / players,
           better="closer", ci95=[round(low, 4), round(high, 4)], games=GAMES)
