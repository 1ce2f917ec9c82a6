"""Dreadgate engine speed: random legal self-play on one core, with the starter decks.

Run from the repository root: .venv/bin/python bench/engine.py [games per starter-deck pair, default 1000]

Prints, as JSON lines: random legal self-play actions per second and games per second over every
starter-deck pair, apply+undo pairs per second and copies per second at the positions of those games (the
speed figures, measured in CPU time of this process, so that other load on the machine does not count), then
each pair's 1,000 games with their results.
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from playtest.dreadgate import ENGINE_VERSION, new_game  # noqa: E402
from playtest.simulation.catalog import starter_decks  # noqa: E402

GAMES_PER_PAIR = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
# Standing targets. Actions/s: 95% of the 110,700 measured before undo became a journal (it replayed the game).
ACTIONS_TARGET = 105_000
PAIRS_TARGET = 50_000  # a search that tries moves by apply and undo
COPIES_TARGET = 20_000


def reference_loop_seconds() -> float:
    """CPU time of a fixed pure-Python loop, to compare figures taken on busier or slower machines."""
    start = time.process_time()
    sum(i * i for i in range(1_000_000))
    return round(time.process_time() - start, 4)


REFERENCE = reference_loop_seconds()


def env(**extra) -> dict:
    return {"python": platform.python_version(), "machine": platform.machine(), "cores_used": 1,
            "engine": ENGINE_VERSION, "clock": "process CPU time", "load_average_1m": round(os.getloadavg()[0], 2),
            "reference_loop_s": REFERENCE, **extra}  # fmt: skip


def figure(what: str, value: float, unit: str, target: float | None, **extra) -> None:
    line = {"bench": "engine", "figure": what, "value": round(value, 2), "unit": unit, "target": target,
            "better": "higher", "env": env(**extra)}  # fmt: skip
    print(json.dumps(line), flush=True)


def random_game(deck_a, deck_b, seed: int) -> tuple[int, object]:
    """Play one game with uniformly random legal actions; returns (actions, final state)."""
    state = new_game([deck_a, deck_b], seed)
    pick = random.Random(seed).choice
    legal = state.legal_actions
    apply = state.apply
    n = 0
    while state.phase != 6:
        apply(pick(legal()))
        n += 1
    return n, state


def main() -> None:
    decks = starter_decks()
    pairs = list(itertools.combinations_with_replacement(sorted(decks), 2))
    random_game(decks[pairs[0][0]], decks[pairs[0][1]], 0)  # warm up

    # Speed: 10 games of every pair.
    actions = games = 0
    start = time.process_time()
    for a, b in pairs:
        for seed in range(10):
            n, _ = random_game(decks[a], decks[b], 10_000 + seed)
            actions += n
            games += 1
    elapsed = time.process_time() - start
    figure("random legal self-play actions per second (starter decks, one core)", actions / elapsed, "actions/s",
           ACTIONS_TARGET, games=games, actions=actions)
    figure("random legal self-play games per second (starter decks, one core)", games / elapsed, "games/s", None,
           games=games, mean_actions_per_game=round(actions / games, 1))

    # Trying moves: at every position of 2 games of every pair, each legal action applied and undone.
    pairs_done = copies = 0
    pair_ns = copy_ns = 0
    clock = time.process_time_ns
    for a, b in pairs:
        for seed in range(2):
            state = new_game([decks[a], decks[b]], 20_000 + seed)
            pick = random.Random(seed).choice
            while not state.is_over():
                legal = state.legal_actions()
                start_ns = clock()
                for action in legal:
                    state.apply(action)
                    state.undo()
                pair_ns += clock() - start_ns
                pairs_done += len(legal)
                start_ns = clock()
                for _ in range(4):
                    state.copy()
                copy_ns += clock() - start_ns
                copies += 4
                state.apply(pick(legal))
    figure("apply+undo pairs per second, every legal action at every position (starter decks, one core)",
           pairs_done / pair_ns * 1e9, "pairs/s", PAIRS_TARGET, pairs=pairs_done)
    figure("state copies per second at every position (starter decks, one core)", copies / copy_ns * 1e9,
           "copies/s", COPIES_TARGET, copies=copies)

    # 1,000 games per starter-deck pair, with their outcomes.
    for a, b in pairs:
        results = {"first deck": 0, "second deck": 0, "draw": 0}
        conditions: dict[str, int] = {}
        turns = 0
        start = time.process_time()
        for seed in range(GAMES_PER_PAIR):
            _, state = random_game(decks[a], decks[b], seed)
            if state.winner == 2:
                results["draw"] += 1
            else:
                results["first deck" if state.deck_of_seat[state.winner] == 0 else "second deck"] += 1
            conditions[state.condition] = conditions.get(state.condition, 0) + 1
            turns += state.turn
        elapsed = time.process_time() - start
        figure(f"random self-play games per second, {a} vs {b}", GAMES_PER_PAIR / elapsed, "games/s", None,
               games=GAMES_PER_PAIR, results=results, conditions=conditions,
               mean_turns=round(turns / GAMES_PER_PAIR, 1))  # fmt: skip


if __name__ == "__main__":
    main()
