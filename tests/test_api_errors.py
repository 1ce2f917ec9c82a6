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


def _signed_in(name: str) -> APIClient:
    from django.contrib.auth import get_user_model

    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user(name, password="x" * 12))
    return client


def test_a_body_whose_media_type_is_written_in_another_case_is_held_to_the_schema_all_the_same():
    """Media types are case-insensitive, and the parser read "Application/JSON" as JSON: the check had let it by, a
    field it does not know ignored and a count sent as text turned into a number."""
    client = _signed_in("casual")
    body = b'{"name": "x", "bogus": 1}'
    refused = client.generic("POST", "/api/decks/", body, content_type="Application/JSON")
    assert refused.status_code == 400 and "bogus is not a field here" in refused.json()["error"]["message"]
    assert client.generic("POST", "/api/decks/", b'{"name": "x"}', content_type="Application/JSON").status_code == 201


def test_no_body_where_one_is_required_is_the_schemas_400_as_an_empty_object_is():
    client = _signed_in("empty")
    for body in (b"", b"{}"):
        answer = client.generic("POST", "/api/decks/", body, content_type="application/json")
        assert answer.status_code == 400 and answer.json()["error"]["message"].startswith("name:"), body


@pytest.mark.parametrize("debug", [False, True])
def test_an_api_address_no_route_takes_is_the_envelopes_404_and_one_a_slash_short_is_sent_on_keeping_its_method(
        settings, debug):
    settings.DEBUG = debug  # Django's own 404 page is HTML, and with DEBUG its slash redirect of a POST a 500
    client = _signed_in(f"slashless-{debug}")
    missing = client.get("/api/nothing-here/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    short = client.post("/api/decks?x=1", {"name": "x"}, format="json")
    assert short.status_code == 308 and short["Location"] == "/api/decks/?x=1"
    assert short.json()["error"]["message"] == "The address is /api/decks/, with its slash."
