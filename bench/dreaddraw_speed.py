"""Dread Draw engine speed: four heuristic bots, one core, whole games from a fresh deal.

Run from the repository root: .venv/bin/python bench/dreaddraw_speed.py [seconds, default 10]
"""

from __future__ import annotations

import sys
import time

from _dreaddraw_common import figure

from dreaddraw.engine.bots import HeuristicBot, play_game
from dreaddraw.engine.cardset import load_cardset

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0

cardset = load_cardset()
bots = [HeuristicBot() for _ in range(4)]
play_game(bots, 0, cardset)  # warm up
games = decisions = 0
# CPU time of this process: one core's throughput, whatever else the machine is running.
start = time.process_time()
while (elapsed := time.process_time() - start) < SECONDS:
    g = play_game(bots, games + 1, cardset)
    games += 1
    decisions += len(g.history)
figure("dreaddraw_speed", "4-player games per second (heuristic bots)", games / elapsed, "games/s", target=500,
       clock="process CPU time", games=games)
figure("dreaddraw_speed", "decisions per second (4 players, heuristic bots)", decisions / elapsed,
       "decisions/s", target=None, clock="process CPU time", decisions=decisions)
