"""Rate limits in one round trip, exact between processes (config/rate_window.py); a high limit counted ahead by
each process (config/cache.py, leases), within its documented tolerance."""

from __future__ import annotations

import multiprocessing
import time
import uuid

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import caches
from django.test import RequestFactory

from config import cache as cache_module
from config.cache import RedisCache, lease_size
from config.throttles import AnonBurstThrottle
from tests.conftest import configuration
from tests.roundtrips import counted

pytestmark = pytest.mark.each_configuration  # the limit in the process's cache here, in Redis there

LIMIT = 30  # under 2 x LEASE_SHARE: counted exactly, one round trip a request
ATTEMPTS = 40  # each process's: together they ask for more than twice the limit
HIGH = 400  # counted ahead: each process takes lease_size(HIGH) at a time
HIGH_ATTEMPTS = 300


class Tight(AnonBurstThrottle):
    rate = f"{LIMIT}/minute"


class High(AnonBurstThrottle):
    rate = f"{HIGH}/minute"


def in_redis(limit: type[AnonBurstThrottle] = Tight) -> type[AnonBurstThrottle]:
    """The limit counted in Redis, as deployed (CACHE_URL), under keys of this test's own."""

    class Shared(limit):
        cache = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"rate-window-{uuid.uuid4().hex}"})

    return Shared


def anonymous_request(address: str):
    request = RequestFactory().get("/api/cards/", REMOTE_ADDR=address)
    request.user = AnonymousUser()
    return request


def hammer(throttle_class, address: str, start, allowed, attempts: int = ATTEMPTS) -> None:
    """One process: waits for the start, then asks `attempts` times as fast as it can; adds up what it was allowed."""
    request, throttle = anonymous_request(address), throttle_class()
    start.wait()
    mine = sum(1 for _ in range(attempts) if throttle.allow_request(request, None))
    with allowed.get_lock():
        allowed.value += mine


def allowed_to_two_processes(throttle_class, address: str, attempts: int) -> int:
    """Two processes ask at once, `attempts` times each: how many they were let through between them."""
    context = multiprocessing.get_context("fork")
    start, allowed = context.Event(), context.Value("i", 0)
    processes = [context.Process(target=hammer, args=(throttle_class, address, start, allowed, attempts))
                 for _ in range(2)]
    for process in processes:
        process.start()
    start.set()
    for process in processes:
        process.join(60)
    assert [p.exitcode for p in processes] == [0, 0]
    return allowed.value


@pytest.mark.skipif(configuration() != "postgres", reason="a limit shared between processes needs Redis")
def test_two_processes_at_once_are_allowed_exactly_the_limit_between_them():
    address, shared = "203.0.113.77", in_redis()
    assert allowed_to_two_processes(shared, address, ATTEMPTS) == LIMIT
    # and the next one is refused, with the wait until the oldest leaves the window
    throttle = shared()
    assert not throttle.allow_request(anonymous_request(address), None)
    assert 0 < throttle.wait() <= 60


@pytest.mark.skipif(configuration() != "postgres", reason="counts Redis round trips")
def test_a_limit_costs_one_round_trip():
    throttle, request = in_redis()(), anonymous_request("203.0.113.78")
    throttle.allow_request(request, None)  # the script registered
    with counted() as trips:
        assert throttle.allow_request(request, None)
    assert trips.cache == 1


@pytest.mark.skipif(configuration() != "postgres", reason="a limit shared between processes needs Redis")
def test_two_processes_counting_a_high_limit_ahead_are_allowed_the_limit_less_at_most_one_lease():
    address, shared = "203.0.113.80", in_redis(High)
    allowed = allowed_to_two_processes(shared, address, HIGH_ATTEMPTS)
    # Never more than the limit; fewer by at most the slots one process counted ahead and had not used when it
    # stopped asking (the other asked until it was refused, its lease spent).
    assert HIGH - (lease_size(HIGH) - 1) <= allowed <= HIGH


@pytest.mark.skipif(configuration() != "postgres", reason="counts Redis round trips")
def test_a_high_limit_costs_one_round_trip_a_lease_and_one_process_gets_exactly_its_quota():
    throttle, request = in_redis(High)(), anonymous_request("203.0.113.81")
    block = lease_size(HIGH)
    results = [throttle.allow_request(request, None)]  # the connection made, the script registered: a lease
    with counted() as trips:
        results += [throttle.allow_request(request, None) for _ in range(HIGH + 4)]
    assert sum(results) == HIGH and results[-5:] == [False] * 5
    assert trips.cache == HIGH // block - 1 + 5  # a round trip for each further lease, and one for each refusal
    assert 0 < throttle.wait() <= 60


@pytest.mark.skipif(configuration() != "postgres", reason="counts Redis round trips")
def test_a_lease_unused_for_its_time_is_given_back(monkeypatch):
    monkeypatch.setattr(cache_module, "LEASE_SECONDS", 0.05)
    shared = in_redis(High)
    throttle, request = shared(), anonymous_request("203.0.113.82")
    key = shared.cache.make_and_validate_key(f"{throttle.get_cache_key(request, None)}:window")
    client = shared.cache._cache.get_client(write=True)
    assert throttle.allow_request(request, None)
    assert client.zcard(key) == lease_size(HIGH)  # counted ahead
    time.sleep(0.1)
    assert throttle.allow_request(request, None)  # a new lease, the old one's unused slots given back
    assert client.zcard(key) == 1 + lease_size(HIGH)
    assert throttle.window.count == 2


@pytest.mark.skipif(configuration() != "postgres", reason="leases are Redis's")
def test_a_process_forgets_the_leases_whose_window_has_passed(monkeypatch):
    """A long-lived process counts for client after client: past LEASES_KEPT leases, those whose window has passed
    are dropped (their slots have left the window in Redis), and a live one is kept with its slots."""
    monkeypatch.setattr(cache_module, "LEASES_KEPT", 3)
    cache = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": f"rate-window-{uuid.uuid4().hex}"})
    for n in range(3):
        assert cache.count_in_window(f"gone-{n}", HIGH, 0.05).allowed
    time.sleep(0.1)  # their windows have passed
    assert cache.count_in_window("live", HIGH, 60).allowed
    assert cache.count_in_window("next", HIGH, 60).allowed
    assert sorted(cache._leases) == ["live", "next"]
    with counted() as trips:  # the live client's lease still answers in this process
        assert cache.count_in_window("live", HIGH, 60).allowed
    assert trips.cache == 0


def test_the_limit_admits_exactly_its_quota_in_one_process():
    caches["rates"].clear()
    throttle, request = Tight(), anonymous_request("203.0.113.79")
    assert sum(throttle.allow_request(request, None) for _ in range(LIMIT + 5)) == LIMIT
    assert 0 < throttle.wait() <= 60


def test_while_redis_does_not_answer_the_stand_in_counts_the_window():
    from tests.faults.support import spare_port

    cache = RedisCache(f"redis://127.0.0.1:{spare_port()}/0", {"FALLBACK": "rates"})
    key = f"rate-window-outage-{uuid.uuid4().hex}"
    assert [cache.count_in_window(key, 2, 60).allowed for _ in range(3)] == [True, True, False]
    assert caches["rates"].get(key)  # counted in the stand-in, the process's own cache


def test_a_lease_is_a_twentieth_of_the_limit_and_at_most_50_requests():
    assert [lease_size(limit) for limit in (1, 30, 40, 120, 600, 100_000)] == [1, 1, 2, 6, 30, 50]
