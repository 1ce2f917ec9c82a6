"""Dread Draw bot strength: probability-aware vs heuristic, heuristic vs random, seat-rotated
two-player games; prints each win rate with its 95% Wilson interval.

Run from the repository root: .venv/bin/python bench/dreaddraw_bots.py [games per match, default 10000]
"""

from __future__ import annotations

import sys

from _dreaddraw_common import figure

from dreaddraw.engine.tournament import merge, play_chunk

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000

for strong, weak in (("probability", "heuristic"), ("heuristic", "random")):
    params = {"lineup": [strong, weak]}
    result = merge([play_chunk(params, seed=2026, first_game=0, games=GAMES)], params)
    row = next(b for b in result["bots"] if b["bot"] == strong)
    low, high = row["ci95"]
    figure(f"dreaddraw_bots_{strong}_vs_{weak}", f"{strong} win rate against {weak}", row["win_rate"],
           "fraction", target=0.5, better="higher", ci95=[round(low, 4), round(high, 4)], games=GAMES,
           seats="rotated")
