"""A loop's checkpoint stops it when asked to, and asks no more often than it is told."""

import time

import pytest

from core.interrupt import Interrupted, checkpoint, stop_when


def test_a_checkpoint_outside_a_watch_does_nothing():
    checkpoint()


def test_a_checkpoint_raises_once_the_watch_says_stop():
    answers = iter([False, False, True])
    with stop_when(lambda: next(answers), every_seconds=0), pytest.raises(Interrupted):
        for _ in range(10):
            checkpoint()
    assert next(answers, "asked three times") == "asked three times"
    checkpoint()  # the watch ended with its block


def test_the_watch_is_asked_at_most_once_every_interval():
    asked = []
    with stop_when(lambda: asked.append(time.monotonic()) or False, every_seconds=0.05):
        started, calls = time.monotonic(), 0
        while len(asked) < 4 and time.monotonic() - started < 10:  # however slow the machine, four questions
            checkpoint()
            calls += 1
    assert len(asked) == 4 and calls > len(asked), "asked on some checkpoints, not all"
    assert asked[0] - started >= 0.049, "the first question waits an interval too"
    assert all(later - earlier >= 0.049 for earlier, later in zip(asked, asked[1:], strict=False))
