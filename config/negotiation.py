"""The API's content negotiation: DRF's, but an unknown `?format=` is a 400 that names the parameter and the forms
the endpoint answers in, where DRF answers a bare 404 "Not found." (a client filtering decks with `format=standard`
read it as "no such endpoint")."""

from __future__ import annotations

from rest_framework.negotiation import DefaultContentNegotiation

from core.errors import DomainError, ErrorCode
from core.formats import FORMAT_SLUGS


class NamedFormat(DefaultContentNegotiation):
    def filter_renderers(self, renderers, format):
        chosen = [renderer for renderer in renderers if renderer.format == format]
        if chosen:
            return chosen
        allowed = sorted({renderer.format for renderer in renderers})
        hint = f"; a deck's format is filtered by deck_format={format}" if format in FORMAT_SLUGS else ""
        raise DomainError(f"format chooses the answer's form, one of {', '.join(allowed)}, not {format[:40]!r}{hint}.",
                          code=ErrorCode.INVALID_PARAMETER, details={"parameter": "format", "allowed": allowed})
