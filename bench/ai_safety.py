"""Safety first, on held-out positions: a win this turn taken, and a win of the opponent's next turn prevented.

Run from the repository root: .venv/bin/python bench/ai_safety.py [games, default 60]

The positions come from real games (starter pairs, seeds from 50,000 on: none is used by the tests), `matchup`
against `classic-matchup`, at each main-phase decision of either seat. With the true state, a position is
- "win now" when one action of the seat (with what it sets in motion) wins the game;
- "stop a win" when, were the seat to end its turn, one action of the opponent's next turn would win, and one
  action of this turn makes that impossible.
Each figure is the share of such positions where the policy's choice (through its sealed view) wins, or leaves
the opponent no one-action win after it (a choice that starts a longer prevention counts as a miss).
"""

from __future__ import annotations

import os
import platform
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _common  # noqa: E402

from playtest.dreadgate import new_game  # noqa: E402
from playtest.dreadgate.state import MAIN_PHASE  # noqa: E402
from playtest.dreadgate.view import SeatView  # noqa: E402
from playtest.policies import POLICIES  # noqa: E402
from playtest.policies.lookahead import matchup, safety_question  # noqa: E402
from playtest.simulation.catalog import starter_decks  # noqa: E402

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 60
ENV = {"python": platform.python_version(), "games": GAMES}


def main() -> None:
    decks = starter_decks()
    names = sorted(decks)
    found = {"win": [0, 0], "stop": [0, 0]}  # kind -> [positions, handled]
    for g in range(GAMES):
        a, b = names[g % len(names)], names[(g * 5 + 1) % len(names)]
        seed = 50_000 + g
        state = new_game([decks[a], decks[b]], seed, "standard")
        rngs = [random.Random(seed), random.Random(seed + 1)]
        players = ["matchup", "classic-matchup"] if g % 2 else ["classic-matchup", "matchup"]
        while state.winner < 0:
            me = state.current_player
            if state.phase == MAIN_PHASE:
                kind = safety_question(state.copy(), me)
                if kind:
                    choice = matchup(SeatView(state, me), random.Random(g))
                    world = state.copy()
                    ok = matchup.outcome(world, choice, me) == me if kind == "win" else not matchup.threatened(
                        world, me, choice)
                    found[kind][0] += 1
                    found[kind][1] += ok
            state.apply(POLICIES[players[me]](SeatView(state, me), rngs[me]))
    for kind, label in (("win", "win now taken"), ("stop", "win next turn stopped")):
        positions, handled = found[kind]
        _common.emit("ai_safety", f"matchup: {label} (share of positions)", handled / positions if positions else 0,
                     "share", 1.0, "higher", ENV)
        _common.emit("ai_safety", f"matchup: {label} (positions)", positions, "positions", None, "higher", ENV, 0)


if __name__ == "__main__":
    main()
