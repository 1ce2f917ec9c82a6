"""Failed log-in limits, kept in the cache, built so that no client can lock out an account it
does not control.

Three counters, each a fixed window that opens with its first failure and closes
LOGIN_FAILURE_WINDOW_SECONDS later:

- per username and address (LOGIN_FAILURE_LIMIT): at the limit, that address may not try that
  username any more (the guesser locks out only itself);
- per address, any username (LOGIN_ADDRESS_FAILURE_LIMIT): at the limit, the address may not try
  again the usernames that have already failed from it; a username it has not failed keeps its
  check, so a client sharing the address who types the right password still gets in;
- per username, any address (LOGIN_ACCOUNT_FAILURE_LIMIT): at the limit the account slows down
  instead of locking: one password check every LOGIN_ACCOUNT_SLOWDOWN_SECONDS for clients that
  have never logged in to it. A browser that has logged in to the account carries a signed
  device cookie and is exempt from the slowdown (and is counted by its cookie, not its address),
  so guessing from many addresses delays the guessers, never the owner's devices.

A browser new to the account is refused like a guesser's while either limit holds (nothing tells the two apart): the
owner's gets its device cookie from a link e-mailed to the account (config/accounts/browser_links.py), and then has a
budget of its own (docs/operations.md, OPS-1).

A refusal checks no password. With several processes the cache must be shared (CACHE_URL
pointing at Redis), or each process keeps its own counts. The counters are the "logins" cache: while
Redis does not answer they are kept in the database (config/cache.py), never dropped, so an outage
opens no door to guessing.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.cache import caches
from django.utils.connection import ConnectionProxy

from config.client_address import client_address

cache = ConnectionProxy(caches, "logins")

DEVICE_COOKIE = "dg_device"
DEVICE_COOKIE_SALT = "accounts.device"
DEVICE_COOKIE_MAX_AGE = 365 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a log-in is not checked, and for how long."""

    message: str
    retry_after: int
    new_browser: bool = False  # the browser is not known to the account: an e-mailed link would let it in


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _name(username: str) -> str:
    return username.casefold()


def device_of(request, username: str) -> str | None:
    """The device id of the request's device cookie when it was issued for this username."""
    if request is None:
        return None
    try:
        value = signing.loads(request.COOKIES.get(DEVICE_COOKIE, ""), salt=DEVICE_COOKIE_SALT,
                              max_age=DEVICE_COOKIE_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("u") != _name(username):
        return None
    return str(value.get("d", ""))


def device_cookie_value(username: str, device: str) -> str:
    return signing.dumps({"u": _name(username), "d": device}, salt=DEVICE_COOKIE_SALT)


def _source(request, username: str) -> str:
    """Who is trying: the device when it carries this account's cookie, else the address."""
    device = device_of(request, username)
    return f"device:{device}" if device else f"addr:{client_address(request)}"


def _pair_key(username: str, source: str) -> str:
    return "login-fail:pair:" + _digest(_name(username), source)


def _address_key(request) -> str:
    return "login-fail:addr:" + _digest(client_address(request))


def _account_key(username: str) -> str:
    return "login-fail:account:" + _digest(_name(username))


def _slot_key(username: str) -> str:
    return "login-slow:account:" + _digest(_name(username))


def _count(key: str) -> tuple[int, int]:
    """A window's failure count and the seconds left in it."""
    values = cache.get_many([key, key + ":until"])
    left = math.ceil(values.get(key + ":until", 0) - time.time())
    return values.get(key, 0), max(1, left)


def _bump(key: str) -> None:
    window = settings.LOGIN_FAILURE_WINDOW_SECONDS
    if cache.add(key + ":until", time.time() + window, timeout=window):
        cache.set(key, 0, timeout=window)
    cache.add(key, 0, timeout=window)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr: start a new window
        cache.set(key, 1, timeout=window)


def _minutes(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def check(request, username: str) -> Refusal | None:
    """Whether this request may have its password checked for `username`.

    Called before the password check; when it answers None, the caller checks the password and
    then records the outcome with `record_failure` or `record_success`.
    """
    if not username:
        return None
    source = _source(request, username)
    trusted_device = source.startswith("device:")
    pair, pair_left = _count(_pair_key(username, source))
    if pair >= settings.LOGIN_FAILURE_LIMIT:
        where = "from this device" if trusted_device else "from your address"
        return Refusal(f"Too many failed log-ins for this account {where}. Try again in {_minutes(pair_left)}, "
                       "or reset your password.", pair_left, new_browser=not trusted_device)
    if trusted_device:
        return None
    addressed, addr_left = _count(_address_key(request))
    if addressed >= settings.LOGIN_ADDRESS_FAILURE_LIMIT and pair > 0:
        return Refusal(f"Too many failed log-ins from your address, this account among them. Try again in "
                       f"{_minutes(addr_left)}, or reset your password.", addr_left, new_browser=True)
    failures, _ = _count(_account_key(username))
    if failures >= settings.LOGIN_ACCOUNT_FAILURE_LIMIT:
        slowdown = settings.LOGIN_ACCOUNT_SLOWDOWN_SECONDS
        if not cache.add(_slot_key(username), time.time() + slowdown, timeout=slowdown):
            until = cache.get(_slot_key(username), time.time() + slowdown)
            left = max(1, math.ceil(until - time.time()))
            return Refusal("This account has had many failed log-ins, so it takes one attempt every "
                           f"{slowdown} seconds from a device that has not logged in to it before. Try again in "
                           f"{left} seconds, or reset your password.", left, new_browser=True)
    return None


def record_failure(request, username: str) -> None:
    source = _source(request, username)
    _bump(_pair_key(username, source))
    if not source.startswith("device:"):
        _bump(_address_key(request))
        _bump(_account_key(username))


def record_success(request, username: str) -> None:
    key = _pair_key(username, _source(request, username))
    cache.delete_many([key, key + ":until"])
