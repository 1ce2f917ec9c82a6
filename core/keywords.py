"""The Dreadgate keywords and their reminder text: plain data, loaded into Keyword rows."""

from __future__ import annotations

from typing import NamedTuple


class KeywordInfo(NamedTuple):
    slug: str
    name: str
    reminder: str


KEYWORDS: dict[str, KeywordInfo] = {
    info.slug: info
    for info in (
        KeywordInfo(
            "subdue",
            "Subdue",
            "This unit may maneuver into a cell occupied by an enemy unit. While they share the cell, "
            "that enemy unit can't attack, maneuver or use abilities.",
        ),
        KeywordInfo(
            "execution",
            "Execution",
            "This unit may maneuver into a cell occupied by an enemy unit whose vitality is lower than this "
            "unit's attack. That enemy unit is destroyed and this unit takes its cell.",
        ),
        KeywordInfo(
            "spectral",
            "Spectral",
            "This unit can only be killed by an attack in which a unit bearing a Relic Weapon takes part, "
            "by a talent or glyph, or by a destroy effect. Any other damage leaves it at 1 vitality.",
        ),
        KeywordInfo(
            "aviation",
            "Aviation",
            "This unit is flying by default and may be grounded or take off again for free on your turn. "
            "While flying it maneuvers up to its flying range and only ranged attacks can target it. "
            "It can move through the Gateway only while grounded.",
        ),
    )
}


def reminder_line(slug: str) -> str:
    """The keyword as printed in rules text: 'Name (reminder)'."""
    info = KEYWORDS[slug]
    return f"{info.name} ({info.reminder})"
