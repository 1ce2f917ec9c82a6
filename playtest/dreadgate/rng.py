"""A tiny seeded random source whose whole state is one integer (so a snapshot stays compact)."""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


def next_state(state: int) -> tuple[int, int]:
    """One splitmix64 step: (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, a number in range(n)). The modulo bias is below 2**-50 for the small n used here."""
    state, out = next_state(state)
    return state, out % n


def shuffle(state: int, items: list[Any]) -> int:
    """Fisher-Yates shuffle in place; returns the new state. Each swap draws below(state, i + 1), its splitmix64
    step written out here: every game's set-up shuffles both decks, a draw per card."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state
