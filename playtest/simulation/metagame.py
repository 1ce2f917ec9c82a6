"""The metagame table: every unordered pair of a set of decks, seat-rotated (pure Python, no Django).

A run of P pairs and N games a pair (N even) has P x N games, numbered round by round: game g is round
g // (2P) of pair (g % 2P) // 2, and seat (g % 2): the two games of a round share one seed, with the pair's
decks dealt in both orders, so each deck of the pair moves first in one of them (the seed picks which deck moves
first, DG-4.3). A game's randomness comes from (run seed, the pair, the round) only, so the table does not
depend on the chunking; any prefix of the games covers every pair evenly. `play_chunk` returns counters per
pair that `merge` adds up in any grouping.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from core.interrupt import checkpoint
from playtest.dreadgate import CardDef, new_game, to_record
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES

from .games import deck_cards, sample_frames

SAMPLE_ROUNDS = 1  # the games of round 0 (both seats of every pair) keep their record for the replay viewer


def pairs(decks: int) -> list[tuple[int, int]]:
    """The unordered pairs of deck indices, in a fixed order: (0, 1), (0, 2), ..., (decks - 2, decks - 1)."""
    return list(combinations(range(decks), 2))


def pair_key(i: int, j: int) -> str:
    return f"{i}-{j}"


def game_slot(game: int, pair_count: int) -> tuple[int, int, int]:
    """Game number -> (pair index, round, swap): swap 1 deals the pair's decks the other way round."""
    round_, within = divmod(game, 2 * pair_count)
    pair, swap = divmod(within, 2)
    return pair, round_, swap


def round_seed(run_seed: int, i: int, j: int, round_: int) -> int:
    """The seed both games of a pair's round share."""
    return random.Random(f"{run_seed}:{i}:{j}:{round_}").getrandbits(63)


def play_game(decks: list[list[CardDef]], fmt: str, seed: int, policy: str) -> Any:
    """One game, `policy` on both seats; the finished state. The same moves as games.play_game with that policy
    on both sides (each seat's rng is seeded the same way), without the report's bookkeeping."""
    state = new_game(decks, seed, fmt)
    play = POLICIES[policy]
    rngs = [random.Random(seed * 2 + s) for s in (0, 1)]
    while state.winner < 0:
        seat = state.current_player
        state.apply(play(SeatView(state, seat), rngs[seat]))
    return state


def empty_cell() -> dict[str, Any]:
    """One pair's counters, each a [deck i, deck j] list where it has two sides."""
    return {"games": 0, "wins": [0, 0], "draws": 0, "first": [0, 0], "first_wins": [0, 0], "turns": 0,
            "conditions": {}}


def play_chunk(params: dict[str, Any], seed: int, first_game: int, games: int) -> dict[str, Any]:
    decks = [deck_cards(d) for d in params["decks"]]
    fmt, policy = params["format"], params["policy"]
    pair_list = pairs(len(decks))
    cells: dict[str, dict[str, Any]] = {}
    samples = []
    for g in range(first_game, first_game + games):
        checkpoint()
        p, round_, swap = game_slot(g, len(pair_list))
        i, j = pair_list[p]
        order = (i, j) if not swap else (j, i)  # order[k] is the deck list k given to the engine
        game_seed = round_seed(seed, i, j, round_)
        state = play_game([decks[order[0]], decks[order[1]]], fmt, game_seed, policy)
        cell = cells.setdefault(pair_key(i, j), empty_cell())
        first = order[state.deck_of_seat[0]]  # seat 0 moves first (DG-4.3)
        side_first = 0 if first == i else 1
        cell["games"] += 1
        cell["turns"] += state.turn
        cell["first"][side_first] += 1
        winner = order[state.deck_of_seat[state.winner]] if state.winner in (0, 1) else -1
        if winner < 0:
            cell["draws"] += 1
        else:
            side = 0 if winner == i else 1
            cell["wins"][side] += 1
            if side == side_first:
                cell["first_wins"][side] += 1
            cell["conditions"][state.condition] = cell["conditions"].get(state.condition, 0) + 1
        if round_ < SAMPLE_ROUNDS:
            samples.append({"game": g, "seed": game_seed,
                            "decks": list(order), "seat_deck": list(state.deck_of_seat), "first": first,
                            "winner": winner, "condition": state.condition, "turns": state.turn,
                            "record": to_record(state), "frames": sample_frames(state)})
    return {"games": games, "cells": cells, "samples": samples}


def merge(partials: list[dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
    cells: dict[str, dict[str, Any]] = {}
    samples: list[dict[str, Any]] = []
    games = 0
    for part in partials:
        games += part["games"]
        samples += part["samples"]
        for key, cell in part["cells"].items():
            total = cells.setdefault(key, empty_cell())
            for name in ("games", "draws", "turns"):
                total[name] += cell[name]
            for name in ("wins", "first", "first_wins"):
                total[name] = [total[name][k] + cell[name][k] for k in (0, 1)]
            for condition, n in cell["conditions"].items():
                total["conditions"][condition] = total["conditions"].get(condition, 0) + n
    for cell in cells.values():
        cell["conditions"] = dict(sorted(cell["conditions"].items()))
    return {"games": games, "cells": dict(sorted(cells.items())), "samples": sorted(samples, key=lambda s: s["game"])}
