"""The whole numbers a request may carry to the database, bounded by the columns that hold them.

Python's int has no bound, the database's columns do: SQLite's driver raises OverflowError for an
int past 64 bits (a 500, not a refusal) and PostgreSQL's integer holds 32 bits. So every whole
number a request brings to a query (a path id, a version number, a page) is declared with its
bounds, and a value outside them is refused with a 400 naming the parameter and the range before
anything is looked up (config/api_contract.py for the API).
"""

from __future__ import annotations

from .invisible import without_invisible

MAX_INTEGER = 2_147_483_647  # an integer column (PostgreSQL's integer): version numbers, counts
MAX_BIG_INTEGER = 9_223_372_036_854_775_807  # a big integer column: ids (BigAutoField)
MAX_SEED = 2**62  # a game's or run's seed, 0 to this (a big integer column); one is drawn from that range if not given


def shortened(text: str, most: int = 40) -> str:
    """What was sent, as a refusal quotes it: whole, or its start marked as cut ("…"), never a shorter text passed off
    as the one sent (a 40-digit seed quoted as a 24-digit number); without the characters drawn as nothing, so that
    a direction override in it does not reverse the words of the refusal around it."""
    text = without_invisible(text)
    return text if len(text) <= most else text[:most] + "…"


def seed_problem(seed: int) -> str | None:
    """What is wrong with a seed, in the player's words; None when it is one."""
    if 0 <= seed <= MAX_SEED:
        return None
    return f"seed: {shortened(str(seed), 24)} is not a seed; a seed is a whole number from 0 to {MAX_SEED:,}."


def page_number(raw: str | None) -> int:
    """The page a list page's `?page=` asks for: 1 when absent. Refuses (ValueError, with the words for the
    player) anything but a whole number from 1 up to an integer column's bound; a page past the last is the list's
    to handle (the pages show the last one)."""
    return 1 if raw is None or raw == "" else numbered(raw, "page", "page", "pages")


def numbered(raw: str, field: str, noun: str, things: str) -> int:
    """A whole number from 1 up to an integer column's bound, sent in `field` to name one of `things` (a page, a
    version); refuses (ValueError, with the words for the player) anything else."""
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= MAX_INTEGER:
        raise ValueError(f"{field}: “{shortened(raw, 20)}” is not a {noun} number; {things} are numbered 1, 2, 3 "
                         "and so on.")
    return int(raw)
