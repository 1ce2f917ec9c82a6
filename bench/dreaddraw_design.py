"""Checks the Dread Draw card set's design by simulation.

- Heuristic bots, 2, 4 and 6 players: summons per round, rounds per game, and how often the randomly
  chosen first player wins.
- Per card (item of the set's balance): 4-player games of the probability bots (all four seats play the same
  bot, so every seat is every bot). A player *holds* a card when it goes to their Reserves at some point of the
  game. For each card, the win rate of the players who held it, less the win rate of the players who held the
  other cards of the same strength, with a 95 % interval of that difference (normal approximation of two
  proportions). Target: no card's excess above 0.03 at the lower end of its interval.
- Information abilities: a probability bot that skips the abilities that look at and sift cards, against one
  that uses them (2 players, seats rotated): below one half if the abilities are worth using.

Run from the repository root: .venv/bin/python bench/dreaddraw_design.py [games per table size] [per-card games]
[card set version] (defaults 2000, 20000, the current set).
"""

from __future__ import annotations

import math
import sys
from collections import Counter

from _dreaddraw_common import figure

from core.stats import Z95, wilson_interval
from dreaddraw.engine.bots import ProbabilityBot, play_game
from dreaddraw.engine.cardset import OPS, load_cardset
from dreaddraw.engine.decisions import S
from dreaddraw.engine.game import E_TO_RESERVES, P_ABILITY
from dreaddraw.engine.tournament import merge, play_chunk

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
CARD_GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
CARDSET = load_cardset(version=sys.argv[3]) if len(sys.argv) > 3 else load_cardset()
EXCESS_TARGET = 0.03
INFORMATION_OPS = frozenset({"scry", "peek_draw", "peek_life", "sift_draw", "sift_life"})


def card_figures(games: int, seed: int = 900_000) -> list[dict]:
    """Each card's holders' win rate against the other holders of cards of the same strength."""
    cs = CARDSET
    held: Counter[int] = Counter()
    won: Counter[int] = Counter()
    for i in range(games):
        g = play_game([ProbabilityBot() for _ in range(4)], seed + i, cs)
        for p, c in {(e[1], e[2]) for e in g.log if e[0] == E_TO_RESERVES}:
            held[c] += 1
            won[c] += p == g.winner
    rows = []
    for c in cs.numbers:
        others = [x for x in cs.numbers if cs.strength[x] == cs.strength[c] and x != c]
        n, m = held[c], sum(held[x] for x in others)
        rate = won[c] / n if n else 0.0
        mean = sum(won[x] for x in others) / m if m else 0.0
        half = Z95 * math.sqrt(rate * (1 - rate) / max(n, 1) + mean * (1 - mean) / max(m, 1))
        excess = rate - mean
        rows.append({"card": c, "name": cs.name(c), "strength": cs.strength[c], "ability": OPS[cs.op[c]],
                     "held": n, "win_rate": round(rate, 4), "same_strength": round(mean, 4),
                     "excess": round(excess, 4), "ci95": [round(excess - half, 4), round(excess + half, 4)]})
    return rows


class SkipsInformation(ProbabilityBot):
    """The probability bot, but it skips every ability that only looks at or sifts cards."""

    name = "probability-skips-information"

    def choose(self, view):
        prompt = view.prompt()
        if prompt and prompt[0] == P_ABILITY and OPS[view.cs.op[prompt[2]]] in INFORMATION_OPS:
            return S
        return super().choose(view)


def skip_figure(games: int, seed: int = 2027) -> tuple[float, float, float]:
    wins = 0
    for i in range(games):
        skipper = i % 2
        bots = [SkipsInformation() if p == skipper else ProbabilityBot() for p in range(2)]
        wins += play_game(bots, seed * 1_000_003 + i, CARDSET).winner == skipper
    low, high = wilson_interval(wins, games)
    return wins / games, low, high


if GAMES:
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

if CARD_GAMES:
    rows = card_figures(CARD_GAMES)
    worst = max(rows, key=lambda r: r["ci95"][0])
    figure("dreaddraw_design_cards", "largest holder excess, lower end of its 95% interval", worst["ci95"][0],
           "fraction", target=EXCESS_TARGET, better="lower", games=CARD_GAMES, players=4, set=CARDSET.version,
           card=worst, top=sorted(rows, key=lambda r: -r["ci95"][0])[:8],
           over_target=[r["name"] for r in rows if r["ci95"][0] > EXCESS_TARGET])
    rate, low, high = skip_figure(CARD_GAMES)
    figure("dreaddraw_design_information", "win rate of a probability bot that skips the information abilities",
           rate, "fraction", target=0.5, better="lower", ci95=[round(low, 4), round(high, 4)], games=CARD_GAMES,
           players=2, seats="rotated", set=CARDSET.version, abilities=sorted(
               {CARDSET.name(c) for c in CARDSET.numbers if OPS[CARDSET.op[c]] in INFORMATION_OPS}))
