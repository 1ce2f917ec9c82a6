"""API rate limits. Rates are settings (REST_FRAMEWORK.DEFAULT_THROTTLE_RATES), per scope:

- anon_burst: every anonymous API request, per address;
- writes: every authenticated unsafe request (POST, PUT, PATCH, DELETE), per user;
- search, imports, runs: the expensive endpoints (card search; deck import and validation; run
  submission), per user or, anonymously, per address. A view opts in with `throttle_scope`.

The address is config.client_address's (TRUSTED_PROXY_COUNT), never DRF's own reading of
X-Forwarded-For. Every response to a request that a limit counted carries the IETF RateLimit fields
(draft-ietf-httpapi-ratelimit-headers), one item per limit, so that a client paces itself before it is
refused: `RateLimit-Policy: "search";q=600;w=60` (the quota and its window in seconds) and
`RateLimit: "search";r=597;t=60` (the requests that remain and the seconds until the window frees one).
They are worked out from the count of this request, after the limits are checked, and added to the
response on its way out (config.middleware.PageThrottleMiddleware), never kept with a cached answer.
A refusal is a 429 in the error envelope with Retry-After and the fields of the limits refused
(`RateLimit: "search";r=0;t=12`, the wait the same as Retry-After's). With several processes the
cache must be shared (CACHE_URL pointing at Redis), or each process counts on its own. The counts are
the "rates" cache: while Redis does not answer, each process counts on its own (config/cache.py).

A request refused as unauthenticated (an unknown token; none where one is needed) stops before the
throttles run: config.api_errors counts it against the anonymous limit (anonymous_refusal). Pages that
cost what their API twins cost declare a `throttle_scope` too (config.middleware.PageThrottleMiddleware).
"""

import math

from django.core.cache import caches
from django.utils.connection import ConnectionProxy
from rest_framework import exceptions, throttling

from .client_address import client_address
from .rate_window import SlidingWindowMixin


class PolicyMixin(SlidingWindowMixin):
    """Counts in the "rates" cache, one round trip a limit (config/rate_window.py), and remembers on the request what
    the count left (for the RateLimit fields of every response) and a refusal (for those of the 429,
    config.api_errors)."""

    cache = ConnectionProxy(caches, "rates")

    def allow_request(self, request, view):
        if super().allow_request(request, view):
            if self.window is not None:  # counted (a limit that does not apply counts nothing)
                window = self.window
                reset = math.ceil(max(window.oldest + self.duration - window.now, 0))
                # On the HTTP request, which DRF's wraps, so that the middleware finds it on the way out.
                http_request = getattr(request, "_request", request)
                standing = getattr(http_request, "rate_limit_standing", [])
                standing.append((self.scope, self.num_requests, self.duration,
                                 max(self.num_requests - window.count, 0), reset))
                http_request.rate_limit_standing = standing
            return True
        wait = self.wait()
        refusals = getattr(request, "rate_limit_refusals", [])
        refusals.append((self.scope, self.num_requests, self.duration, math.ceil(wait or 0)))
        request.rate_limit_refusals = refusals
        return False


def rate_limit_headers(refusals, retry_after: float | None = None) -> dict[str, str]:
    """RateLimit and RateLimit-Policy for the limits a request exceeded (PolicyMixin's refusals); the
    longest wait is Retry-After's own figure, so the two never disagree."""
    if not refusals:
        return {}
    if retry_after is not None:
        longest = max(wait for *_, wait in refusals)
        refusals = [(*r[:3], math.ceil(retry_after) if r[3] == longest else r[3]) for r in refusals]
    return {
        "RateLimit-Policy": ", ".join(f'"{scope}";q={quota};w={window}' for scope, quota, window, _ in refusals),
        "RateLimit": ", ".join(f'"{scope}";r=0;t={wait}' for scope, _, _, wait in refusals),
    }


def rate_limit_standing_headers(standing) -> dict[str, str]:
    """RateLimit and RateLimit-Policy for the limits that counted a request and let it through (PolicyMixin's
    standing: scope, quota, window, remaining, seconds until the window frees a request)."""
    if not standing:
        return {}
    return {
        "RateLimit-Policy": ", ".join(f'"{scope}";q={quota};w={window}' for scope, quota, window, _, _ in standing),
        "RateLimit": ", ".join(f'"{scope}";r={left};t={reset}' for scope, _, _, left, reset in standing),
    }


class ClientAddressMixin:
    def get_ident(self, request):
        return client_address(request)


class AnonBurstThrottle(PolicyMixin, ClientAddressMixin, throttling.AnonRateThrottle):
    scope = "anon_burst"

    def allow_request(self, request, view):
        request.anonymous_limit_counted = True
        return super().allow_request(request, view)


def anonymous_refusal(request, view) -> exceptions.Throttled | None:
    """Count a request refused as unauthenticated against the anonymous limit, unless the throttles have counted it:
    guessing tokens is limited like any other anonymous traffic. Beyond the limit, the refusal to answer with."""
    if request is None or getattr(request, "anonymous_limit_counted", False):
        return None
    throttle = AnonBurstThrottle()
    return None if throttle.allow_request(request, view) else exceptions.Throttled(throttle.wait())


class ScopedRateThrottle(PolicyMixin, ClientAddressMixin, throttling.ScopedRateThrottle):
    pass


class UserWriteThrottle(PolicyMixin, throttling.UserRateThrottle):
    """Every authenticated unsafe request, per user (reads and anonymous requests are not counted here)."""

    scope = "writes"

    def allow_request(self, request, view):
        if request.method in ("GET", "HEAD", "OPTIONS") or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)
