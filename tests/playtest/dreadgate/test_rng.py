"""The engine's random source: its shuffle draws exactly as below() draws, one swap at a time."""

from __future__ import annotations

import random

from playtest.dreadgate import rng


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
