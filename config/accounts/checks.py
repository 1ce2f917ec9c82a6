"""`check --deploy` warnings about the log-in limits' setting."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def trusted_proxy_count_behind_a_proxy(app_configs, **kwargs) -> list[Warning]:
    """A site behind a TLS proxy (SECURE_PROXY_SSL_HEADER set) that counts no proxy sees every client at the proxy's
    address: five failed log-ins to an account then refuse it to every browser that has not logged in to it before,
    and the rate limits are shared by all (docs/operations.md)."""
    if settings.SECURE_PROXY_SSL_HEADER and settings.TRUSTED_PROXY_COUNT <= 0:
        return [Warning(
            "SECURE_PROXY_SSL_HEADER is set, so the site is behind a proxy, but TRUSTED_PROXY_COUNT is 0: every "
            "client has the proxy's address, LOGIN_FAILURE_LIMIT failed log-ins to an account lock it for every "
            "browser that has not logged in to it before (until an e-mailed link lets one in), and the rate limits "
            "count all clients as one.",
            hint="Set TRUSTED_PROXY_COUNT to the number of proxies that append to X-Forwarded-For (1 behind one "
                 "TLS proxy); see docs/operations.md.",
            id="dreadgate.W001")]
    return []
