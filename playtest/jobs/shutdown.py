"""A worker asked to stop (TERM: Ctrl-C on `make run`, a service stopped or restarted) is not a chunk that failed.

Each process of a worker's pool heeds TERM (`heed_term`, at its start): the chunk it plays stops at its next game,
gives back the attempt it was counted (PLAYTEST_MAX_CHUNK_ATTEMPTS bounds the chunks that kill their worker, and
three restarts during one chunk had failed its run as one) and is sent again at once, for the next worker to play
from its first game. A worker killed outright (KILL, the machine's memory) still counts its attempt: nothing tells
it from a chunk that kills its worker.
"""

from __future__ import annotations

import signal

_asked = False


def _ask(signum, frame) -> None:
    global _asked
    _asked = True


def heed_term() -> None:
    signal.signal(signal.SIGTERM, _ask)


def asked() -> bool:
    """Whether this process was asked to stop."""
    return _asked
