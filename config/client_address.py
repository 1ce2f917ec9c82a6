"""The client's address, for every throttle and for the log-in limits: one rule, one setting.

TRUSTED_PROXY_COUNT is the number of proxies in front of the web server that append to
X-Forwarded-For. At 0 (the default) the header is ignored and REMOTE_ADDR is the client; at n the
client is the n-th address from the right of X-Forwarded-For (what the outermost trusted proxy
saw), so addresses a client writes into the header itself are never believed.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str:
    if request is None:
        return "unknown"
    meta = request.META
    remote = meta.get("REMOTE_ADDR") or "unknown"
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",")]
    candidate = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:  # not an address: our proxy did not write it
        return remote
