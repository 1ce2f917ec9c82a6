"""API rate limits. Rates are settings (REST_FRAMEWORK.DEFAULT_THROTTLE_RATES), per scope:

- anon_burst: every anonymous API request, per address;
- search, imports, runs: the expensive endpoints (card search; deck import and validation; run
  submission), per user or, anonymously, per address. A view opts in with `throttle_scope`.

A refusal is a 429 in the error envelope with Retry-After. With several processes the cache must
be shared (CACHE_URL pointing at Redis), or each process counts on its own.
"""

from rest_framework.throttling import AnonRateThrottle


class AnonBurstThrottle(AnonRateThrottle):
    scope = "anon_burst"
