"""Characters drawn as nothing: Unicode's default-ignorable code points (DerivedCoreProperties.txt, Unicode 15.1).

A short label (a deck's tag) holding one looks the same as the label without it, so two labels that differ only by
them are twins a player cannot tell apart. Some of them shape what is around them, and are kept where they stand
between two characters: the joiners (a ligature in Persian or Devanagari, an emoji family), the variation
selectors (an emoji drawn as a picture, Mongolian forms) and the tag characters of a flag's emoji. The others
(a zero-width space, a word joiner, a soft hyphen, a byte-order mark, the Hangul fillers, the invisible operators,
the deprecated format characters) never do.
"""

from __future__ import annotations

import re
import unicodedata

_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
_SHAPING = (
    (0x180B, 0x180D), (0x180F, 0x180F), (0x200C, 0x200D), (0xFE00, 0xFE0F), (0xE0020, 0xE007F), (0xE0100, 0xE01EF),
)
_JOINERS = "\u200c\u200d"


def _character_class(points: set[int]) -> re.Pattern[str]:
    """A pattern matching any one of `points`, written as runs of consecutive code points."""
    runs: list[list[int]] = []
    for point in sorted(points):
        if runs and runs[-1][1] == point - 1:
            runs[-1][1] = point
        else:
            runs.append([point, point])
    return re.compile("[" + "".join(f"{re.escape(chr(low))}-{re.escape(chr(high))}" for low, high in runs) + "]")


def _points(ranges: tuple[tuple[int, int], ...]) -> set[int]:
    return {point for low, high in ranges for point in range(low, high + 1)}


# Matched by the regular expression engine, a character at a time in C: a deck list of 40 lines was read through a
# test of each character against each range, three quarters of its validation's time.
_DRAWN_AS_NOTHING = _character_class(_points(_IGNORABLE))
_SHAPING_NOTHING = _character_class(_points(_IGNORABLE) - _points(_SHAPING))


def without_invisible(text: str) -> str:
    """The text without the characters drawn as nothing that shape nothing: the shaping ones stay, except a joiner
    at either end, which joins nothing."""
    if text.isascii():  # none of them is
        return text
    return _SHAPING_NOTHING.sub("", text).strip(_JOINERS)


def seen_as(text: str) -> str:
    """What a reader tells apart: the text folded in case, without any character drawn as nothing (two labels with
    the same `seen_as` look alike)."""
    return (text if text.isascii() else _DRAWN_AS_NOTHING.sub("", text)).casefold()


# Tab, line breaks and the like (Cc), lone surrogates, line and paragraph separators, and the characters that
# reorder the text around them (bidirectional embeddings, overrides and isolates).
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def control_in(text: str) -> str:
    """The first control character of the text, said so that the player can find it ("" when none): it is
    invisible, or it moves the text around it. A name or a label shown to others holds none."""
    for at, ch in enumerate(text, start=1):
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI_CONTROLS:
            return f"U+{ord(ch):04X} {unicodedata.name(ch, 'control character')} at character {at}"
    return ""
