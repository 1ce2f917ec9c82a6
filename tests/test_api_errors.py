"""The API's error answers (config/api_errors.py) that no single app owns."""

import uuid

import pytest
from rest_framework.test import APIClient

pytestmark = [pytest.mark.django_db, pytest.mark.config_independent]


@pytest.mark.parametrize("method, path", [
    ("post", "/api/cards/"),  # a read-only list that lets anyone read (IsAuthenticatedOrReadOnly)
    ("delete", "/api/cards/U-00001/"),
    ("put", "/api/keywords/"),
    ("delete", f"/api/dreaddraw/tables/{uuid.UUID(int=7)}/"),  # a read-only resource for signed-in players only
    ("patch", "/api/decks/validate/"),  # open to anyone, without authentication
])
def test_a_method_the_resource_does_not_take_is_405_before_authentication(method, path):
    for client in (APIClient(), _bearer("dgt_not-a-real-token")):
        response = getattr(client, method)(path, {}, format="json")
        assert response.status_code == 405, (path, response.status_code)
        assert response.json()["error"]["code"] == "method_not_allowed"
        allowed = response["Allow"].split(", ")
        assert method.upper() not in allowed and ("GET" in allowed or "POST" in allowed)


def test_a_method_the_resource_takes_still_asks_an_anonymous_client_to_log_in():
    response = APIClient().post("/api/decks/", {"name": "Mine"}, format="json")
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Bearer")


def _bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_a_field_sent_to_an_action_that_takes_no_body_is_refused_naming_it():
    from django.contrib.auth import get_user_model

    from playtest.jobs import services
    from playtest.models import Run, RunStatus

    user = get_user_model().objects.create_user("canceller", password="x" * 12)
    run = services.run_submit(owner=user, kind="test_sum", params={}, games=10)
    client = APIClient()
    client.force_authenticate(user)
    refused = client.post(f"/api/runs/{run.pk}/cancel/", {"reason": "too slow"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["message"].startswith("reason: This action takes")
    assert Run.objects.get(pk=run.pk).status == RunStatus.QUEUED
    assert client.post(f"/api/runs/{run.pk}/cancel/", {}, format="json").status_code == 200
    assert Run.objects.get(pk=run.pk).status == RunStatus.CANCELLED
