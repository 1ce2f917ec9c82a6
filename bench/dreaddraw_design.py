"""Checks the Dread Draw card set's design by simulation.

- Heuristic bots, 2, 4 and 6 players: summons per round, rounds per game, and how often the randomly
  chosen first player wins.
- Per card (item of the set's balance), in four-player and in two-player games of the probability bots (every
  seat plays the same bot, so every seat is every bot). A player *holds* a card when it goes to their Reserves at
  some point of the game. For each card, the win rate of the players who held it, less the win rate of the players
  who held the other cards of the same strength, with a 95 % interval of that difference (normal approximation of
  two proportions). Target: every card's whole interval within 3 points of its strength's other cards
  (-0.03 to +0.03), in both table sizes; each card's figure is printed with its pass or fail.
- One ablation per optional ability (arrange_draw, recruit, scavenge, sift_draw, and the Life Deck card of the set:
  sift_life in dd-1.1, sift_any_life in dd-1.2, cull_life from dd-1.3): a probability bot that skips that one
  ability against one that uses it (2 players, seats rotated). The skipper's win rate below one half, with its
  interval excluding one half, means the ability is worth using.

Run from the repository root: .venv/bin/python bench/dreaddraw_design.py [--games N] [--cards4 N] [--cards2 N]
[--ablation N] [--set VERSION] (defaults 2000 heuristic games per table size, 250000 four-player and 200000
two-player per-card games, 20000 games per ablation, the current set; 0 skips a part). The defaults take about
13 minutes of CPU time on one core; at them a card's interval is at most about 0.008 wide on each side in
four-player games and 0.011 in two-player ones, so a card whose excess is within about 2 points of zero passes.
"""

from __future__ import annotations

import argparse
import math

from _dreaddraw_common import figure

from core.stats import Z95, wilson_interval
from dreaddraw.engine.bots import ProbabilityBot, play_game
from dreaddraw.engine.cardset import OPS, CardSet, load_cardset
from dreaddraw.engine.decisions import S
from dreaddraw.engine.game import E_TO_RESERVES, P_ABILITY
from dreaddraw.engine.tournament import merge, play_chunk

EXCESS_TARGET = 0.03
# The abilities an outside review found idle under dd-1.1: a bot that never used them did as well as one that did.
# dd-1.2 replaced sift_life (one's own Life Deck) with sift_any_life (any player's, DD-28), and dd-1.3 with
# cull_life (discard one of another player's top Life cards, DD-29); a set is checked on the ones it has.
ABLATED_OPS = ("arrange_draw", "recruit", "scavenge", "sift_draw", "sift_life", "sift_any_life", "cull_life")


def card_figures(cs: CardSet, players: int, games: int, seed: int = 900_000) -> list[dict]:
    """Each card's holders' win rate against the other holders of cards of the same strength."""
    held = [0] * (len(cs) + 1)
    won = [0] * (len(cs) + 1)
    for i in range(games):
        g = play_game([ProbabilityBot() for _ in range(players)], seed + i, cs)
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
        low, high = excess - half, excess + half
        rows.append({"card": c, "name": cs.name(c), "strength": cs.strength[c], "ability": OPS[cs.op[c]],
                     "held": n, "win_rate": round(rate, 4), "same_strength": round(mean, 4),
                     "excess": round(excess, 4), "ci95": [round(low, 4), round(high, 4)],
                     "pass": -EXCESS_TARGET <= low and high <= EXCESS_TARGET})
    return rows


class Skips(ProbabilityBot):
    """The probability bot, but it skips every ability whose effect is one of `ops`."""

    def __init__(self, ops: frozenset[str]) -> None:
        super().__init__()
        self.ops = ops
        self.name = "probability-skips-" + "-".join(sorted(ops))

    def choose(self, view):
        prompt = view.prompt()
        if prompt and prompt[0] == P_ABILITY and OPS[view.cs.op[prompt[2]]] in self.ops:
            return S
        return super().choose(view)


def skip_figure(cs: CardSet, ops: frozenset[str], games: int, seed: int = 2027) -> tuple[float, float, float]:
    """The skipper's win rate against the full bot, two players, seats rotated."""
    wins = 0
    for i in range(games):
        skipper = i % 2
        bots = [Skips(ops) if p == skipper else ProbabilityBot() for p in range(2)]
        wins += play_game(bots, seed * 1_000_003 + i, cs).winner == skipper
    low, high = wilson_interval(wins, games)
    return wins / games, low, high


def design_figures(games: int) -> None:
    for players in (2, 4, 6):
        params = {"lineup": ["heuristic"] * players}
        result = merge([play_chunk(params, seed=players, first_game=0, games=games)], params)
        name = f"dreaddraw_design_{players}p"
        figure(name, "summons per round (mean)", result["mean_round_summons"], "summons", better="none")
        figure(name, "rounds per game (mean)", result["mean_rounds"], "rounds", better="none",
               histogram=result["rounds_histogram"])
        low, high = result["first_player_ci95"]
        figure(name, "first player win rate", result["first_player_win_rate"], "fraction", target=1 / players,
               better="closer", ci95=[round(low, 4), round(high, 4)], games=games)


def card_report(cs: CardSet, players: int, games: int) -> list[dict]:
    rows = card_figures(cs, players, games)
    print(f"# {players} players, {games} games of the probability bots, set {cs.version}: "
          "card, strength, ability, holders, excess [95% interval], target +-0.03")
    for r in rows:
        low, high = r["ci95"]
        print(f"#   {r['card']:3d} {r['name']:<24} {r['strength']:2d} {r['ability'] or '-':<12} {r['held']:6d} "
              f"{r['excess']:+.3f} [{low:+.3f}, {high:+.3f}] {'pass' if r['pass'] else 'FAIL'}", flush=True)
    # The worst card is the one whose interval reaches furthest from zero, on either side.
    worst = max(rows, key=lambda r: max(r["ci95"][1], -r["ci95"][0]))
    reach = max(worst["ci95"][1], -worst["ci95"][0])
    figure(f"dreaddraw_design_cards_{players}p", "largest holder excess, far end of its 95% interval from zero",
           reach, "fraction", target=EXCESS_TARGET, better="lower", games=games, players=players, set=cs.version,
           card=worst, top=sorted(rows, key=lambda r: -max(r["ci95"][1], -r["ci95"][0]))[:8],
           failing=[r["name"] for r in rows if not r["pass"]], cards=len(rows),
           passing=sum(r["pass"] for r in rows))
    return rows


def ablation_report(cs: CardSet, games: int) -> None:
    for op in ABLATED_OPS:
        if not any(OPS[cs.op[c]] == op for c in cs.numbers):
            continue
        rate, low, high = skip_figure(cs, frozenset({op}), games)
        figure(f"dreaddraw_design_skip_{op}", f"win rate of a probability bot that skips {op}", rate, "fraction",
               target=0.5, better="lower", ci95=[round(low, 4), round(high, 4)], games=games, players=2,
               seats="rotated", set=cs.version, worth_using=high < 0.5,
               cards=sorted(cs.name(c) for c in cs.numbers if OPS[cs.op[c]] == op))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="heuristic games per table size")
    parser.add_argument("--cards4", type=int, default=250_000, help="four-player per-card games")
    parser.add_argument("--cards2", type=int, default=200_000, help="two-player per-card games")
    parser.add_argument("--ablation", type=int, default=20_000, help="two-player games per ability ablation")
    parser.add_argument("--set", default=None, help="card set version (default: the current one)")
    args = parser.parse_args()
    cs = load_cardset(version=args.set)
    if args.games:
        design_figures(args.games)
    if args.cards4:
        card_report(cs, 4, args.cards4)
    if args.cards2:
        card_report(cs, 2, args.cards2)
    if args.ablation:
        ablation_report(cs, args.ablation)


if __name__ == "__main__":
    main()
