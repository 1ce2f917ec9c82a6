"""Regular expressions of `name:/…/` and `o:/…/`: one evaluator for every path.

Python's `re` reads a pattern (it defines what is accepted and words the errors); the `regex` package,
in its re-compatible mode (VERSION0: re's syntax and meaning), matches it, because a match of `regex`
can be stopped at a time limit on any thread and lets other threads run meanwhile. The index and the
SQL path both call `matching()` over the texts (the SQL path reads them from the database), so SQLite,
PostgreSQL and the index cannot disagree on what a pattern means.

The accepted subset: characters and escapes (`\\.`, `\\n`, `\\x41`), classes (`[a-z]`, `[^,]`, `\\d`,
`\\w`, `\\s` and their negations, `.`), anchors (`^`, `$`, `\\b`, `\\B`, `\\A`, `\\Z`), repetition (`*`,
`+`, `?`, `{m}`, `{m,}`, `{m,n}` with counts up to MAX_COUNT, lazy forms with `?`), alternation
(`|`) and groups (`(…)`, `(?:…)`, `(?P<name>…)`). Refused, with the position: backreferences,
lookahead and lookbehind, atomic groups, possessive repetition, conditionals, comments and inline
flags, escapes of a letter re does not read (`\\p{L}`; `\\N{…}` too), POSIX classes (`[[:alpha:]]`)
and a brace that starts no count (`\\{` is a brace), where re and regex read differently; and a repeated
group that itself holds repetition or alternation (`(a+)+`, `(a|ab)*`: the shapes whose matching time grows
exponentially with the text). Matching ignores
case, as the substring search does; `^` and `$` are the start and end of the whole name or text.

Bounds: a pattern has at most MAX_PATTERN_LENGTH characters, and the patterns of one search may take
TIME_LIMIT_SECONDS together to match the catalog (one TimeBudget per search, shared by its patterns).
A match is stopped when the budget runs out, even inside one text, on whichever thread runs it (the
threaded development server's as well as gunicorn's). Shapes the subset accepts can still take
polynomial time (`[\\w ]*?[\\w ]*?[\\w ]*?[\\w ]*?[\\w ]*?\\d`: seconds for one text of sixty
characters without a digit); the budget is what bounds them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

import regex

from .errors import SearchError

MAX_PATTERN_LENGTH = 200
MAX_COUNT = 100  # the largest count of a {m,n} repetition
TIME_LIMIT_SECONDS = 0.25  # for all the patterns of one search


class TimeBudget:
    """The time the patterns of one search may spend matching, together: one per search, shared by its
    patterns, so that a query of many patterns gets no more time than a query of one. Only matching
    spends it, not what the search does between two patterns (the SQL path's reading of the texts, a
    first build of the index), which the pattern does not make longer."""

    __slots__ = ("seconds",)

    def __init__(self) -> None:
        self.seconds = TIME_LIMIT_SECONDS


@dataclass(frozen=True, slots=True)
class Pattern:
    source: str
    compiled: regex.Pattern[str]
    position: int  # of the pattern in the query, for the error of a pattern that runs too long
    budget: TimeBudget  # its search's


def _refuse(message: str, position: int, expected: str) -> SearchError:
    return SearchError(message, position=position, expected=[expected])


_GROUP_OPENINGS = (  # what follows "(?", and why it is refused (None: accepted)
    ("=", "lookahead is not supported"), ("!", "lookahead is not supported"),
    ("<=", "lookbehind is not supported"), ("<!", "lookbehind is not supported"),
    ("P=", "backreferences are not supported"), (">", "atomic groups are not supported"),
    ("(", "conditional groups are not supported"), ("#", "comments are not supported"),
    (":", None), ("P<", None),
)
_COUNT = re.compile(r"\{(\d*)(,?)(\d*)\}")


@dataclass(slots=True)
class _Group:
    start: int
    inner: bool = False  # holds repetition or alternation (at any depth)


_ESCAPES = frozenset("abBdDfnrsStvwWxuUAZ")  # the letters re reads after a backslash (\N{…} is left out)


def _check_subset(source: str, offset: int) -> None:
    """Refuse what lies outside the subset, at its position (`offset` is the pattern's in the query)."""
    groups = [_Group(-1)]
    last_group: _Group | None = None  # the group just closed, if the previous item is one
    i, n = 0, len(source)
    while i < n:
        ch, at = source[i], offset + i
        if ch == "\\":
            nxt = source[i + 1 : i + 2]
            if nxt.isdigit() and nxt != "0":
                raise _refuse(f"'\\{nxt}' is a backreference; backreferences are not supported.", at,
                              "a pattern without backreferences")
            if nxt.isascii() and nxt.isalpha() and nxt not in _ESCAPES:  # \p{L}: its brace is not the fault
                raise _refuse(f"'\\{nxt}' is not an escape patterns know; use \\d, \\w, \\s (\\D, \\W, \\S), "
                              "\\b, \\B, \\A, \\Z, \\n, \\t or \\x41, or \\ before a sign.", at,
                              "a supported escape")
            i, last_group = i + 2, None
        elif ch == "[":  # a class: skip to its end (a ']' first is a member; escapes are members)
            j = i + 1
            if source[j : j + 1] == "^":
                j += 1
            if source[j : j + 1] == "]":
                j += 1
            while j < n and source[j] != "]":
                if source.startswith("[:", j):  # re reads "[:alpha:]" as characters, regex as a POSIX class
                    raise _refuse("POSIX classes such as [:alpha:] are not supported; use \\w, \\d, \\s or a "
                                  "range.", offset + j, "characters, ranges and escapes in a class")
                j += 2 if source[j] == "\\" else 1
            i, last_group = j + 1, None
        elif ch == "(":
            if source.startswith("(?", i):
                rest = source[i + 2 :]
                why = next((reason for start, reason in _GROUP_OPENINGS if rest.startswith(start)),
                           "inline flags are not supported (matching always ignores case)")
                if why is not None:
                    raise _refuse(f"'{source[i:i + 4]}…' is outside the supported patterns: {why}.", at,
                                  "characters, classes, anchors, repetition, alternation, groups")
            groups.append(_Group(i))
            i, last_group = i + 1, None
        elif ch == ")":
            closed = groups.pop() if len(groups) > 1 else _Group(i)
            groups[-1].inner |= closed.inner
            i, last_group = i + 1, closed
        elif ch == "|":
            groups[-1].inner = True
            i, last_group = i + 1, None
        elif ch in "*+?{":
            many = ch != "?"
            length = 1
            if ch == "{":
                count = _COUNT.match(source, i)
                if count is None or count.group() in ("{}", "{,}"):  # re reads a brace, regex maybe fuzzy matching
                    raise _refuse("A brace that is not a count ({m}, {m,}, {,n}, {m,n}) must be escaped: \\{.", at,
                                  "a count or '\\{'")
                low, comma, high = count.groups()
                for number in (low, high):
                    if number and int(number) > MAX_COUNT:
                        raise _refuse(f"The count {number} is more than {MAX_COUNT}.", at,
                                      f"counts up to {MAX_COUNT}")
                many = bool(comma) and (not high or int(high) > 1) or (not comma and int(low or 0) > 1)
                length = count.end() - i
            if source[i + length : i + length + 1] == "+":
                raise _refuse("Possessive repetition is not supported.", at + length, "'*', '+', '?' or '{m,n}'")
            if many and last_group is not None and last_group.inner:
                raise _refuse("A repeated group may not hold repetition or alternation (its matching time "
                              "can grow exponentially); use a class such as [ab]+ or drop the outer repetition.",
                              at, "a group without repetition or alternation")
            groups[-1].inner = True
            i += length + (source[i + length : i + length + 1] == "?")  # a lazy '?' belongs to it
            last_group = None
        else:
            i, last_group = i + 1, None


def compile_pattern(source: str, position: int, budget: TimeBudget) -> Pattern:
    """The pattern of a `/…/` term whose text starts at `position` in the query, to be matched within
    `budget` (its search's); SearchError if refused."""
    if not source:
        raise _refuse("The pattern is empty.", position, "a pattern")
    if len(source) > MAX_PATTERN_LENGTH:
        raise _refuse(f"The pattern is longer than {MAX_PATTERN_LENGTH} characters.", position + MAX_PATTERN_LENGTH,
                      "a shorter pattern")
    _check_subset(source, position)
    try:
        re.compile(source)  # re decides what can be read, and says why not
    except re.error as error:
        at = position + (error.pos or 0)
        raise _refuse(f"The pattern cannot be read: {error.msg}.", at, "a regular expression") from None
    return Pattern(source, regex.compile(source, regex.IGNORECASE | regex.VERSION0), position, budget)


def matching(pattern: Pattern, texts: Sequence[str]) -> list[int]:
    """The indexes of the texts in which the pattern is found, in order; SearchError once its search's
    time budget is spent, in the middle of one text's match too."""
    search, budget = pattern.compiled.search, pattern.budget
    deadline = time.monotonic() + budget.seconds
    found: list[int] = []
    try:
        for i, text in enumerate(texts):
            left = deadline - time.monotonic()
            if left <= 0:  # regex reads a negative timeout as none
                raise TimeoutError
            # concurrent: the match lets go of the GIL (a str cannot change meanwhile), so that the
            # other requests of a threaded server are answered while it runs.
            if search(text, timeout=left, concurrent=True):
                found.append(i)
    except TimeoutError:
        raise _refuse(f"The pattern takes longer than {TIME_LIMIT_SECONDS:g} s to match the catalog; make it "
                      "simpler (fewer repetitions that can match the same text).", pattern.position,
                      "a simpler pattern") from None
    finally:
        budget.seconds = deadline - time.monotonic()
    return found
