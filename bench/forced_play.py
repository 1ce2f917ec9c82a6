"""Benchmark: every card that helps is played, the forced-play experiment (docs/ai.md, "Cards the AI neglects").

A report's "never chosen" and a tuning run's "cheapest cuts" are only as true as the AI behind them: a card the
policy neglects although playing it would win sooner is the AI's blind spot turned into advice. So, per deck (the
six Standard starters, and three decks of our own: a starter of each of three crafts with another mix of
non-unit cards, one copy of each of its own and the universal ones it lacks, two copies each), goldfish games in
Standard (`goldfish` against `passive`):

1. The policy plays GAMES seeds; for every card, the games in which an action playing it (deploy, play, equip,
   instant) was legal and those in which the policy chose one.
2. Each card chosen in under 5% of the games where it was legal (and legal in MIN_LEGAL of them or more) is
   tested: a variant of the policy that plays it whenever legal (every time, not once: among the actions that play
   it, the one the policy values most) plays the same seeds (common random numbers). Per seed, the policy's own
   turns to win less the variant's (a game not won counts its turns plus 5, as tuning does) is what forcing the
   card saves.
3. One-sided paired z-test per card (does forcing it win sooner?), Holm's correction over every card tested
   (family-wise 5%). The figure: the number of cards whose forced play wins significantly sooner; target 0.

Run from the repository root: .venv/bin/python bench/forced_play.py [games per deck and card, default 2000]
[processes, default 2]; BENCH_FORCED_DECKS (comma-separated) plays some decks only. Not part of `make test` (the
default plays some hundred thousand games: most of an hour on 2 cores, two hours and more with the whole-turn
planning on a machine shared with other work).
"""

from __future__ import annotations

import math
import os
import platform
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from statistics import NormalDist, fmean, stdev

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _common  # noqa: E402

from playtest.dreadgate import CardDef, new_game  # noqa: E402
from playtest.dreadgate.state import MAIN_PHASE  # noqa: E402
from playtest.dreadgate.view import SeatView  # noqa: E402
from playtest.policies import POLICIES  # noqa: E402
from playtest.policies.lookahead import goldfish  # noqa: E402
from playtest.simulation.card_usage import PLAY_KINDS  # noqa: E402
from playtest.simulation.catalog import catalog_cards, starter_decks  # noqa: E402
from playtest.simulation.games import game_seed  # noqa: E402
from playtest.simulation.tuning_race import NOT_WON_PENALTY  # noqa: E402

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
PROCESSES = int(sys.argv[2]) if len(sys.argv) > 2 else 2
FORMAT = "standard"
SEED = 20261202
CHOSEN_BELOW = 0.05  # a card chosen in fewer of the games where it was legal is tested
MIN_LEGAL = 20  # games where it was legal, for its share to mean something
ALPHA = 0.05
CHUNK = 100
OWN_DECK_CRAFTS = ("sorcery", "artifice", "divine")
# Some decks only (comma-separated names as printed, "hinter starter", "sorcery (own)"): runs of parts of the
# decks can share the cores of several machines; Holm's correction is then over each run's cards alone.
ONLY_DECKS = [name.strip() for name in os.environ.get("BENCH_FORCED_DECKS", "").split(",") if name.strip()]
ENV = {"python": platform.python_version(), "cpus": os.cpu_count(), "format": FORMAT, "games": GAMES,
       "policy": "goldfish", "seed": SEED}


def own_deck(craft: str) -> list[CardDef]:
    """A starter of the craft with another mix of non-unit cards (its units, legends and gateway pair kept): one
    copy of each of its own non-unit cards, then the universal talents, items and glyphs it lacks, two copies
    each, in collector-number order, as many copies in all as it had (a starter already holds every non-unit card
    of its craft)."""
    deck = starter_decks(FORMAT)[craft]
    board = ("unit", "legend", "gateway")
    kept = [c for c in deck if c.type in board]
    own = list({c.collector_number: c for c in deck if c.type not in board}.values())
    held = {c.collector_number for c in deck}
    universal = sorted((c for c in catalog_cards().values() if c.craft == "universal" and c.type not in board
                        and c.collector_number not in held and not c.is_unique), key=lambda c: c.collector_number)
    return kept + (own + [c for c in universal for _ in range(2)])[: len(deck) - len(kept)]


def decks() -> dict[str, list[CardDef]]:
    out = {f"{craft} starter": deck for craft, deck in sorted(starter_decks(FORMAT).items())}
    out.update({f"{craft} (own)": own_deck(craft) for craft in OWN_DECK_CRAFTS})
    return {name: deck for name, deck in out.items() if not ONLY_DECKS or name in ONLY_DECKS}


class Forced:
    """The policy, except that whenever an action playing `card` is legal, it plays the card (the one of those
    actions it values most after what it sets in motion)."""

    def __init__(self, card: str) -> None:
        self.card = card

    def __call__(self, view: SeatView, rng: random.Random):
        playing = [a for a in view.legal_actions() if a[0] in PLAY_KINDS and view.defs[a[1]].card.name == self.card]
        if not playing:
            return goldfish(view, rng)
        if len(playing) == 1:
            return playing[0]
        world = view.determinize(rng)
        return max(playing, key=lambda a: goldfish.value_after(world, a, view.seat, view.phase == MAIN_PHASE))


def play(deck: list[CardDef], seed: int, policy) -> tuple[float, set[str], set[str]]:
    """One goldfish game: own turns to win (plus the penalty if not won), the cards legal and the cards chosen."""
    state = new_game([deck, deck], seed, FORMAT)
    me = state.deck_of_seat.index(0)
    policies = {me: policy, 1 - me: POLICIES["passive"]}
    rngs = [random.Random(seed * 2 + s) for s in (0, 1)]
    legal: set[str] = set()
    chosen: set[str] = set()
    while state.winner < 0:
        seat = state.current_player
        view = SeatView(state, seat)
        if seat == me:
            legal.update(view.defs[a[1]].card.name for a in view.legal_actions() if a[0] in PLAY_KINDS)
        action = policies[seat](view, rngs[seat])
        if seat == me and action[0] in PLAY_KINDS:
            chosen.add(view.defs[action[1]].card.name)
        state.apply(action)
    own_turns = (state.turn + (1 if me == 0 else 0)) // 2
    return float(own_turns if state.winner == me else own_turns + NOT_WON_PENALTY), legal, chosen


def chunk(args: tuple[str, str | None, int, int]) -> tuple[list[float], Counter, Counter]:
    name, card, first, count = args
    deck = decks()[name]
    policy = goldfish if card is None else Forced(card)
    turns, legal, chosen = [], Counter(), Counter()
    for i in range(first, first + count):
        value, was_legal, was_chosen = play(deck, game_seed(SEED, i), policy)
        turns.append(value)
        legal.update(was_legal)
        chosen.update(was_chosen)
    return turns, legal, chosen


def run(pool: ProcessPoolExecutor, name: str, card: str | None) -> tuple[list[float], Counter, Counter]:
    parts = list(pool.map(chunk, [(name, card, f, min(CHUNK, GAMES - f)) for f in range(0, GAMES, CHUNK)]))
    return [t for p in parts for t in p[0]], sum((p[1] for p in parts), Counter()), sum((p[2] for p in parts),
                                                                                       Counter())


def holm(p_values: list[float], alpha: float = ALPHA) -> list[bool]:
    """Holm's step-down: which of the hypotheses are rejected, family-wise error at most alpha."""
    order = sorted(range(len(p_values)), key=lambda k: p_values[k])
    rejected = [False] * len(p_values)
    for rank, k in enumerate(order):
        if p_values[k] > alpha / (len(p_values) - rank):
            break
        rejected[k] = True
    return rejected


def main() -> None:
    tested = []
    with ProcessPoolExecutor(PROCESSES) as pool:
        for name in decks():
            base, legal, chosen = run(pool, name, None)
            neglected = sorted(c for c, n in legal.items() if n >= MIN_LEGAL and chosen[c] / n < CHOSEN_BELOW)
            print(f"# {name}: {fmean(base):.2f} own turns; {len(legal)} cards legal, neglected: {neglected}",
                  flush=True)
            for card in neglected:
                forced, _, _ = run(pool, name, card)
                saved = [b - f for b, f in zip(base, forced, strict=True)]
                mean = fmean(saved)
                sd = stdev(saved) if len(saved) > 1 else 0.0
                z = mean / (sd / math.sqrt(len(saved))) if sd > 0 else (math.inf if mean > 0 else 0.0)
                p = 1 - NormalDist().cdf(z) if math.isfinite(z) else 0.0
                half = 1.96 * sd / math.sqrt(len(saved))
                tested.append({"deck": name, "card": card, "legal": legal[card], "chosen": chosen[card],
                               "saved": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
                               "p": p})
                print(f"#   forced {card}: legal in {legal[card]}, chosen in {chosen[card]}; saves {mean:+.3f} "
                      f"turns [{mean - half:+.3f}, {mean + half:+.3f}], p {p:.4f}", flush=True)
    rejected = holm([row["p"] for row in tested])
    faster = [row for row, r in zip(tested, rejected, strict=True) if r]
    _common.emit("forced_play", "cards_whose_forced_play_wins_significantly_sooner", len(faster), "cards", 0,
                 "lower", {**ENV, "tested": len(tested), "decks": list(decks()),
                           "significant": [{k: row[k] for k in ("deck", "card", "saved", "ci95")} for row in faster],
                           "largest_saving": max(tested, key=lambda r: r["saved"], default=None)})


if __name__ == "__main__":
    main()
