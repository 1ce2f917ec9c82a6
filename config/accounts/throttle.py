"""Failed log-in counters in the cache: one per username and address, one per address.

A fixed window: the first failure opens it, and it closes LOGIN_FAILURE_WINDOW_SECONDS later.
While either counter is at its limit, no password is even checked for that pair, so guessing
cannot go on; a success clears the username's counter. With several processes the cache must be
shared (CACHE_URL pointing at Redis), or each process keeps its own count.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache


def client_address(request) -> str:
    return (request.META.get("REMOTE_ADDR") or "unknown") if request is not None else "unknown"


def _keys(username: str, address: str) -> tuple[str, str]:
    pair = hashlib.sha256(f"{username.casefold()}\0{address}".encode()).hexdigest()
    return f"login-fail:user:{pair}", f"login-fail:addr:{address}"


def _limits() -> tuple[int, int]:
    return settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT


def is_locked(username: str, address: str) -> bool:
    user_key, addr_key = _keys(username, address)
    counts = cache.get_many([user_key, addr_key])
    user_limit, addr_limit = _limits()
    return counts.get(user_key, 0) >= user_limit or counts.get(addr_key, 0) >= addr_limit


def record_failure(username: str, address: str) -> None:
    for key in _keys(username, address):
        cache.add(key, 0, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr: start a new window
            cache.set(key, 1, timeout=settings.LOGIN_FAILURE_WINDOW_SECONDS)


def record_success(username: str, address: str) -> None:
    cache.delete(_keys(username, address)[0])


def lock_message() -> str:
    minutes = max(1, settings.LOGIN_FAILURE_WINDOW_SECONDS // 60)
    return (f"Too many failed log-ins for this account from your address. Try again in {minutes} minutes, "
            "or reset your password.")
