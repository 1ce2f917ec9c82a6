"""Decisions: small comparable tuples (kind, argument) and their readable notation.

    D          summon from the top of the Draw Deck (DD-3.3)
    R17        summon card 17 from your Reserves (DD-6.3)
    K17        keep card 17 after damage; the others are discarded (DD-5.1)
    U          use the optional ability now prompted (DD-7.1)
    U2         use it targeting seat 2 (Drain)
    S          skip the optional ability
    O12.40.7   put these Draw Deck cards back in this order, top first (Arrange; Scry keeps its one card on top)
    B          put the looked-at card on the bottom of the Draw Deck (Scry)
"""

from __future__ import annotations

from typing import Any

from .errors import IllegalDecision

DRAW, RESERVE, KEEP, USE, SKIP, ORDER, BOTTOM = range(7)

Decision = tuple[int, Any]  # (kind, int) or (ORDER, tuple[int, ...])

D = (DRAW, 0)
U = (USE, -1)
S = (SKIP, 0)
B = (BOTTOM, 0)


def reserve(card: int) -> tuple[int, int]:
    return (RESERVE, card)


def keep(card: int) -> tuple[int, int]:
    return (KEEP, card)


def use(target: int = -1) -> tuple[int, int]:
    return (USE, target)


def order(cards: tuple[int, ...] | list[int]) -> tuple[int, tuple[int, ...]]:
    return (ORDER, tuple(cards))


def to_notation(d: Decision) -> str:
    kind, arg = d
    if kind == DRAW:
        return "D"
    if kind == RESERVE:
        return f"R{arg}"
    if kind == KEEP:
        return f"K{arg}"
    if kind == USE:
        return "U" if arg < 0 else f"U{arg}"
    if kind == SKIP:
        return "S"
    if kind == ORDER:
        return "O" + ".".join(str(c) for c in arg)
    if kind == BOTTOM:
        return "B"
    raise ValueError(f"unknown decision kind {kind!r}")


def parse(text: str) -> Decision:
    """Parse one decision; a malformed one is refused citing DD-3.2 (what a decision may be)."""
    t = text.strip().upper()
    try:
        if t == "D":
            return D
        if t == "S":
            return S
        if t == "B":
            return B
        if t == "U":
            return U
        head, rest = t[0], t[1:]
        if head == "R":
            return (RESERVE, int(rest))
        if head == "K":
            return (KEEP, int(rest))
        if head == "U":
            return (USE, int(rest))
        if head == "O":
            return (ORDER, tuple(int(x) for x in rest.split(".")))
    except (ValueError, IndexError):
        pass
    raise IllegalDecision("DD-3.2", f"{text!r} is not a decision (D, R<n>, K<n>, U, U<seat>, S, O<n>.<n>, B)")
