"""Authentication with the failure throttle, for every way in: log-in page, admin, HTTP Basic."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from drf_spectacular.authentication import BasicScheme
from rest_framework.authentication import BasicAuthentication
from rest_framework.exceptions import AuthenticationFailed, Throttled

from . import throttle


class ThrottledModelBackend(ModelBackend):
    """ModelBackend that checks no password while the failed log-in limits refuse it.

    A refusal is left on the request (`request.login_refusal`) for the page to answer 429 with it.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(self._username_field(), "")
        refusal = throttle.check(request, username) if username else None
        if refusal is not None:
            if request is not None:
                request.login_refusal = refusal
            return None
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if username:
            if user is None:
                throttle.record_failure(request, username)
            else:
                throttle.record_success(request, username)
        return user

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return get_user_model().USERNAME_FIELD


class ThrottledBasicAuthentication(BasicAuthentication):
    """HTTP Basic that answers 429 (in the error envelope) instead of 401 once the account is locked."""

    def authenticate_credentials(self, userid, password, request=None):
        if "\x00" in userid or "\x00" in password:  # no account can have it; don't ask the database
            raise AuthenticationFailed("Invalid username/password.")
        try:
            return super().authenticate_credentials(userid, password, request)
        except AuthenticationFailed:
            refusal = getattr(request, "login_refusal", None)
            if refusal is not None:
                raise Throttled(wait=refusal.retry_after, detail=refusal.message) from None
            raise


class ThrottledBasicScheme(BasicScheme):
    """The schema documents it as plain HTTP Basic."""

    target_class = ThrottledBasicAuthentication
    priority = 0
