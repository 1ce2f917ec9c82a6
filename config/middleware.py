"""Request bounds, checked before any view reads a body or a parameter."""

from __future__ import annotations

from urllib.parse import unquote_plus

from django.conf import settings

from .errors import error_response


class RequestBodyLimitMiddleware:
    """Refuse a body over DATA_UPLOAD_MAX_MEMORY_SIZE with 413, before anything reads it.

    Django bounds `request.body` itself, but DRF's parsers read the stream directly, so the
    declared length is checked here for every request.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = request.META.get("CONTENT_LENGTH") or "0"
        try:
            size = int(raw)
        except ValueError:
            return error_response(request, 400, "bad_content_length",
                                  f"Content-Length {raw[:40]!r} is not a number of bytes.")
        if "\x00" in unquote_plus(request.META.get("QUERY_STRING", "")):
            # No text column can hold a NUL character: refuse it here rather than fail in the database.
            return error_response(request, 400, "invalid_character",
                                  "The query string contains a NUL character (%00), which no parameter may hold.")
        if limit is not None and size > limit:
            return error_response(request, 413, "payload_too_large",
                                  f"The request body is {size} bytes; the limit is {limit} bytes.",
                                  details={"limit": limit, "size": size})
        return self.get_response(request)
