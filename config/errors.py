"""Error responses outside DRF views: the body limit, uncaught exceptions, the database being down.

API paths answer in the one error envelope (see config.api_errors); pages answer a short page.
"""

from __future__ import annotations

import html
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader

DATABASE_RETRY_SECONDS = 5


def is_api(request) -> bool:
    return request.path.startswith("/api/")


HEADINGS = {400: "The request can't be read", 403: "Not allowed", 404: "Page not found",
            405: "Not a way to use this page", 413: "Too much sent", 429: "Too many requests",
            500: "Something went wrong", 503: "Unavailable for a moment"}


def error_response(request, status: int, code: str, message: str, details: dict | None = None,
                   headers: dict | None = None, back: str = "") -> HttpResponse:
    """The error envelope on API paths; elsewhere the site's page, with its header and a way on (`back`: the page
    the refused request belongs to), or, when the site's frame cannot be drawn (the database is down, the template
    layer failed), a plain page of its own."""
    if is_api(request):
        response = JsonResponse({"error": {"code": code, "message": message, "details": details or {}}},
                                status=status)
    else:
        context = {"status": status, "message": message, "heading": HEADINGS.get(status, "Error"), "back": back}
        try:
            body = loader.render_to_string("error_page.html", context, request=request)
        except Exception:
            try:
                body = loader.render_to_string("error.html", context)
            except Exception:  # the template layer may itself be what failed
                body = (f"<!doctype html><title>Error {status}</title><h1>Error {status}</h1>"
                        f"<p>{html.escape(message)}</p>")
        response = HttpResponse(body, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def server_error(request) -> HttpResponse:
    """handler500: called while the uncaught exception is being handled, so it can look at it."""
    exc = sys.exc_info()[1]
    if isinstance(exc, (OperationalError, InterfaceError)):
        return error_response(request, 503, "database_unavailable",
                              "The database is unavailable for a moment; try again in a few seconds.",
                              headers={"Retry-After": str(DATABASE_RETRY_SECONDS)})
    return error_response(request, 500, "server_error", "Something went wrong on our side; it was logged.")


def bad_request(request, exception=None) -> HttpResponse:
    """handler400: the words of a page's own refusal (BadRequest: a malformed parameter, say); Django's other
    400s (a suspicious host or a broken session) are not the player's to read, so they say nothing of their cause."""
    from django.core.exceptions import BadRequest

    reason = str(exception) if isinstance(exception, BadRequest) and str(exception) else "The request cannot be read."
    return error_response(request, 400, "bad_request", reason)


def permission_denied(request, exception=None) -> HttpResponse:
    """handler403: the site's error page (the envelope on API paths) with the refusal's reason."""
    reason = str(exception) if exception is not None and str(exception) else "You may not do this."
    return error_response(request, 403, "permission_denied", reason)


def not_found(request, exception=None) -> HttpResponse:
    """handler404: the envelope on API paths (a path that matches no route, too); the site's page elsewhere, which
    says no more than that nothing is there (a private deck is "not found" to whoever may not see it)."""
    if is_api(request):
        return error_response(request, 404, "not_found", f"Nothing at {request.path[:200]}.")
    return error_response(request, 404, "not_found", "There is nothing here: the address may be mistyped, or what "
                                                     "it showed was removed or made private.")


def csrf_failure(request, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: a form sent from a page that was out of date, in words a player can act on."""
    return error_response(request, 403, "csrf_failed", "This form was out of date (you may have logged in or out in "
                                                       "another tab, or left the page open a long while), so nothing "
                                                       "was done: reload the page and send it again.")
