import pytest
from django.contrib.auth import get_user_model


@pytest.fixture
def alice(client):
    """Alice, logged in on the test client."""
    user = get_user_model().objects.create_user("alice", password="pw-alice-123")
    client.force_login(user)
    return user
