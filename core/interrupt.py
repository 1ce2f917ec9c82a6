"""Stopping a long loop between its steps: a chunk of games whose run was cancelled stops at its next game.

The loop calls `checkpoint()` before each step (so after each step but the last); whoever runs the loop decides, with
`stop_when`, what says stop and how often to ask (asking may cost a database query), and may be told, as often, how
many steps are done. Without `stop_when`, a checkpoint does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


class Interrupted(Exception):
    """Raised by a checkpoint when asked to stop: the loop's work is to be dropped."""


@dataclass
class _Watch:
    stop: Callable[[], bool]
    every: float  # seconds between two questions
    next_at: float
    progress: Callable[[int], None] | None = None
    steps: int = 0  # checkpoints passed: the steps begun


_watch: ContextVar[_Watch | None] = ContextVar("interrupt_watch", default=None)


@contextmanager
def stop_when(stop: Callable[[], bool], *, every_seconds: float,
              progress: Callable[[int], None] | None = None) -> Iterator[None]:
    """Within this block, a checkpoint asks `stop()` at most once every `every_seconds` (the first time after that
    long) and raises Interrupted when it says so; just before, it tells `progress` how many steps are done."""
    token = _watch.set(_Watch(stop, every_seconds, time.monotonic() + every_seconds, progress))
    try:
        yield
    finally:
        _watch.reset(token)


def checkpoint() -> None:
    watch = _watch.get()
    if watch is None:
        return
    done = watch.steps  # each checkpoint before its step: the steps begun before this one are done
    watch.steps += 1
    now = time.monotonic()
    if now < watch.next_at:
        return
    watch.next_at = now + watch.every
    if watch.progress is not None:
        watch.progress(done)
    if watch.stop():
        raise Interrupted
