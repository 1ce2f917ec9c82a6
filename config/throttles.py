"""API rate limits. Rates are settings (REST_FRAMEWORK.DEFAULT_THROTTLE_RATES), per scope:

- anon_burst: every anonymous API request, per address;
- writes: every authenticated unsafe request (POST, PUT, PATCH, DELETE), per user;
- search, imports, runs: the expensive endpoints (card search; deck import and validation; run
  submission), per user or, anonymously, per address. A view opts in with `throttle_scope`.

The address is config.client_address's (TRUSTED_PROXY_COUNT), never DRF's own reading of
X-Forwarded-For. A refusal is a 429 in the error envelope with Retry-After. With several processes
the cache must be shared (CACHE_URL pointing at Redis), or each process counts on its own.
"""

from rest_framework import throttling

from .client_address import client_address


class ClientAddressMixin:
    def get_ident(self, request):
        return client_address(request)


class AnonBurstThrottle(ClientAddressMixin, throttling.AnonRateThrottle):
    scope = "anon_burst"


class ScopedRateThrottle(ClientAddressMixin, throttling.ScopedRateThrottle):
    pass


class UserWriteThrottle(throttling.UserRateThrottle):
    """Every authenticated unsafe request, per user (reads and anonymous requests are not counted here)."""

    scope = "writes"

    def allow_request(self, request, view):
        if request.method in ("GET", "HEAD", "OPTIONS") or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)
