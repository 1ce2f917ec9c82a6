"""Request bounds, checked before any view reads a body or a parameter; the API's rate limits on the pages that
cost what their API twins cost; and no shared cache of what a visitor's credentials made.

One rule for the NUL character (which no text column can hold, and which PostgreSQL refuses with an
error): it is refused wherever a request can carry text to a view — the path, the query string and
every form field — before anything looks it up or stores it. JSON bodies are checked by the API's
parser (config/parsers.py).
"""

from __future__ import annotations

import functools
import math
from urllib.parse import unquote_plus

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.core.exceptions import BadRequest
from django.core.signals import setting_changed
from django.http.multipartparser import MultiPartParserError
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.functional import SimpleLazyObject, empty

from core.intbounds import shortened

from .errors import bad_request, error_response
from .throttles import ScopedRateThrottle, rate_limit_headers, rate_limit_standing_headers

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _form_has_nul(request) -> bool:
    """Whether a form field holds a NUL; raises MultiPartParserError for a multipart body that cannot be read."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return False
    if not request.content_type or request.content_type not in FORM_TYPES:
        return False
    for key, values in request.POST.lists():
        if "\x00" in key or any("\x00" in value for value in values):
            return True
    return False


class RequestBodyLimitMiddleware:
    """Refuse a body over DATA_UPLOAD_MAX_MEMORY_SIZE with 413, before anything reads it, and a NUL
    character in the path, the query string or a form field with 400.

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
                                  f"Content-Length “{shortened(raw)}” is not a number of bytes.")
        if limit is not None and size > limit:
            return error_response(request, 413, "payload_too_large",
                                  f"The request body is {size} bytes; the limit is {limit} bytes.",
                                  details={"limit": limit, "size": size})
        # No text column can hold a NUL character: refuse it here rather than fail in the database.
        if "\x00" in request.path:
            return error_response(request, 400, "invalid_character",
                                  "The path contains a NUL character (%00), which no address may hold.")
        if "\x00" in unquote_plus(request.META.get("QUERY_STRING", "")):
            return error_response(request, 400, "invalid_character",
                                  "The query string contains a NUL character (%00), which no parameter may hold.")
        try:
            has_nul = _form_has_nul(request)
        except MultiPartParserError as exc:  # a multipart body without its boundary, say: the client's error
            return error_response(request, 400, "invalid_body", f"The multipart body cannot be read: {exc}.")
        if has_nul:
            return error_response(request, 400, "invalid_character",
                                  "A form field contains a NUL character, which no field may hold; nothing was saved.")
        return self.get_response(request)


def _every_request(request) -> bool:
    return True


class PageThrottleMiddleware:
    """A page view that declares `throttle_scope` (as an API view does, e.g. the catalog's search page) is counted in
    that scope of the API's rate limits, with the API's own requests of it: a client's searches on the pages and in
    the API share one allowance. Its `throttle_methods` (the methods counted: every one if not said) and its
    `throttle_counts` (whether a request is counted: every one if not said) narrow what is counted. Beyond it, the
    site's 429 page with Retry-After. (An API view carries its scope on its class, not on the function routed to, so
    it is counted by DRF alone.)

    On the way out, every response to a request that a limit counted, a page's or the API's, gets the RateLimit fields
    of those limits (config.throttles): worked out for this request, after the check, whatever answered it (a cached
    answer too). A 429 keeps the fields of the limits it refused."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "RateLimit" not in response:
            for name, value in rate_limit_standing_headers(getattr(request, "rate_limit_standing", ())).items():
                response[name] = value
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(view_func, "throttle_scope", None) is None:
            return None
        if request.method not in getattr(view_func, "throttle_methods", (request.method,)):
            return None  # a view whose limit counts its sends alone (a sign-up), not its page's views
        if not getattr(view_func, "throttle_counts", _every_request)(request):
            return None  # a send that is not what the limit counts (a form shown again with one more seat)
        throttle = ScopedRateThrottle()
        if throttle.allow_request(request, view_func):
            return None
        wait = math.ceil(throttle.wait() or 1)
        headers = {"Retry-After": str(wait), **rate_limit_headers(request.rate_limit_refusals, wait)}
        return error_response(request, 429, "throttled", f"Too many requests like this one; try again in {wait} "
                              f"second{'s' if wait != 1 else ''}.", headers=headers)


_CREDENTIALS = frozenset(("cookie", "authorization"))  # request headers that make a response a visitor's own


class PrivateCacheMiddleware:
    """A response made with the visitor's credentials (a session, a token) is for that visitor alone: `Cache-Control:
    private`, so that no shared cache (a proxy, a CDN) keeps it for another. It is made with them when it varies on
    Cookie (Django says so of every response that read the session or the CSRF cookie) or the request carried an
    Authorization header (which the API reads: said here as Vary: Authorization). A response that no cache may store
    at all (no-store) is left as it is."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "HTTP_AUTHORIZATION" in request.META:
            patch_vary_headers(response, ("Authorization",))
        vary = response.get("Vary")
        if vary and not _CREDENTIALS.isdisjoint(field.strip().lower() for field in vary.split(",")):
            control = response.get("Cache-Control")
            if control is None:  # most: said at once, without parsing and writing back the header
                response["Cache-Control"] = "private"
            elif "no-store" not in control:
                patch_cache_control(response, private=True)
        return response


# What a view or a template sets to change the policy of its own response (django-csp's decorators and nonce).
_OWN_POLICY = frozenset(("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt",
                         "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro", "_csp_exempt_ro"))


@functools.cache
def _site_policy() -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """(header, value, excluded path prefixes) of the policy and of the report-only one, from the settings."""
    return tuple((header, value, tuple((getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()))
                 for header, setting, report_only in ((HEADER, "CONTENT_SECURITY_POLICY", False),
                                                      (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True))
                 if (value := build_policy(report_only=report_only)))


def _forget_site_policy(*, setting, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _site_policy.cache_clear()


setting_changed.connect(_forget_site_policy)


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the site's policy built once per process: no page of the product changes its
    policy or takes a nonce, so the header is the same string on every response, and building it again for each
    (two policies, each from a copy of the settings) was about a twentieth of a small request's CPU. A response
    that does change it (a decorator, a nonce) and the debug pages go the library's way. Called directly rather than
    through Django's MiddlewareMixin, and a response's own policy found in its attributes in one look (the decorators
    set them on the response) rather than eight: together a twenty-fifth of a small request's instructions."""

    async_capable = False  # a plain __call__: Django adapts it where a server is asynchronous

    def __call__(self, request):
        self.process_request(request)
        return self.process_response(request, self.get_response(request))

    def process_response(self, request, response):
        if getattr(request, "_csp_nonce", None) is not None or settings.DEBUG \
                or not _OWN_POLICY.isdisjoint(response.__dict__):
            return super().process_response(request, response)
        for header, value, excluded in _site_policy():
            if header not in response and not request.path_info.startswith(excluded):
                response[header] = value
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # as the library: too late for one
        return response


class LazyMessageMiddleware(MessageMiddleware):
    """Django's MessageMiddleware, its storage made when a view or a page first uses it. Django makes it for every
    request (a cookie signer and a session storage each time, about a fifteenth of a signed-in API read's
    instructions), and the API never adds or shows a message. A storage never used has nothing to store: Django's
    update would have done nothing."""

    def process_request(self, request):
        request._messages = SimpleLazyObject(lambda: default_storage(request))

    def process_response(self, request, response):
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response
        return super().process_response(request, response)


SERVED_METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
PAGE_METHODS = "GET, HEAD, POST, OPTIONS"  # the most any page takes


class MethodNotAllowedPageMiddleware:
    """A page address visited with a method it does not take (a form's action opened as a link: `/decks/7/copy/`)
    answers Django's bare 405; it gets the site's error page saying what to do, its Allow header kept. The API's
    405s already carry their envelope. A method no page takes (TRACE: some pages answered it as a GET) is a 405
    before any view."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in SERVED_METHODS and not request.path.startswith("/api/"):
            # TRACE, CONNECT, WebDAV's: no page takes one (some answered it as a GET). The API's views refuse
            # them themselves, with the methods each takes.
            return error_response(request, 405, "method_not_allowed",
                                  f"This page does not take {shortened(request.method, 20)} requests.",
                                  headers={"Allow": PAGE_METHODS})
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.path.startswith("/api/"):
            return response
        allowed = response.get("Allow", "")
        if "GET" in allowed:
            return error_response(request, 405, "method_not_allowed", "This address does not take that request.",
                                  headers={"Allow": allowed})
        # A form's action is its page's address and one word more (`/decks/7/copy/` is `/decks/7/`'s): the way back.
        return error_response(request, 405, "method_not_allowed",
                              "This address is a form's action: it is used by a button on its page, not opened. "
                              "Go back to the page and use the button.", headers={"Allow": allowed},
                              back=request.path.rstrip("/").rpartition("/")[0] + "/")


class BadRequestPageMiddleware:
    """A page's refusal of what it was asked (BadRequest: a filter it does not know, a page that is not a number) is
    the player's to read, with DEBUG on too, where Django would show its technical page for it, as for a crash."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return bad_request(request, exception) if isinstance(exception, BadRequest) else None
