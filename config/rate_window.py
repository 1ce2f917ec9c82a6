"""Rate limits counted in one cache round trip: a sliding window of the last `duration` seconds per key.

DRF's throttles read a key's history (a list of times) and write it back: two round trips per limit, and two
processes that read the same history at once both write theirs, so one of the two requests is lost to the count and
a client sending in parallel gets past its limit. Here a limit is one call, `count_in_window`, which a cache may
answer itself in one atomic step: config.cache.RedisCache runs a script in Redis that drops the times older than the
window, counts the rest and adds this one if it is under the limit, on Redis's clock, so the count is exact between
any number of processes (tests/test_rate_window.py: two processes at once). A high limit is counted ahead, a part at
a time per process (config/cache.py, leases): never more than the limit in a window, and fewer by at most what the
other processes have counted ahead and not used. Any other cache (the in-process one of
the embedded default, or the stand-in while Redis does not answer) is counted by a read and a write under a lock of
this process: exact within the process, which is all such a cache counts.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Window:
    allowed: bool  # whether this request was under the limit (and so counted)
    count: int  # requests in the window, this one included if it was counted
    now: float  # the time of the count, and that of the window's oldest request (seconds, the counter's clock)
    oldest: float


_lock = threading.Lock()


def count_in_window(cache, key: str, limit: int, duration: float) -> Window:
    """Counts one request under `key` if fewer than `limit` were counted in the last `duration` seconds."""
    counter = getattr(cache, "count_in_window", None)
    if counter is not None:
        return counter(key, limit, duration)
    return count_in_history(cache, key, limit, duration)


def count_in_history(cache, key: str, limit: int, duration: float) -> Window:
    """The window kept as a list of times, newest first, in any Django cache (a read and a write)."""
    with _lock:
        now = time.time()
        history = [t for t in cache.get(key, []) if t > now - duration]
        allowed = len(history) < limit
        if allowed:
            history.insert(0, now)
            cache.set(key, history, duration)
        return Window(allowed, len(history), now, history[-1] if history else now)


class SlidingWindowMixin:
    """For a DRF SimpleRateThrottle: counts with count_in_window, in its `cache`, in place of DRF's history."""

    window: Window | None = None

    def __init__(self):
        """The rate is read once a limit applies to the request (below): DRF reads and parses it as each request makes
        its throttles, and most of them count nothing (an anonymous limit for a signed-in user, a write limit for a
        read)."""

    def allow_request(self, request, view):
        if getattr(self, "scope_attr", None):  # DRF's ScopedRateThrottle takes its scope, so its rate, from the view
            self.scope = getattr(view, self.scope_attr, None)
            if not self.scope:
                return True
            self.rate = self.get_rate()
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        if not getattr(self, "rate", None):  # a class may set its own, as DRF allows
            self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.window = count_in_window(self.cache, self.key, self.num_requests, self.duration)
        return self.window.allowed

    def wait(self):
        """DRF's figure: the rest of the oldest request's window, shared among the requests still available."""
        window = self.window
        if window is None:
            return None
        remaining = self.duration - (window.now - window.oldest)
        available = self.num_requests - window.count + 1
        return remaining / available if available > 0 else None
