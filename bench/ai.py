"""The playtest AI against the classic plans: cards played, turns to win, matchups, speed.

Run from the repository root: .venv/bin/python bench/ai.py [goldfish games per starter, default 1000]
[matchup games per starter pair, default 200] [formats, default standard,quick,tactical]. Two processes share
the games (the whole bench takes a few minutes on 2 cores); speed figures are CPU time of one process.

Prints, as JSON lines, for the Standard and Quick formats (Tactical, which has no Beyond to race to: matchups
only, with the Tactical starter decks and the share of drawn games):
- per starter deck, 1,000 goldfish games with `goldfish` and with `classic-goldfish`: the median own turns to
  win with its 95% interval, the distinct non-gateway cards the new policy played and the ones it never played
  (with the report's reason), and both policies' games per second;
- over every starter pair, seat-rotated and both ways (each deck of the pair plays `matchup` in half of the
  pair's games): `matchup` against `classic-matchup` (win rate and its 95% Wilson interval, and the distinct
  cards each starter played) and `matchup` against `goldfish` (in Tactical also against itself), with the share
  of drawn games, and `matchup`'s games per second per starter deck;
- per starter deck, self-play games per second of `matchup` and of `classic-matchup` (against each other starter,
  BENCH_AI_SPEED_GAMES games each, 4 by default) and their ratio.
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
from playtest.simulation import games  # noqa: E402
from playtest.simulation.catalog import starter_decks  # noqa: E402
from playtest.simulation.report import report  # noqa: E402

GOLDFISH_GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
MATCHUP_GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 200
FORMATS = ("standard", "quick")
# a third argument names the formats to run, e.g. `tactical` for the Tactical matchups alone
MATCHUP_FORMATS = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else ("standard", "quick", "tactical")
TACTICAL_DRAW_TARGET = 0.05
ENV = {"python": platform.python_version(), "cpus": os.cpu_count(), "machine": platform.machine()}
GOLDFISH_SPEED_TARGET = 150
MATCHUP_SPEED_TARGET = 10
MATCHUP_WIN_TARGET = 0.6
# self-play games per starter and opponent timed for each policy (BENCH_AI_SPEED_GAMES)
SPEED_GAMES = int(os.environ.get("BENCH_AI_SPEED_GAMES", "4"))


def emit(figure: str, value: float, unit: str, target: float | None = None, better: str = "higher",
         digits: int = 2) -> None:
    _common.emit("ai", figure, value, unit, target, better, ENV, digits)


def _snapshot(deck) -> dict:
    from dataclasses import asdict

    names = {c.collector_number: asdict(c) for c in deck}
    return {"name": "", "legal": True, "cards": names, "list": [c.collector_number for c in deck]}


def goldfish_games(craft: str, fmt: str, policy: str, first: int, count: int) -> tuple[dict, float]:
    """A chunk of goldfish games of one starter: the merged aggregate and the CPU seconds it took."""
    deck = starter_decks()[craft]
    snapshot = _snapshot(deck)
    params = {"mode": "goldfish", "format": fmt, "policies": [policy, "passive"], "decks": [snapshot, snapshot]}
    start = time.process_time()
    part = games.play_chunk(params, 2026, first, count)
    return part, time.process_time() - start


def matchup_games(a: str, b: str, fmt: str, policies: tuple[str, str], count: int
                  ) -> tuple[int, int, int, float, set[str]]:
    """Seat-rotated games of deck a (playing policies[0]) against deck b: (a's wins, b's wins, draws, CPU s,
    the names of the cards deck a played)."""
    decks = starter_decks(fmt)
    played: set[str] = set()
    wins = [0, 0]
    draws = 0
    start = time.process_time()
    for n in range(count):
        swap = n % 2  # the seed decides who moves first; both sides of every seed are played
        first, second = (a, b) if not swap else (b, a)
        pols = list(policies) if not swap else [policies[1], policies[0]]
        result = games.play_game([decks[first], decks[second]], fmt, games.game_seed(7, n // 2), pols)
        played.update(name for name, _ in result["played"][swap])
        if result["winner"] < 0:
            draws += 1
        else:
            wins[result["winner"] ^ swap] += 1
    return wins[0], wins[1], draws, time.process_time() - start, played


def goldfish_figures(pool: ProcessPoolExecutor, fmt: str) -> None:
    crafts = list(starter_decks())
    half = GOLDFISH_GAMES // 2
    jobs = {(craft, policy, first): pool.submit(goldfish_games, craft, fmt, policy, first, count)
            for craft in crafts for policy in ("goldfish", "classic-goldfish")
            for first, count in ((0, half), (half, GOLDFISH_GAMES - half))}
    lower = 0
    for craft in crafts:
        medians = {}
        for policy in ("goldfish", "classic-goldfish"):
            parts = [jobs[(craft, policy, first)].result() for first in (0, half)]
            params = {"mode": "goldfish", "format": fmt, "policies": [policy, "passive"],
                      "decks": [_snapshot(starter_decks()[craft])] * 2}
            merged = games.merge([p for p, _ in parts], params)
            seconds = sum(s for _, s in parts)
            turns = games.counter_values(merged["turns_to_win"][0])
            median, low, high = stats.median_interval(turns) if turns else (0, 0, 0)
            medians[policy] = median
            emit(f"{fmt} {craft} {policy}: median own turns to win", median, "turns", better="lower")
            emit(f"{fmt} {craft} {policy}: median 95% interval low", low, "turns", better="lower")
            emit(f"{fmt} {craft} {policy}: median 95% interval high", high, "turns", better="lower")
            emit(f"{fmt} {craft} {policy}: games won", merged["wins"][0], "games")
            emit(f"{fmt} {craft} {policy}: games/s (one core)", GOLDFISH_GAMES / seconds, "games/s",
                 GOLDFISH_SPEED_TARGET if policy == "goldfish" else None)
            if policy == "goldfish":
                figures = report(merged, {**params, "decks": [_named(craft), _named(craft)]})["decks"][0]
                played = [row["name"] for row in figures["cards"] if row["per_game"] > 0]
                emit(f"{fmt} {craft} goldfish: distinct cards played", len(played), "cards")
                for row in figures["never_played"]:
                    print(f"# {fmt} {craft}: never played: {row['name']}: {row['reason']}", flush=True)
                for row in figures["unchosen"]:
                    print(f"# {fmt} {craft}: {row['name']}: {row['reason']}", flush=True)
                racing = [row for row in figures["unchosen"] if "goldfish opponent never brings" not in row["reason"]]
                emit(f"{fmt} {craft} goldfish: cards legal but never chosen", len(figures["unchosen"]), "cards",
                     better="lower")
                emit(f"{fmt} {craft} goldfish: of those, cards whose effects could bring the win closer",
                     len(racing), "cards", 0, "lower")
        lower += medians["goldfish"] < medians["classic-goldfish"]
    emit(f"{fmt}: starters where goldfish's median is lower than classic-goldfish's", lower, "decks", 5)


def _named(craft: str) -> dict:
    deck = starter_decks()[craft]
    return {**_snapshot(deck), "name": craft}


def matchup_figures(pool: ProcessPoolExecutor, fmt: str) -> None:
    crafts = list(starter_decks())
    pairings = [("matchup", "classic-matchup"), ("matchup", "goldfish")]
    if fmt == "tactical":
        pairings.append(("matchup", "matchup"))  # DG-1.9: a side that stalls must not make the game a draw
    for policies in pairings:
        # Each pair both ways (each deck plays each policy), half the games each way, both seats of every seed.
        pairs = list(itertools.permutations(crafts, 2))
        jobs = [pool.submit(matchup_games, a, b, fmt, policies, MATCHUP_GAMES // 2) for a, b in pairs]
        results = [job.result() for job in jobs]
        if policies[1] == "classic-matchup":
            _cards_played_in_matchups(fmt, pairs, results)
        wins = sum(r[0] for r in results)
        total = sum(r[0] + r[1] + r[2] for r in results)
        draws = sum(r[2] for r in results)
        low, high = stats.wilson_interval(wins, total)
        name = f"{fmt}: {policies[0]} against {policies[1]}"
        emit(f"{name}: win rate", wins / total, "share",
             MATCHUP_WIN_TARGET if policies[1] == "classic-matchup" else None, digits=3)
        emit(f"{name}: 95% interval low", low, "share", 0.5 if policies[1] == "classic-matchup" else None, digits=3)
        emit(f"{name}: 95% interval high", high, "share", digits=3)
        emit(f"{name}: draws", draws, "games", better="lower")
        emit(f"{name}: share of drawn games", draws / total, "share",
             TACTICAL_DRAW_TARGET if fmt == "tactical" else None, "lower", digits=3)
        emit(f"{name}: games", total, "games")
        if policies[1] == "classic-matchup":
            seconds = sum(r[3] for r in results)
            emit(f"{fmt}: matchup games/s (one core, both seats searching against classic-matchup)",
                 total / seconds, "games/s", MATCHUP_SPEED_TARGET)


def _cards_played_in_matchups(fmt: str, pairs: list[tuple[str, str]], results: list[tuple]) -> None:
    """Per starter, the distinct non-gateway cards it played with `matchup` against every other starter."""
    played: dict[str, set[str]] = {}
    for (a, _), result in zip(pairs, results, strict=True):
        played.setdefault(a, set()).update(result[4])
    for craft, names in played.items():
        deck = {c.name for c in starter_decks(fmt)[craft] if c.type != "gateway"}
        emit(f"{fmt} {craft} matchup: distinct cards played (of {len(deck)})", len(names & deck), "cards")
        for name in sorted(deck - names):
            print(f"# {fmt} {craft} matchup: never played: {name}", flush=True)


def matchup_speed_per_deck(fmt: str) -> None:
    """Self-play speed per starter, `matchup` and `classic-matchup` timed in turns on the same games (each
    opponent's games with one policy, then the other), so that a change of the machine's load falls on both."""
    crafts = list(starter_decks())
    for craft in crafts:
        seconds = {"matchup": 0.0, "classic-matchup": 0.0}
        played = 0
        for other in (c for c in crafts if c != craft):
            for policy in seconds:
                seconds[policy] += matchup_games(craft, other, fmt, (policy, policy), SPEED_GAMES)[3]
            played += SPEED_GAMES
        for policy, spent in seconds.items():
            emit(f"{fmt} {craft}: {policy} self-play games/s (one core)", played / spent, "games/s",
                 MATCHUP_SPEED_TARGET if policy == "matchup" else None)
        emit(f"{fmt} {craft}: matchup self-play speed over classic-matchup's", seconds["classic-matchup"]
             / seconds["matchup"], "ratio")


def main() -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        for fmt in MATCHUP_FORMATS:
            if fmt in FORMATS:
                goldfish_figures(pool, fmt)
            matchup_figures(pool, fmt)
    for fmt in MATCHUP_FORMATS:
        matchup_speed_per_deck(fmt)


if __name__ == "__main__":
    main()
