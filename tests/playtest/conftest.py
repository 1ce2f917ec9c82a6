import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password="x" * 12)


@pytest.fixture
def bob():
    return get_user_model().objects.create_user("bob", password="x" * 12)
