"""Personal access tokens: the API's authentication (`Authorization: Bearer <token>`).

A token is 32 random bytes, so one SHA-256 of it is enough to store it: a lookup costs one hash
and one indexed query, where HTTP Basic cost the full password hash on every request.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, SessionAuthentication, get_authorization_header

from core.intbounds import shortened

from .models import AccessToken

SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")  # as Django's CSRF check names them

TOKEN_PREFIX = "dgt_"
LAST_USED_RESOLUTION = timedelta(minutes=1)  # last use is written at most once a minute per token


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


class BearerTokenAuthentication(BaseAuthentication):
    """`Authorization: Bearer <token>`. A missing or unknown token, or any other scheme, is a 401
    with `WWW-Authenticate: Bearer` (this class comes first, so DRF challenges with it)."""

    keyword = "Bearer"

    def authenticate(self, request):
        if "HTTP_AUTHORIZATION" not in request._request.META:  # most requests: read without building their headers
            return None
        header = get_authorization_header(request).split()
        if not header:
            return None
        scheme = header[0].decode("latin-1").lower()
        if scheme == "basic":
            raise exceptions.AuthenticationFailed(
                "HTTP Basic is not accepted by the API; send a personal access token (create one on your account "
                "page) as 'Authorization: Bearer <token>'.")
        if scheme != self.keyword.lower():  # "Token …" and the like: said, not read as no credentials at all
            raise exceptions.AuthenticationFailed(
                f"The API takes a personal access token as 'Authorization: Bearer <token>'; the scheme "
                f"“{shortened(header[0].decode('latin-1'), 20)}” is not accepted.")
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Send the token as 'Authorization: Bearer <token>', one word.")
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("That token is not valid.") from None
        found = AccessToken.objects.select_related("user").filter(digest=digest(token)).first()
        if found is None or not found.user.is_active:
            raise exceptions.AuthenticationFailed("That token is not valid (unknown or revoked).")
        now = timezone.now()
        if found.last_used_at is None or now - found.last_used_at > LAST_USED_RESOLUTION:
            AccessToken.objects.filter(pk=found.pk).update(last_used_at=now)
        return found.user, found

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


class BrowserSessionAuthentication(SessionAuthentication):
    """DRF's session authentication, with its CSRF check made for the methods that need one: DRF runs Django's check
    on every request, whose answer for a safe method (GET, HEAD, OPTIONS, TRACE) is always to accept it."""

    def enforce_csrf(self, request):
        if request.method not in SAFE_METHODS:
            super().enforce_csrf(request)
