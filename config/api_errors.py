"""The one error envelope of the whole API.

Every error answers {"error": {"code": ..., "message": ..., "details": {...}}}.
`details` carries what locates the problem: a query position, a line number, the
fields that failed validation. Services, selectors, job kinds and engines raise
core.errors.DomainError (which knows nothing of DRF); this handler maps it to the
envelope and its status, so views never build error responses by hand. A 400 is a request that breaks
the schema; a request that fits it and is still refused (an unknown card, a query that does not
parse, a move the rules forbid) is a 422, whatever raised it.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DataError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import DomainError, ErrorCode

from .throttles import anonymous_refusal, rate_limit_headers


class ApiError(exceptions.APIException):
    """The API's form of a domain error: a stable code, a status and the details that locate it."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = ErrorCode.BAD_REQUEST
    default_detail = "The request is not valid."

    def __init__(self, message: str | None = None, *, code: str | None = None,
                 details: dict[str, Any] | None = None, status_code: int | None = None) -> None:
        super().__init__(message or self.default_detail, code or self.default_code)
        self.code = code or self.default_code
        self.details = details or {}
        if status_code is not None:
            self.status_code = status_code


def _api_exception(exc: DomainError) -> ApiError:
    error = ApiError(exc.message, code=exc.code, details=exc.details, status_code=exc.status_code)
    error.__cause__ = exc
    return error


def _code_for(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    return exc.default_code if isinstance(exc.default_code, str) else "error"


def _method_not_allowed(context: dict[str, Any]) -> exceptions.MethodNotAllowed | None:
    """405 for a method the view has no handler for. DRF authenticates and checks permissions before it looks the
    handler up, so without this an anonymous POST to a read-only resource would be a 401 (or a 403): whether a
    resource takes a method does not depend on who asks (RFC 9110 §15.5.6), and a login would not help."""
    request, view = context.get("request"), context.get("view")
    if request is None or view is None or request.method.upper() in view.allowed_methods:
        return None
    return exceptions.MethodNotAllowed(request.method)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed, exceptions.PermissionDenied,
                        PermissionDenied)):
        exc = _method_not_allowed(context) or exc
    if isinstance(exc, DomainError):
        exc = _api_exception(exc)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, DataError):  # a value the database can't store (a NUL character, an out-of-range number)
        exc = ApiError("A value in the request can't be stored: " + str(exc).split("\n")[0],
                       code=ErrorCode.INVALID_VALUE)
    elif isinstance(exc, (exceptions.AuthenticationFailed, exceptions.NotAuthenticated)):
        exc = anonymous_refusal(context.get("request"), context.get("view")) or exc
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ApiError):
        body = {"code": exc.code, "message": str(exc.detail), "details": exc.details}
    elif isinstance(exc, exceptions.ValidationError):
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        first = next(iter(fields.items()), ("", [""]))
        name, problems = first
        problem = problems
        while isinstance(problem, (list, dict)) and problem:  # the first message, however deeply nested
            problem = problem[0] if isinstance(problem, list) else next(iter(problem.values()))
        body = {
            "code": ErrorCode.INVALID,
            "message": f"{name}: {problem}" if name != "non_field_errors" else str(problem),
            "details": {"fields": fields},
        }
    elif isinstance(exc, exceptions.Throttled):
        body = {"code": ErrorCode.THROTTLED, "message": str(exc.detail), "details": {"retry_after_seconds": exc.wait}}
    else:
        body = {"code": _code_for(exc), "message": str(exc.detail), "details": {}}
    response.data = {"error": body}
    if response.status_code == 400 and getattr(context.get("request"), "fits_the_schema", False):
        # The schema's rules are the 400s (config.api_contract refuses what breaks them before the handler runs);
        # a refusal after that is by a rule no schema states: the content is well formed but can't be processed.
        response.status_code = 422
    if isinstance(exc, ApiError) and response.status_code == 429 and "retry_after_seconds" in exc.details:
        response["Retry-After"] = str(exc.details["retry_after_seconds"])  # every 429 says when to try again
    if isinstance(exc, exceptions.Throttled):
        for name, value in rate_limit_headers(getattr(context.get("request"), "rate_limit_refusals", []),
                                              exc.wait).items():
            response[name] = value
    return response
