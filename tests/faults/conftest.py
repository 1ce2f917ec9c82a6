"""Fixtures of the tests that break Redis: a Redis of their own, and a user with an API token."""

import pytest
from django.contrib.auth import get_user_model

from config.accounts.services import token_create

from .support import RedisServer

PASSWORD = "fault-tolerant-passphrase"


@pytest.fixture
def user():
    user = get_user_model().objects.create_user("faulty", password=PASSWORD)
    user.api_token = token_create(user=user, name="faults")[1]
    user.passphrase = PASSWORD
    return user


@pytest.fixture
def redis(tmp_path):
    server = RedisServer(tmp_path).start()
    yield server
    server.stop()
