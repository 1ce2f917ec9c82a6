"""Password authentication with the failed log-in limits, for every way in: the log-in page, the admin,
account deletion. (The API takes personal access tokens: config/accounts/tokens.py.)"""

from __future__ import annotations

import time

from django.contrib.auth.backends import ModelBackend
from django.db.models.base import ModelState

from . import throttle

# The signed-in user of a session, remembered in this process for USER_MEMO_SECONDS: every signed-in request reads
# it, and its row is the only query of the cheapest ones. The session itself is read from the shared store, or from
# a copy that Redis's notices drop the moment it changes (config/accounts/sessions.py), so a log-out ends it
# everywhere at once; a change to the user's row (a new password, an account made
# inactive) is seen at once by the process that made it (the memo forgets that user on save and delete) and by every
# other within those seconds.
USER_MEMO_SECONDS = 2.0
USER_MEMO_LIMIT = 10_000
_users: dict[object, tuple[float, object]] = {}  # user id: (expiry on the monotonic clock, user)


def _own_copy(user):
    """copy.copy's answer for a model instance without going through pickling's protocol, several times the work: the
    instance's fields with a ModelState of its own, its fields cache copied (ModelState.__getstate__ copies it)."""
    clone = user.__class__.__new__(user.__class__)
    clone.__dict__.update(user.__dict__)
    clone._state = ModelState()
    clone._state.__dict__.update(user._state.__getstate__())
    return clone


def forget_user(user_id) -> None:
    _users.pop(user_id, None)


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

    def get_user(self, user_id):
        now = time.monotonic()
        kept = _users.get(user_id)
        if kept is not None and now < kept[0]:
            return _own_copy(kept[1])  # a request's own copy: what a view changes on it stays in that request
        user = super().get_user(user_id)
        if user is not None:
            if len(_users) >= USER_MEMO_LIMIT:
                _users.clear()
            _users[user_id] = (now + USER_MEMO_SECONDS, _own_copy(user))
        return user

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return get_user_model().USERNAME_FIELD
