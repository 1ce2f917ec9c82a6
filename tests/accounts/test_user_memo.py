"""The signed-in user remembered in the process (config.accounts.backends): read once per memo lifetime, forgotten at
once where the user's row is saved, and within the lifetime where it is changed by another process."""

from __future__ import annotations

import time
import warnings

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from config.accounts import backends
from tests.roundtrips import counted

pytestmark = pytest.mark.django_db

User = get_user_model()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def user_reads(trips) -> int:
    return sum('FROM "accounts_user"' in sql or 'FROM "auth_user"' in sql for sql in trips.sql)


def test_a_signed_in_request_reads_the_users_row_once_per_memo_lifetime():
    client = signed_in(User.objects.create_user("memo", password="a-long-passphrase-7"))
    with counted() as first:
        assert client.get("/api/keywords/").status_code == 200
    with counted() as second:
        assert client.get("/api/keywords/").status_code == 200
    assert user_reads(first) == 1 and user_reads(second) == 0


def test_an_account_made_inactive_elsewhere_is_refused_once_the_memo_lifetime_has_passed(monkeypatch):
    """Another process's change sends no signal here (an update of the row stands for it): the memo keeps the user
    until its lifetime ends, then the row is read again and the inactive account is signed out."""
    user = User.objects.create_user("elsewhere", password="a-long-passphrase-7")
    client = signed_in(user)
    assert "elsewhere" in client.get("/").content.decode()
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert "elsewhere" in client.get("/").content.decode()  # within the lifetime: the tolerance documented
    later = time.monotonic() + backends.USER_MEMO_SECONDS + 1
    monkeypatch.setattr(backends.time, "monotonic", lambda: later)
    assert "elsewhere" not in client.get("/").content.decode()


def test_a_saved_user_is_forgotten_at_once_in_this_process():
    user = User.objects.create_user("saved", password="a-long-passphrase-7")
    client = signed_in(user)
    assert "saved" in client.get("/").content.decode()
    user.is_active = False
    user.save()
    assert "saved" not in client.get("/").content.decode()


def test_each_request_gets_its_own_copy_of_the_remembered_user():
    """A view that changes the user it was given (a field, a related object cached on it) changes it for itself."""
    user = User.objects.create_user("copied", password="a-long-passphrase-7")
    backend = backends.ThrottledModelBackend()
    backend.get_user(user.pk)  # read from the database and remembered
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a copy is no unpickling: no warning of a missing Django version
        first = backend.get_user(user.pk)
    first.username = "changed"
    first._state.fields_cache["seen"] = object()
    second = backend.get_user(user.pk)
    assert second is not first and second.username == "copied" and "seen" not in second._state.fields_cache
    assert second.pk == user.pk and not second._state.adding and second._state.db == "default"
