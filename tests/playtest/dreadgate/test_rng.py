"""The random sources of the engine: its own shuffle draws exactly as below() draws, and a determinized deck is
ordered exactly as random.Random shuffles it."""

from __future__ import annotations

import random

from playtest.dreadgate import rng
from playtest.dreadgate.zones import shuffle_as_random


def _reference_shuffle(state: int, items: list) -> int:
    for i in range(len(items) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def test_shuffle_is_fisher_yates_over_below():
    seeds = random.Random(11)
    for n in (0, 1, 2, 7, 40, 61):
        for _ in range(50):
            seed = seeds.getrandbits(64)
            items = list(range(n))
            expected = list(items)
            assert rng.shuffle(seed, items) == _reference_shuffle(seed, expected)
            assert items == expected


def test_a_determinized_deck_is_ordered_as_random_random_shuffles():
    seeds = random.Random(12)
    for n in (0, 1, 2, 3, 17, 40, 64, 65):
        for _ in range(30):
            seed = seeds.getrandbits(63)
            items, expected = list(range(n)), list(range(n))
            shuffle_as_random(seed, items)
            random.Random(seed).shuffle(expected)
            assert items == expected
