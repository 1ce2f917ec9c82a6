"""The client's address, for every throttle and for the log-in limits."""

from __future__ import annotations


def client_address(request) -> str:
    if request is None:
        return "unknown"
    return request.META.get("REMOTE_ADDR") or "unknown"
