"""Whole-number query parameters within declared bounds: one rule for the API's pages, page sizes
and counts. A value outside them is a 400 `invalid_parameter` naming the parameter and the allowed
range ("page_size must be a whole number from 1 to 200, not '500'."); nothing is clamped or read
another way. The same bounds are declared in the schema (`schema_parameter`)."""

from __future__ import annotations

from collections.abc import Mapping

from core.errors import DomainError

MAX_PAGE = 1_000_000


def whole_number(params: Mapping[str, str], name: str, *, low: int, high: int, default: int) -> int:
    """`params[name]` as a whole number from `low` to `high` (ASCII digits only), `default` when absent."""
    raw = params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit() and low <= int(raw) <= high):
        allowed = f"a whole number from {low} to {high}"
        shown = raw if len(raw) <= 40 else raw[:40] + "…"
        raise DomainError(f"{name} must be {allowed}, not {shown!r}.", code="invalid_parameter",
                          details={"parameter": name, "allowed": allowed, "value": shown})
    return int(raw)


def schema_parameter(name: str, *, low: int, high: int, description: str) -> dict:
    """The parameter as the OpenAPI schema declares it, bounds included."""
    return {"name": name, "required": False, "in": "query", "description": f"{description} From {low} to {high}.",
            "schema": {"type": "integer", "minimum": low, "maximum": high}}
