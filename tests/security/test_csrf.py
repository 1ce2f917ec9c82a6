"""CSRF is enforced on every unsafe request to every route, pages, htmx and API alike."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from decks.services import deck_create
from playtest.models import Run

from .routes import all_routes, fill

pytestmark = pytest.mark.django_db

UNSAFE = ("post", "put", "patch", "delete")
# Routes that take no session (so carry no CSRF risk), with the reason.
SESSIONLESS = {
    "api/decks/validate/": "checks a list and writes nothing; it ignores the session",
    "api/<rest>": "what no route of the API takes: it writes nothing, naming the address (404) or sending the "
                  "request on to the route a slash away (308), which checks the token itself",
}


@pytest.fixture
def world():
    user = get_user_model().objects.create_user("csrf-user", password="a-long-passphrase-7")
    deck = deck_create(owner=user, name="Guarded", entries=[])
    run = Run.objects.create(owner=user, kind="test_sum", games=10, chunk_size=10, seed=1)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")  # sets the CSRF cookie, as a browser would have it
    values = {"pk": deck.pk, "number": 1, "run_id": run.pk, "collector_number": "X-GATE", "uidb64": "MQ",
              "token": "set-password", "game": 0, "table_id": "00000000-0000-4000-8000-000000000000"}
    return client, values, deck, run


def test_every_unsafe_request_without_a_token_is_refused(world):
    client, values, deck, run = world
    checked = []
    for route in all_routes():
        if route in SESSIONLESS:
            continue
        path = fill(route, {**values, "pk": run.pk} if "runs/" in route else values)
        for method in UNSAFE:
            response = getattr(client, method)(path, {}, content_type="application/json")
            # 405 where the route does not take the method at all: nothing to forge (config/api_errors.py).
            refused = response.status_code == 403 or (
                response.status_code == 405 and method.upper() not in response.get("Allow", "").split(", "))
            assert refused, f"{method.upper()} {path} answered {response.status_code} without CSRF"
            checked.append((method, path))
    assert len(checked) >= 4 * 30
    deck.refresh_from_db()
    run.refresh_from_db()
    assert deck.version == 1 and run.status == "queued"


def test_api_refusal_is_in_the_envelope(world):
    client, values, deck, _ = world
    response = client.patch(f"/api/decks/{deck.pk}/", {"name": "x"}, content_type="application/json",
                            HTTP_IF_MATCH='"1"')
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "permission_denied" and "CSRF" in error["message"]


def test_htmx_requests_pass_with_the_header_token_that_the_page_sets(world):
    client, values, deck, run = world
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    token = client.cookies["csrftoken"].value
    assert 'hx-headers=\'{"X-CSRFToken": "' in page  # base.html hands htmx the token
    response = client.post(f"/playtest/runs/{run.pk}/cancel/", HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 302
    run.refresh_from_db()
    assert run.status == "cancelled"
    api = client.patch(f"/api/decks/{deck.pk}/", {"name": "Renamed"}, content_type="application/json",
                       HTTP_IF_MATCH='"1"', HTTP_X_CSRFTOKEN=token)
    assert api.status_code == 200, api.json()


def test_the_log_in_form_itself_needs_the_token():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403
