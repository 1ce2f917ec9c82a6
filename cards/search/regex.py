"""Regular expressions of `name:/…/` and `o:/…/`: one evaluator, Python's `re`, for every path.

The index and the SQL path both call `matching()` over the texts (the SQL path reads them from the
database), so SQLite, PostgreSQL and the index cannot disagree on what a pattern means.

The accepted subset: characters and escapes (`\\.`, `\\n`, `\\x41`), classes (`[a-z]`, `[^,]`, `\\d`,
`\\w`, `\\s` and their negations, `.`), anchors (`^`, `$`, `\\b`, `\\B`, `\\A`, `\\Z`), repetition (`*`,
`+`, `?`, `{m}`, `{m,}`, `{m,n}` with counts up to MAX_COUNT, lazy forms with `?`), alternation
(`|`) and groups (`(…)`, `(?:…)`, `(?P<name>…)`). Refused, with the position: backreferences,
lookahead and lookbehind, atomic groups, possessive repetition, conditionals, comments and inline
flags, and a repeated group that itself holds repetition or alternation (`(a+)+`, `(a|ab)*`: the
shapes whose matching time grows exponentially with the text). Matching ignores case, as the
substring search does; `^` and `$` are the start and end of the whole name or text.

Bounds: a pattern has at most MAX_PATTERN_LENGTH characters, and matching it over the catalog may
take TIME_LIMIT_SECONDS. On the main thread (gunicorn's sync workers, the tests) a timer interrupts
a match that runs past it, even inside one text (`re` checks for signals while it matches);
elsewhere the time is checked between texts.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import SearchError

MAX_PATTERN_LENGTH = 200
MAX_COUNT = 100  # the largest count of a {m,n} repetition
TIME_LIMIT_SECONDS = 0.25
_CHECK_EVERY = 256  # texts between two looks at the clock


@dataclass(frozen=True, slots=True)
class Pattern:
    source: str
    compiled: re.Pattern[str]
    position: int  # of the pattern in the query, for the error of a pattern that runs too long


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
            i, last_group = i + 2, None
        elif ch == "[":  # a class: skip to its end (a ']' first is a member; escapes are members)
            j = i + 1
            if source[j : j + 1] == "^":
                j += 1
            if source[j : j + 1] == "]":
                j += 1
            while j < n and source[j] != "]":
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
                if count is None or count.group() in ("{}", "{,}"):  # a literal brace, as re reads it
                    i, last_group = i + 1, None
                    continue
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


def compile_pattern(source: str, position: int) -> Pattern:
    """The pattern of a `/…/` term whose text starts at `position` in the query; SearchError if refused."""
    if not source:
        raise _refuse("The pattern is empty.", position, "a pattern")
    if len(source) > MAX_PATTERN_LENGTH:
        raise _refuse(f"The pattern is longer than {MAX_PATTERN_LENGTH} characters.", position + MAX_PATTERN_LENGTH,
                      "a shorter pattern")
    _check_subset(source, position)
    try:
        compiled = re.compile(source, re.IGNORECASE)
    except re.error as error:
        at = position + (error.pos or 0)
        raise _refuse(f"The pattern cannot be read: {error.msg}.", at, "a regular expression") from None
    return Pattern(source, compiled, position)


class _TooLong(Exception):
    pass


def _interrupt(signum, frame) -> None:
    if _armed:
        raise _TooLong


_armed = False
_handler_installed = False


def _arm_timer(seconds: float) -> bool:
    """Start the timer that interrupts a match; False where none can be used (not the main thread,
    no interval timers, another SIGALRM handler or a timer already running)."""
    global _armed, _handler_installed
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return False
    if not _handler_installed:
        if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, None):
            return False
        signal.signal(signal.SIGALRM, _interrupt)  # ignores the signal unless armed
        _handler_installed = True
    elif signal.getsignal(signal.SIGALRM) is not _interrupt:
        return False
    if signal.getitimer(signal.ITIMER_REAL)[0]:
        return False
    _armed = True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return True


def _disarm_timer() -> None:
    global _armed
    signal.setitimer(signal.ITIMER_REAL, 0)
    _armed = False


def matching(pattern: Pattern, texts: Sequence[str]) -> list[int]:
    """The indexes of the texts in which the pattern is found, in order; SearchError past the time limit."""
    search = pattern.compiled.search
    deadline = time.perf_counter() + TIME_LIMIT_SECONDS
    found: list[int] = []
    timer = _arm_timer(TIME_LIMIT_SECONDS)
    try:
        for start in range(0, len(texts), _CHECK_EVERY):
            found.extend(i for i in range(start, min(start + _CHECK_EVERY, len(texts))) if search(texts[i]))
            if time.perf_counter() > deadline:
                raise _TooLong
    except _TooLong:
        raise _refuse(f"The pattern takes longer than {TIME_LIMIT_SECONDS:g} s to match the catalog; make it "
                      "simpler (fewer repetitions that can match the same text).", pattern.position,
                      "a simpler pattern") from None
    finally:
        if timer:
            _disarm_timer()
    return found
