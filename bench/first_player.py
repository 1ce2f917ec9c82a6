"""The first player's share of wins: `matchup` against itself on the starter decks, seat-rotated.

Run from the repository root: .venv/bin/python bench/first_player.py [games per starter pair, default 100]
[formats, default standard]. For every pair of starter decks (mirrors included), each seed is played twice with
the decks' places swapped, so that the same seed puts each deck first once (the seed decides who moves first,
DG-4.3) and the decks' strengths cancel out (a mirror plays each seed once). Two processes share the games.

Prints, as JSON lines, per format: the first player's share of the decided games with its 95% Wilson interval,
and the drawn games.
"""

from __future__ import annotations

import itertools
import os
import platform
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _common  # noqa: E402

from core import stats  # noqa: E402
from playtest.dreadgate import ENGINE_VERSION  # noqa: E402
from playtest.simulation import games  # noqa: E402
from playtest.simulation.catalog import starter_decks  # noqa: E402

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 100
FORMATS = tuple(sys.argv[2].split(",")) if len(sys.argv) > 2 else ("standard",)
ENV = {"python": platform.python_version(), "cpus": os.cpu_count(), "machine": platform.machine(),
       "engine": ENGINE_VERSION}


def emit(figure: str, value: float, unit: str, digits: int = 3) -> None:
    _common.emit("first_player", figure, value, unit, None, "closer to 0.5", ENV, digits)


def pair_games(a: str, b: str, fmt: str, count: int) -> list[int]:
    """For each game of the pair: 1 if the first player won, 0 if they lost, -1 for a draw."""
    decks = starter_decks(fmt)
    out = []
    for n in range(count):
        first, second = (a, b) if n % 2 == 0 else (b, a)
        seed = games.game_seed(11, n // 2 if a != b else n)  # a mirror needs no swap: every seed once
        result = games.play_game([decks[first], decks[second]], fmt, seed,
                                 ["matchup", "matchup"], keep_record=True)
        mover = result["seat_deck"][0]  # the deck in the first seat
        out.append(-1 if result["winner"] < 0 else int(result["winner"] == mover))
    return out


def main() -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        for fmt in FORMATS:
            crafts = list(starter_decks(fmt))
            jobs = [pool.submit(pair_games, a, b, fmt, GAMES)
                    for a, b in itertools.combinations_with_replacement(crafts, 2)]
            results = [row for job in jobs for row in job.result()]
            decided = [won for won in results if won >= 0]
            wins = sum(decided)
            low, high = stats.wilson_interval(wins, len(decided))
            emit(f"{fmt}: first player's share of decided games", wins / len(decided), "share")
            emit(f"{fmt}: 95% interval low", low, "share")
            emit(f"{fmt}: 95% interval high", high, "share")
            emit(f"{fmt}: games", len(results), "games", 0)
            emit(f"{fmt}: drawn games", len(results) - len(decided), "games", 0)


if __name__ == "__main__":
    main()
