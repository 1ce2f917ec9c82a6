"""API rate limits. Rates are settings (REST_FRAMEWORK.DEFAULT_THROTTLE_RATES), per scope:

- anon_burst: every anonymous API request, per address;
- writes: every authenticated unsafe request (POST, PUT, PATCH, DELETE), per user;
- search, imports, runs: the expensive endpoints (card search; deck import and validation; run
  submission), per user or, anonymously, per address. A view opts in with `throttle_scope`.

The address is config.client_address's (TRUSTED_PROXY_COUNT), never DRF's own reading of
X-Forwarded-For. A refusal is a 429 in the error envelope with Retry-After, and with the IETF
RateLimit fields (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "search";q=600;w=60`
(the quota and its window in seconds) and `RateLimit: "search";r=0;t=12` (what remains and the
seconds until the window frees a request), one item per limit refused. With several processes the
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
    """Counts in the "rates" cache, one round trip a limit (config/rate_window.py), and remembers a refusal on the
    request, for the RateLimit fields of the 429 (config.api_errors)."""

    cache = ConnectionProxy(caches, "rates")

    def allow_request(self, request, view):
        if super().allow_request(request, view):
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
