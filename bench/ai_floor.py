"""What the playtest AI costs before it searches: the floor under item 6's speed targets (docs/ai.md).

Run from the repository root: .venv/bin/python bench/ai_floor.py [goldfish games per starter, default 200]
[self-play games per starter pair, default 4]. One process; speed figures are its CPU time.

`goldfish` and `matchup` each decide in three parts: what every decision pays (the prior's choice, the checks of
safety first, the mulligan's judgement of the hand), then a search over the cards that could replace the prior's
choice. This bench plays, beside the two policies and the classic plans, each policy with its search taken out (a
subclass, in this process only, that keeps only the prior's choice of its candidates): that policy's games/s over
the classic plan's is the most any search on top of the same prior could reach. Prints, as JSON lines, per format
(Standard, Quick) and starter:
- goldfish games/s of `classic-goldfish`, `goldfish` and `goldfish` without its search, and the last two over the
  first;
- self-play games/s (against each other starter) of `classic-matchup`, `matchup` and `matchup` without its search,
  and the last two over the first.
The policies of a figure are timed in turns, chunk by chunk, so that a change of the machine's load falls on all.
The policies without search play other games (they choose otherwise), so their games/s is per game as played.
"""

from __future__ import annotations

import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _common  # noqa: E402

from playtest.policies import POLICIES  # noqa: E402
from playtest.policies.lookahead import GOLDFISH_WEIGHTS, MATCHUP_WEIGHTS, Lookahead, goldfish, matchup  # noqa: E402
from playtest.simulation import games  # noqa: E402
from playtest.simulation.catalog import starter_decks  # noqa: E402

GOLDFISH_GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 200
SELF_PLAY_GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 4
CHUNK = 20
ENV = {"python": platform.python_version(), "cpus": os.cpu_count(), "machine": platform.machine()}


class WithoutSearch(Lookahead):
    """The policy as it decides before its search: its prior's choice, after safety first, with its mulligan."""

    def candidates(self, view, legal, rng):
        return super().candidates(view, legal, rng)[:1]


POLICIES["goldfish without search"] = WithoutSearch(
    "goldfish without search", GOLDFISH_WEIGHTS, goldfish.tried_kinds, goldfish.margin)
POLICIES["matchup without search"] = WithoutSearch(
    "matchup without search", MATCHUP_WEIGHTS, matchup.tried_kinds, matchup.margin)


def emit(figure: str, value: float, unit: str) -> None:
    _common.emit("ai_floor", figure, value, unit, None, "higher", ENV)


def _snapshot(deck) -> dict:
    from dataclasses import asdict

    return {"name": "", "legal": True, "cards": {c.collector_number: asdict(c) for c in deck},
            "list": [c.collector_number for c in deck]}


def goldfish_speeds(fmt: str, craft: str, policies: list[str]) -> dict[str, float]:
    snapshot = _snapshot(starter_decks()[craft])
    seconds = dict.fromkeys(policies, 0.0)
    for first in range(0, GOLDFISH_GAMES, CHUNK):
        count = min(CHUNK, GOLDFISH_GAMES - first)
        for policy in policies:
            params = {"mode": "goldfish", "format": fmt, "policies": [policy, "passive"],
                      "decks": [snapshot, snapshot]}
            start = time.process_time()
            games.play_chunk(params, 2026, first, count)
            seconds[policy] += time.process_time() - start
    return {policy: GOLDFISH_GAMES / spent for policy, spent in seconds.items()}


def self_play_speeds(fmt: str, craft: str, policies: list[str]) -> dict[str, float]:
    decks = starter_decks(fmt)
    seconds = dict.fromkeys(policies, 0.0)
    played = 0
    for other in (c for c in decks if c != craft):
        for n in range(SELF_PLAY_GAMES):
            first, second = (craft, other) if n % 2 == 0 else (other, craft)
            for policy in policies:
                start = time.process_time()
                games.play_game([decks[first], decks[second]], fmt, games.game_seed(7, n // 2), [policy, policy])
                seconds[policy] += time.process_time() - start
        played += SELF_PLAY_GAMES
    return {policy: played / spent for policy, spent in seconds.items()}


def report(fmt: str, craft: str, kind: str, speeds: dict[str, float]) -> None:
    classic, *others = speeds
    for policy, speed in speeds.items():
        emit(f"{fmt} {craft}, {kind}: {policy} games/s (one core)", speed, "games/s")
    for policy in others:
        emit(f"{fmt} {craft}, {kind}: {policy} over {classic}", speeds[policy] / speeds[classic], "ratio")


def main() -> None:
    for fmt in ("standard", "quick"):
        for craft in sorted(starter_decks()):
            report(fmt, craft, "goldfish", goldfish_speeds(
                fmt, craft, ["classic-goldfish", "goldfish", "goldfish without search"]))
            report(fmt, craft, "self-play", self_play_speeds(
                fmt, craft, ["classic-matchup", "matchup", "matchup without search"]))


if __name__ == "__main__":
    main()
