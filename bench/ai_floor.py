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
The policies of a figure are timed in turns (goldfish games 20 at a time, self-play games an opponent at a time, as
bench/ai.py plays and times them), so that a change of the machine's load falls on all.
The policies without search play other games (they choose otherwise), so their games/s is per game as played.
"""

from __future__ import annotations

import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _common  # noqa: E402
import ai  # noqa: E402  (its games, timed as it times them; the arguments it reads at import are numbers here too)

from playtest.policies import POLICIES  # noqa: E402
from playtest.policies.lookahead import GOLDFISH_WEIGHTS, MATCHUP_WEIGHTS, Lookahead, goldfish, matchup  # noqa: E402
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


def goldfish_speeds(fmt: str, craft: str, policies: list[str]) -> dict[str, float]:
    seconds = dict.fromkeys(policies, 0.0)
    for first in range(0, GOLDFISH_GAMES, CHUNK):
        for policy in policies:
            seconds[policy] += ai.goldfish_games(craft, fmt, policy, first, min(CHUNK, GOLDFISH_GAMES - first))[1]
    return {policy: GOLDFISH_GAMES / spent for policy, spent in seconds.items()}


def self_play_speeds(fmt: str, craft: str, policies: list[str]) -> dict[str, float]:
    seconds = dict.fromkeys(policies, 0.0)
    others = [c for c in starter_decks(fmt) if c != craft]
    for other in others:
        for policy in policies:
            seconds[policy] += ai.matchup_games(craft, other, fmt, (policy, policy), SELF_PLAY_GAMES)[3]
    return {policy: len(others) * SELF_PLAY_GAMES / spent for policy, spent in seconds.items()}


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
