"""A table's randomness, committed at the start and revealed at the end (standard library only; DG-4.6).

A goldfish table has a seed (its owner's, or drawn by the server) and a server-side nonce (32 random bytes, never
shown while the game runs). At its start the table publishes `commitment(seed, nonce)`. The game is set up from
`game_seed(seed, nonce)` (the shuffles and the first player, DG-4.1), the AI opponent's random source for a stretch
of its decisions that begins after n actions is `opponent_seed(seed, nonce, n)`, and the goldfish AI that plays a
turn for the person draws from `helper_seed(seed, nonce, n)`: each an HMAC-SHA256 keyed by the nonce. Without the
nonce nothing of the deck orders or the AI's hand can be computed, even by an owner who chose the seed; the nonce's
256 bits make the commitment impossible to search. When the game is over both are revealed, and `verify` replays
the game from them.

Tables opened before the nonce existed have an empty one: they keep the randomness they were played with (the
game seed is the seed, the AI's seeds the formulas of that time), so their games replay the same.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .actions import Action
from .cards import CardDef
from .record import new_game
from .state import State

NONCE_BYTES = 32
_LEGACY_OPPONENT_FACTOR = 1_000_003  # the AI opponent's seed before the nonce: seed * factor + actions so far


def _keyed(nonce: str, *parts: object) -> int:
    """64 bits of HMAC-SHA256(nonce, "dreadgate-<part>:<part>:...")."""
    message = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hmac.new(nonce.encode(), message, hashlib.sha256).digest()[:8], "big")


def commitment(seed: int, nonce: str) -> str:
    """What a table publishes at its start: SHA-256 of "dreadgate-commit:<seed>:<nonce>", in hex."""
    return hashlib.sha256(f"dreadgate-commit:{seed}:{nonce}".encode()).hexdigest()


def game_seed(seed: int, nonce: str) -> int:
    """The engine's seed: the shuffles, the first player, every random event of the rules (DG-4.1)."""
    return seed if not nonce else _keyed(nonce, "dreadgate-game", seed)


def opponent_seed(seed: int, nonce: str, actions: int) -> int:
    """The AI opponent's random source for its decisions from the action after the first `actions` on, until the
    person has the decision again (the same after an undo)."""
    if not nonce:
        return seed * _LEGACY_OPPONENT_FACTOR + actions
    return _keyed(nonce, "dreadgate-opponent", seed, actions)


def helper_seed(seed: int, nonce: str, actions: int) -> int:
    """The random source of the goldfish AI that plays the rest of the person's turn, from action `actions` on."""
    if not nonce:
        return seed + actions
    return _keyed(nonce, "dreadgate-helper", seed, actions)


class CommitmentMismatch(ValueError):
    pass


def check_commitment(seed: int, nonce: str, published: str) -> None:
    if not hmac.compare_digest(commitment(seed, nonce), published):
        raise CommitmentMismatch("The seed and nonce do not match the table's commitment.")


def verify(decks: Sequence[Sequence[CardDef | Mapping[str, Any]]], fmt: str, seed: int, nonce: str,
           published: str, actions: Iterable[Sequence[int]]) -> State:
    """Check the revealed values against the commitment and replay the game from them under these rules (a game of
    rules since changed shows its steps from its stored frames, docs/rules.md RV-4); returns the State."""
    check_commitment(seed, nonce, published)
    state = new_game(decks, game_seed(seed, nonce), fmt)
    for action in actions:
        move: Action = (action[0], action[1], action[2])
        state.apply(move)
    return state
