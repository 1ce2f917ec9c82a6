"""Authentication with the failure throttle, for every way in: log-in page, admin, HTTP Basic."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from drf_spectacular.authentication import BasicScheme
from rest_framework.authentication import BasicAuthentication
from rest_framework.exceptions import AuthenticationFailed, Throttled

from . import throttle


class ThrottledModelBackend(ModelBackend):
    """ModelBackend that refuses to check a password while its username and address are locked."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(self._username_field(), "")
        address = throttle.client_address(request)
        if username and throttle.is_locked(username, address):
            return None
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if username:
            if user is None:
                throttle.record_failure(username, address)
            else:
                throttle.record_success(username, address)
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
        if throttle.is_locked(userid, throttle.client_address(request)):
            raise Throttled(detail=throttle.lock_message())
        return super().authenticate_credentials(userid, password, request)


class ThrottledBasicScheme(BasicScheme):
    """The schema documents it as plain HTTP Basic."""

    target_class = ThrottledBasicAuthentication
    priority = 0
