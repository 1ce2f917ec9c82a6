"""No policy decides on a card its seat cannot see, and no view leads back to the game.

At decisions of real games, each policy with the same random draws is asked twice: on the true state, and on a
state where every card the seat cannot see (the opponent's unseen hand, both decks' order, the random source)
has been shuffled among the hidden places. A fair policy decides the same. A view is sealed (its world is a guess
made from what the seat sees, without the seed, deck lists or history): even a policy that reads the world
behind its view decides the same, and nothing reachable from a view is the game's State or one of its parts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from playtest.dreadgate import new_game
from playtest.dreadgate.actions import A_DRAW, A_END
from playtest.dreadgate.state import (
    DEFENSE_PHASE,
    MAIN_PHASE,
    MULLIGAN_PHASE,
    RESPONSE_PHASE,
    TARGET_PHASE,
    State,
)
from playtest.dreadgate.view import SealedWorld, SeatView
from playtest.dreadgate.zones import Unit
from playtest.policies import POLICIES
from playtest.policies.lookahead import matchup
from playtest.policies.strong import Strong
from playtest.simulation.catalog import starter_decks
from tests.playtest.dreadgate.test_view import hide_differently

pytestmark = pytest.mark.config_independent

PAIRS = [("sorcery", "champion"), ("artifice", "divine"), ("engineering", "hinter")]
# Every kind of decision a policy is asked for: keep or mulligan, the main phase, an answer in a response window,
# a defence, a target.
DECISION_KINDS = {MULLIGAN_PHASE, MAIN_PHASE, RESPONSE_PHASE, DEFENSE_PHASE, TARGET_PHASE}
# The card tables every game of the same decks shares (read-only): not parts of one game.
SHARED_TABLES = {"defs", "by_code", "inst", "owner_of", "gateway", "answers", "deck_of_seat"}
SHARED_CONSTANTS = {"_j"}  # the engine's one "no action being applied" marker


def peeking(view: SeatView, rng: random.Random):
    """A cheat: draws only when the top of its own deck is a unit (it reads the world behind the view)."""
    legal = view.legal_actions()
    state = view._s
    deck = state.deck[view.seat]
    if A_DRAW in legal and deck and state.inst[deck[-1]].kind == "unit":
        return A_DRAW
    return A_END if A_END in legal else legal[0]


def decisions_that_change(policy, play: tuple[str, str], games: int, every: int = 1) -> tuple[int, int, set[int]]:
    """(decision points checked, decisions that changed when the hidden cards were shuffled, the phases checked);
    every `every`-th decision is checked, and all of those outside the main phase (they are rarer)."""
    decks = starter_decks()
    points = changed = step = 0
    phases: set[int] = set()
    for g in range(games):
        a, b = PAIRS[g % len(PAIRS)]
        state = new_game([decks[a], decks[b]], 100 + g, "standard")
        play_rng = random.Random(g)
        while state.winner < 0 and state.turn < 40:
            seat = state.current_player
            step += 1
            if state.phase != MAIN_PHASE or step % every == 0:
                twin = hide_differently(state, seat, random.Random(points))
                mine = policy(SeatView(state, seat), random.Random(points))
                theirs = policy(SeatView(twin, seat), random.Random(points))
                points += 1
                changed += mine != theirs
                phases.add(state.phase)
            state.apply(POLICIES[play[seat]](SeatView(state, seat), play_rng))
    return points, changed, phases


@pytest.mark.parametrize("name", ["goldfish", "matchup"])
def test_the_policies_decide_the_same_whatever_the_hidden_cards(name):
    # The games are played by `matchup` on both seats, whose attacks bring the defence steps to decide.
    points, changed, phases = decisions_that_change(POLICIES[name], ("matchup", "matchup"), games=6, every=3)
    assert points >= 250
    assert DECISION_KINDS <= phases
    assert changed == 0


def test_the_strong_level_decides_the_same_whatever_the_hidden_cards():
    # At a small budget: every play-out runs on a world drawn from the view, and the seat's decisions are the search's.
    small = Strong("strong", matchup, budget=6)
    points, changed, phases = decisions_that_change(small, ("matchup", "matchup"), games=3, every=6)
    assert points >= 60
    assert MAIN_PHASE in phases
    assert changed == 0


@pytest.mark.parametrize("name", ["classic-goldfish", "classic-matchup", "random", "passive"])
def test_the_other_policies_decide_the_same_whatever_the_hidden_cards(name):
    points, changed, phases = decisions_that_change(POLICIES[name], ("matchup", "matchup"), games=6, every=4)
    assert points >= 80
    assert DECISION_KINDS <= phases
    assert changed == 0


def test_a_policy_that_reads_the_world_behind_its_view_learns_nothing():
    # Before views were sealed this cheat drew on the true top of its deck and was caught here.
    points, changed, _ = decisions_that_change(peeking, ("matchup", "matchup"), games=2, every=2)
    assert points >= 80 and changed == 0


def _midgame() -> State:
    decks = starter_decks()
    state = new_game([decks["champion"], decks["sorcery"]], 7, "standard")
    rng = random.Random(7)
    while state.turn < 9 and state.winner < 0:
        state.apply(POLICIES["matchup"](SeatView(state, state.current_player), rng))
    assert state.units and state.hand[1] and state.history
    return state


def _reachable(root: object) -> list[Any]:
    """Every object reachable from `root` through attributes, slots and the items of containers (classes,
    functions and modules are not followed: they are code, not data of this game)."""
    seen: dict[int, Any] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (int, float, str, bytes, bool, type(None), type)) or callable(obj):
            continue
        seen[id(obj)] = obj
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        else:
            todo.extend(getattr(obj, "__dict__", {}).values())
            for cls in type(obj).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(obj, name):
                        todo.append(getattr(obj, name))
    return list(seen.values())


def test_nothing_reachable_from_a_view_is_part_of_the_game():
    state = _midgame()
    game_parts = {id(state)} | {id(u) for u in state.units.values()}
    shared = SHARED_TABLES | SHARED_CONSTANTS
    game_parts |= {id(v) for k, v in vars(state).items() if k not in shared and not isinstance(v, (int, str))}
    for seat in (0, 1):
        view = SeatView(state, seat)
        reachable = _reachable(view)
        assert any(isinstance(obj, Unit) for obj in reachable)  # the walk does reach the view's world
        assert not [obj for obj in reachable if id(obj) in game_parts]
        for world in (view._s, view.determinize(random.Random(1))):
            assert isinstance(world, SealedWorld)
            assert (world.seed, world.deck_lists, world.history) == (0, ((), ()), [])
            with pytest.raises(TypeError, match="sealed world"):
                world.replay(state.history)


def test_changing_what_a_view_shows_does_not_change_the_game():
    state = _midgame()
    before = state.snapshot() if hasattr(state, "snapshot") else None
    units, board = {iid: (u.cell, u.vit) for iid, u in state.units.items()}, list(state.board)
    view = SeatView(state, state.current_player)
    for u in view.units.values():
        u.vit = 0
    view.board[:] = [-1] * len(view.board)
    view.units.clear()
    assert {iid: (u.cell, u.vit) for iid, u in state.units.items()} == units
    assert state.board == board
    assert before is None or state.snapshot() == before


def test_a_view_shows_the_position_it_was_made_at():
    state = _midgame()
    seat = state.current_player
    view = SeatView(state, seat)
    legal, hand = view.legal_actions(), view.hand
    while state.current_player == seat and state.winner < 0:
        state.apply(state.legal_actions()[-1])
    assert SeatView(state, seat).legal_actions() != legal
    assert (view.legal_actions(), view.hand) == (legal, hand)
