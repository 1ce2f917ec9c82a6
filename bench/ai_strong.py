"""The strong level of the playtest AI against `matchup`: win rate with its 95% interval, and speed.

Run from the repository root: .venv/bin/python bench/ai_strong.py [games per starter pair and format, default 40]
[formats, default standard,quick] [games of each pair to skip, default 0: a run that skips the games of an earlier
one plays new seeds, and the two pool as one run of their games together]. Every pair of starter decks is played
both ways (each deck plays `strong` in half of the pair's games), and every seed from both seats (the seed decides
who moves first), so neither the decks nor the first move favour a side. `strong` plays at its default budget
(play-outs per decision, no wall-time cap: the budget alone decides, so a seed gives the same game). Two processes
share the games; games/s is per core (CPU time of the processes that played them).

Prints, as JSON lines, per format and over both: `strong`'s share of the games won (target 60%) with its 95% Wilson
interval, draws, games, games/s on one core, and the budget.
"""

from __future__ import annotations

import itertools
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _common  # noqa: E402

from core import stats  # noqa: E402
from playtest.policies.strong import BREADTH, BUDGET  # noqa: E402
from playtest.simulation import games  # noqa: E402
from playtest.simulation.catalog import starter_decks  # noqa: E402

GAMES_PER_PAIR = int(sys.argv[1]) if len(sys.argv) > 1 else 40
FORMATS = tuple(sys.argv[2].split(",")) if len(sys.argv) > 2 else ("standard", "quick")
SKIP = int(sys.argv[3]) if len(sys.argv) > 3 else 0
ENV = {"python": platform.python_version(), "cpus": os.cpu_count(), "machine": platform.machine(),
       "budget": BUDGET, "breadth": BREADTH}
WIN_TARGET = 0.6
RUN_SEED = 4242


def emit(figure: str, value: float, unit: str, target: float | None = None, better: str = "higher",
         digits: int = 3) -> None:
    _common.emit("ai_strong", figure, value, unit, target, better, ENV, digits)


def pair_games(a: str, b: str, fmt: str, first: int, count: int) -> tuple[int, int, int, float]:
    """Games `first` .. `first + count - 1` of deck a against deck b, deck a playing `strong`: seed i // 2, the
    seats swapped on odd games. (a's wins, b's wins, draws, CPU seconds)."""
    decks = starter_decks(fmt)
    wins = [0, 0]
    draws = 0
    start = time.process_time()
    for n in range(first, first + count):
        swap = n % 2
        order = (a, b) if not swap else (b, a)
        policies = ["strong", "matchup"] if not swap else ["matchup", "strong"]
        result = games.play_game([decks[order[0]], decks[order[1]]], fmt, games.game_seed(RUN_SEED, n // 2),
                                 policies)
        if result["winner"] < 0:
            draws += 1
        else:
            wins[result["winner"] ^ swap] += 1
    return wins[0], wins[1], draws, time.process_time() - start


def figures(name: str, results: list[tuple[int, int, int, float]]) -> None:
    won = sum(r[0] for r in results)
    total = sum(r[0] + r[1] + r[2] for r in results)
    low, high = stats.wilson_interval(won, total)
    emit(f"{name}: strong against matchup: win rate", won / total, "share", WIN_TARGET)
    emit(f"{name}: strong against matchup: 95% interval low", low, "share", 0.5)
    emit(f"{name}: strong against matchup: 95% interval high", high, "share")
    emit(f"{name}: strong against matchup: draws", sum(r[2] for r in results), "games", better="lower", digits=0)
    emit(f"{name}: strong against matchup: games", total, "games", digits=0)
    emit(f"{name}: games/s (one core, strong on one seat)", total / sum(r[3] for r in results), "games/s")


def main() -> None:
    crafts = list(starter_decks())
    pairs = list(itertools.permutations(crafts, 2))  # both ways: each deck plays `strong` in half of the games
    half = GAMES_PER_PAIR // 2
    everything = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        jobs = {fmt: [pool.submit(pair_games, a, b, fmt, SKIP // 2, half) for a, b in pairs] for fmt in FORMATS}
        for fmt in FORMATS:
            results = [job.result() for job in jobs[fmt]]
            everything += results
            figures(fmt, results)
    if len(FORMATS) > 1:
        figures("+".join(FORMATS), everything)


if __name__ == "__main__":
    main()
