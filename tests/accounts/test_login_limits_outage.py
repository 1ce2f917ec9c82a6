"""The failed log-in limits while the shared cache (Redis) does not answer: counted in the database, never open."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from config.accounts.models import LoginCounter
from config.settings import cache_aliases
from tests.faults.support import spare_port

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-7"


def log_in(client, password=PASSWORD, address="10.0.0.1"):
    return client.post("/accounts/login/", {"username": "alice", "password": password}, REMOTE_ADDR=address)


def test_the_log_in_limit_still_refuses_after_n_failures_while_the_cache_is_down(settings):
    get_user_model().objects.create_user("alice", password=PASSWORD)
    settings.CACHES = cache_aliases(f"redis://127.0.0.1:{spare_port()}/1")  # Redis, and nothing listens there
    settings.LOGIN_FAILURE_LIMIT = 3
    client = Client()
    for _ in range(3):
        assert log_in(client, password="wrong-password").status_code == 400
    locked = log_in(client)  # even the right password is not checked now
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert LoginCounter.objects.exists()  # the failures were counted in the database
    assert log_in(Client(), address="10.0.0.2").status_code == 302  # and still lock out no one else
