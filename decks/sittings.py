"""A deck's history read as sittings: the editor saves a version per click, so an evening's work is dozens of
versions; the versions one player saved one after another, each within SITTING_GAP of the one before, are shown
together, with a link to what they changed between them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

SITTING_GAP = timedelta(minutes=10)


@dataclass(slots=True)
class Sitting:
    revisions: list[Any] = field(default_factory=list)  # newest first, as the history lists them

    @property
    def newest(self) -> Any:
        return self.revisions[0]

    @property
    def oldest(self) -> Any:
        return self.revisions[-1]

    @property
    def before(self) -> int:
        """The version the sitting started from, to compare with its newest."""
        return max(self.oldest.number - 1, 1)


def sittings(revisions: Iterable[Any]) -> list[Sitting]:
    """Revisions (newest first: `number`, `author_id`, `created_at`) grouped into sittings, newest first."""
    out: list[Sitting] = []
    for revision in revisions:
        last = out[-1].oldest if out else None
        if (last is not None and revision.author_id == last.author_id and revision.number == last.number - 1
                and last.created_at - revision.created_at <= SITTING_GAP):
            out[-1].revisions.append(revision)
        else:
            out.append(Sitting([revision]))
    return out
