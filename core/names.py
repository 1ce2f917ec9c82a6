"""How a card name is written: what may differ between two writings of one name.

Case, runs of spaces and the apostrophe's shape (a typographic ’ or ‘, a modifier letter ʼ, a prime ′ for the
ASCII ') never tell two names apart: Hunter’s Mark is Hunter's Mark, wherever a name is looked up.
"""

from __future__ import annotations

APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'"})


def plain_name(text: str) -> str:
    """The name with ASCII apostrophes and single spaces, its case kept (for a database's case-blind match)."""
    return " ".join(text.translate(APOSTROPHES).split())


def name_key(text: str) -> str:
    """The key two writings of one name share: plain_name, case folded."""
    return plain_name(text).casefold()
