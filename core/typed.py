"""Whole numbers typed in a page's form: one left empty is None, anything else that is not one is refused in words
that name its field (a 400), never read as left empty. Their bounds are the services' to check (a seed's, a
number of games'), with the same field named."""

from __future__ import annotations

from .errors import DomainError, ErrorCode
from .intbounds import shortened


def typed_whole_number(raw: str | None, field: str, least: int = 0) -> int | None:
    """The number typed in `field`, or None when it was left empty; `least` is the smallest the field takes,
    said in the refusal of what is not a whole number (the services say the rest of its bounds)."""
    text = (raw or "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or int(text) < least:
        raise DomainError(f"{field}: “{shortened(text, 24)}” is not a whole number from {least} up.",
                          code=ErrorCode.INVALID, status_code=400, details={"field": field})
    return int(text)
