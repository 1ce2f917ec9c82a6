"""A table's randomness, committed at the start and revealed at the end (standard library only).

A table has a seed (its creator's, or drawn by the server) and a server-side nonce (32 random bytes,
never shown while the game runs). At its start the table publishes `commitment(seed, nonce)`; every
shuffle comes from `game_seed(seed, nonce)` and every bot's random source from `bot_seed(seed, nonce, n)`.
Without the nonce nothing of the deck's order can be computed, even by a creator who chose the seed;
the nonce's 256 bits make the commitment impossible to search. When the game ends both are revealed,
and `verify` replays the whole game from them.

Tables created before the nonce existed have an empty one: their game seed is their seed, as it was.
"""

from __future__ import annotations

import hashlib
import hmac

from .cardset import CardSet, load_cardset
from .game import Game
from .serialize import replay

NONCE_BYTES = 32


def _hash(*parts: object) -> bytes:
    return hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()


def commitment(seed: int, nonce: str) -> str:
    """What a table publishes at its start: SHA-256 of "dreaddraw-commit:<seed>:<nonce>", in hex."""
    return _hash("dreaddraw-commit", seed, nonce).hex()


def game_seed(seed: int, nonce: str) -> int:
    """The engine's seed (the Draw Deck's shuffles, who goes first)."""
    if not nonce:
        return seed
    return int.from_bytes(_hash("dreaddraw-game", seed, nonce)[:8], "big")


def bot_seed(seed: int, nonce: str, decision: int) -> int:
    """The random source of the bot that makes decision number `decision` (0-based) of the game."""
    if not nonce:
        return seed + decision
    return int.from_bytes(_hash("dreaddraw-bot", seed, nonce, decision)[:8], "big")


class CommitmentMismatch(ValueError):
    pass


def check_commitment(seed: int, nonce: str, published: str) -> None:
    if not hmac.compare_digest(commitment(seed, nonce), published):
        raise CommitmentMismatch("The seed and nonce do not match the table's commitment.")


def verify(players: int, seed: int, nonce: str, published: str, decisions: list[str],
           cardset: CardSet | None = None, set_version: str | None = None) -> Game:
    """Check the revealed values against the commitment and replay the game from them; returns the Game.
    `set_version` (a table's) replays under the card set the game was played with (DD-26)."""
    check_commitment(seed, nonce, published)
    return replay(players, game_seed(seed, nonce), decisions, cardset or load_cardset(version=set_version))
