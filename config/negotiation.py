"""The API's content negotiation: DRF's, but an unknown `?format=` is a 400 that names the parameter and the forms
the endpoint answers in, where DRF answers a bare 404 "Not found." (a client filtering decks with `format=standard`
read it as "no such endpoint")."""

from __future__ import annotations

from rest_framework.negotiation import DefaultContentNegotiation

from core.errors import DomainError, ErrorCode
from core.formats import FORMAT_SLUGS
from core.intbounds import shortened


class NamedFormat(DefaultContentNegotiation):
    def select_renderer(self, request, renderers, format_suffix=None):
        # Most requests ask for no form (no Accept, */*, or the first renderer's own type, no ?format=): DRF's
        # answer, the first renderer, is given without building the request's headers and query parameters
        # (a tenth of a small request's CPU).
        meta = request._request.META
        first = renderers[0]
        if not format_suffix and "format=" not in meta.get("QUERY_STRING", "") \
                and meta.get("HTTP_ACCEPT", "*/*") in ("*/*", first.media_type):
            return first, first.media_type
        return super().select_renderer(request, renderers, format_suffix)

    def filter_renderers(self, renderers, format):
        chosen = [renderer for renderer in renderers if renderer.format == format]
        if chosen:
            return chosen
        allowed = sorted({renderer.format for renderer in renderers})
        hint = f"; a deck's format is filtered by deck_format={format}" if format in FORMAT_SLUGS else ""
        raise DomainError(f"format chooses the answer's form, one of {', '.join(allowed)}, "
                          f"not “{shortened(format)}”{hint}.",
                          code=ErrorCode.INVALID_PARAMETER, details={"parameter": "format", "allowed": allowed})
