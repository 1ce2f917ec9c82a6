"""Password authentication with the failed log-in limits, for every way in: the log-in page, the admin,
account deletion. (The API takes personal access tokens: config/accounts/tokens.py.)"""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend

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
