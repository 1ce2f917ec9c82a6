"""Safety first (docs/ai.md): a win this turn is taken, and a win the opponent would have with one action of its
next turn is prevented when one action of this turn can prevent it. Positions from real games, classified on a
world the seat may know (its view's determinization: what the opponent's answers from its hidden hand would be
is a guess); bench/ai_safety.py measures the same against the true state."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate import new_game
from playtest.dreadgate.actions import INSTANT, PASS
from playtest.dreadgate.state import MAIN_PHASE, RESPONSE_PHASE
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES
from playtest.policies.lookahead import goldfish, matchup, safety_question
from playtest.simulation.catalog import starter_decks
from tests.playtest.dreadgate.factories import ability, game, give, play, put, talent, unit

pytestmark = pytest.mark.config_independent


def test_matchup_takes_a_win_now_and_stops_a_win_next_turn():
    decks = starter_decks()
    names = sorted(decks)
    seen = {"win": 0, "stop": 0}
    missed = []
    for g in range(10):
        seed = 70_000 + g
        state = new_game([decks[names[g % len(names)]], decks[names[(g * 5 + 1) % len(names)]]], seed, "standard")
        rng = random.Random(seed)
        while state.winner < 0:
            me = state.current_player
            world = SeatView(state, me).determinize(random.Random(0)) if state.phase == MAIN_PHASE else None
            kind = safety_question(world, me) if world is not None else ""
            if kind:
                seen[kind] += 1
                choice = matchup(SeatView(state, me), random.Random(g))
                won = matchup.outcome(world, choice, me) == me
                if not (won if kind == "win" else not matchup.threatened(world, me, choice)):
                    missed.append((seed, len(state.history), kind, choice))
            state.apply(POLICIES["classic-matchup"](SeatView(state, me), rng))
    assert seen["win"] >= 3 and seen["stop"] >= 2
    assert missed == []


def test_the_opponents_instant_in_a_window_is_counted_in_the_value_of_an_action():
    """Combat values count the instants the opponent could play with its open talent points (DG-15.3, DG-15.5):
    after South's action opens a window, North's answer inside the play-out is the instant that hurts South most,
    not a pass; a passive (goldfish) evaluation still assumes no answer."""
    pawn = unit("U-PW", 1, 1, 1, 1, 1)
    zap = talent("T-ZP", ability("instant", {"op": "damage", "amount": 1,
                                             "target": {"select": "chosen", "side": "enemy"}}, cost=1),
                 cost=1, instant=True)  # fmt: skip
    rune = talent("G-RU", ability("play", {"op": "draw", "player": "self", "amount": 1}), type="glyph", subtype="")
    state = game(pawn, zap, rune)
    put(state, 0, "U-PW", "b2")
    give(state, 1, "T-ZP")
    give(state, 0, "G-RU")
    state.tp[1] = 1
    play(state, "play G-RU")
    assert state.phase == RESPONSE_PHASE and state.current_player == 1
    legal = state.legal_actions()
    assert any(a[0] == INSTANT for a in legal)
    assert matchup.their_choice(state, legal)[0] == INSTANT  # the zap kills South's only unit
    assert goldfish.their_choice(state, legal)[0] == PASS
