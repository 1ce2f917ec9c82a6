"""The names closest to a written one ("did you mean"), for card names over the whole catalog.

Closeness is difflib's measure, the share of characters two names have in common, computed by rapidfuzz: difflib's
own took about 80 ms a name over the catalog's eight thousand names, so a deck list of unknown names (up to a
thousand lines) cost minutes of a request.
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz, process


def close_matches(text: str, choices: Sequence[str], *, limit: int, cutoff: float) -> list[str]:
    """Up to `limit` of `choices` at least `cutoff` (0 to 1) alike with `text`, the closest first."""
    return [choice for choice, _, _ in process.extract(text, choices, scorer=fuzz.ratio, limit=limit,
                                                       score_cutoff=cutoff * 100)]
