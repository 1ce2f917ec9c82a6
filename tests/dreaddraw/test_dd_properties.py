"""Property tests over whole games with arbitrary decisions: conservation, replay, hidden information."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dreaddraw.engine.bots import ProbabilityBot
from dreaddraw.engine.cardset import OP_LOOKOUT
from dreaddraw.engine.game import P_ARRANGE, P_CULL, P_KEEP, P_SCRY, P_SIFT_DRAW, P_SIFT_LIFE, Game
from dreaddraw.engine.observation import PlayerView, observe, visible_log
from dreaddraw.engine.serialize import game_from_dict, game_to_dict, replay
from tests.dreaddraw.factories import CS, check_conservation

games = st.tuples(st.integers(2, 6), st.integers(0, 2**32), st.lists(st.integers(0, 1000), min_size=1, max_size=400))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(players: int, seed: int, picks: list[int], each=None) -> Game:
    g = Game(players, seed, CS)
    for pick in picks:
        if g.over:
            break
        legal = g.legal()
        g.play(legal[pick % len(legal)])
        if each:
            each(g)
    return g


def hidden_from(g: Game, seat: int) -> set[int]:
    """Cards `seat` may not see right now (DD-1.2, DD-16)."""
    hidden = set()
    lookout_top = g.draw[-1] if g.draw and g.has_op(seat, OP_LOOKOUT) else None
    hidden |= {c for c in g.draw if c not in g.known_draw[seat] and c != lookout_top}
    for p in range(g.n):
        if p == seat:
            hidden |= {c for c in g.life[p] if c not in g.known_life[p]}
        else:
            hidden |= set(g.life[p])
    prompt = g.prompt()
    if prompt and prompt[1] != seat:
        if prompt[0] == P_KEEP:
            hidden |= set(g.hand)
        elif prompt[0] in (P_ARRANGE, P_SCRY, P_SIFT_DRAW):
            # The cards another seat is arranging, unless this seat knows them already (it looked too).
            shown = set(prompt[3] if prompt[0] != P_SCRY else (prompt[3],))
            hidden |= {c for c in shown if c not in g.known_draw[seat] and c != lookout_top}
    elif prompt and prompt[0] in (P_SIFT_LIFE, P_CULL) and len(prompt) > 4:
        hidden -= set(prompt[3])  # DD-28, DD-29: the user sees the top of the Life Deck it named, until it answers
    return hidden


def numbers_in(obj) -> set[int]:
    """Every card number mentioned in an observation's table (log lines excluded)."""
    found = set()
    if isinstance(obj, dict):
        if "number" in obj:
            found.add(obj["number"])
        for key, value in obj.items():
            if key != "log":
                found |= numbers_in(value)
    elif isinstance(obj, list):
        for item in obj:
            found |= numbers_in(item)
    return found


@SETTINGS
@given(games)
def test_every_card_is_in_exactly_one_place_at_every_step(game):
    players, seed, picks = game
    play(players, seed, picks, each=check_conservation)


@SETTINGS
@given(games)
def test_replaying_seed_and_decisions_reproduces_the_state(game):
    players, seed, picks = game
    g = play(players, seed, picks)
    again = replay(players, seed, g.notation_history(), CS)
    assert game_to_dict(again) == game_to_dict(g)


@SETTINGS
@given(games)
def test_a_snapshot_round_trips_through_json_and_plays_on_identically(game):
    players, seed, picks = game
    g = play(players, seed, picks[: len(picks) // 2])
    restored = game_from_dict(json.loads(json.dumps(game_to_dict(g))), CS)
    assert game_to_dict(restored) == game_to_dict(g)
    for pick in picks[len(picks) // 2:]:
        if g.over:
            break
        d = g.legal()[pick % len(g.legal())]
        g.play(d)
        restored.play(d)
    assert game_to_dict(restored) == game_to_dict(g)


@SETTINGS
@given(games)
def test_a_hidden_card_never_appears_in_another_players_observation(game):
    players, seed, picks = game

    def check(g: Game) -> None:
        for seat in range(g.n):
            obs = observe(g, seat)
            leaked = numbers_in(obs) & hidden_from(g, seat)
            assert not leaked, f"seat {seat} sees hidden cards {leaked}"
            assert all(e[4] in (-1, seat) for e in visible_log(g, seat))
        assert not numbers_in(observe(g, -1)) & (set(g.draw) | {c for life in g.life for c in life} | set(g.hand))

    play(players, seed, picks, each=check)


def _shuffle_hidden(g: Game, seat: int, rng) -> Game:
    """A copy where the cards `seat` cannot see are dealt differently among the same hidden places."""
    h = g.copy()
    hidden = hidden_from(h, seat)
    places = []
    for zone in [h.draw, *h.life, h.hand]:
        for i, c in enumerate(zone):
            if c in hidden:
                places.append((zone, i))
    cards = [zone[i] for zone, i in places]
    rng.shuffle(cards)
    for (zone, i), c in zip(places, cards, strict=True):
        zone[i] = c
    return h


@settings(max_examples=40, deadline=None)
@given(games, st.randoms(use_true_random=False))
def test_the_probability_bot_decides_from_visible_information_only(game, rng):
    players, seed, picks = game
    g = play(players, seed, picks)
    if g.over:
        return
    seat = g.to_move()
    twin = _shuffle_hidden(g, seat, rng)
    bot = ProbabilityBot()
    assert bot.choose(PlayerView(twin, seat)) == bot.choose(PlayerView(g, seat))
