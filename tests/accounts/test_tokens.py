"""Personal access tokens: the API's authentication. Created, named, listed and revoked on the account
page, stored as a SHA-256 digest, sent as `Authorization: Bearer`; HTTP Basic is refused; an
unauthenticated API request is a 401 with WWW-Authenticate; authenticated writes are throttled per user."""

import base64
import hashlib
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from config.accounts.models import AccessToken

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-7"
User = get_user_model()


@pytest.fixture
def user():
    return User.objects.create_user("alice", password=PASSWORD)


def create_token(client, name="my script"):
    response = client.post("/accounts/tokens/", {"name": name})
    assert response.status_code == 201, response.content[:400]
    assert response["Cache-Control"] == "no-store"
    return re.search(r'data-testid="new-token">([^<]+)<', response.content.decode()).group(1)


def bearer(token):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return api


def test_a_token_is_created_shown_once_listed_and_stored_only_as_its_sha256(client, user):
    client.force_login(user)
    token = create_token(client, "deck sync")
    row = AccessToken.objects.get(user=user)
    assert row.name == "deck sync" and row.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in {row.digest, row.prefix, row.name}  # the token itself is stored nowhere
    page = client.get("/accounts/").content.decode()
    assert "deck sync" in page and row.prefix in page and token not in page


def test_a_bearer_token_authenticates_api_requests_as_its_owner(client, user):
    client.force_login(user)
    api = bearer(create_token(client))
    response = api.post("/api/decks/", {"name": "From a script", "format": "standard"}, format="json")
    assert response.status_code == 201, response.content
    assert User.objects.get(pk=user.pk).decks.filter(name="From a script").exists()
    assert AccessToken.objects.get(user=user).last_used_at is not None


def test_a_revoked_token_is_refused_and_another_user_cannot_revoke_it(client, user):
    client.force_login(user)
    token = create_token(client)
    row = AccessToken.objects.get(user=user)
    mallory = User.objects.create_user("mallory", password=PASSWORD)
    other = type(client)()
    other.force_login(mallory)
    assert other.post(f"/accounts/tokens/{row.pk}/revoke/").status_code == 404
    assert bearer(token).get("/api/decks/?mine=true").status_code == 200
    assert client.post(f"/accounts/tokens/{row.pk}/revoke/").status_code == 302
    assert not AccessToken.objects.filter(pk=row.pk).exists()
    response = bearer(token).get("/api/decks/?mine=true")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_an_unauthenticated_write_is_401_with_a_bearer_challenge_in_the_envelope():
    response = APIClient().post("/api/decks/", {"name": "x"}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'
    assert response.json()["error"]["code"] == "not_authenticated"


def test_an_unknown_token_is_401(user):
    response = bearer("dgt_not-a-real-token").get("/api/runs/")
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Bearer")


def test_http_basic_is_refused_even_with_the_right_password(user):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Basic " + base64.b64encode(f"alice:{PASSWORD}".encode()).decode())
    response = api.get("/api/runs/")
    assert response.status_code == 401
    error = response.json()["error"]
    assert error["code"] == "authentication_failed" and "Bearer" in error["message"]


def test_a_token_sent_under_another_scheme_is_refused_saying_which_one_the_api_takes(user):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token bogus")
    response = api.get("/api/decks/")  # open to anonymous readers: not read as one
    assert response.status_code == 401
    error = response.json()["error"]
    assert "Bearer" in error["message"] and "“Token”" in error["message"]


def test_the_browser_session_still_works_with_csrf(user):
    api = APIClient(enforce_csrf_checks=True)
    api.force_login(user)
    assert api.get("/api/runs/").status_code == 200
    refused = api.post("/api/decks/", {"name": "x"}, format="json")  # no CSRF token
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]["message"]


def test_tokens_need_a_log_in_and_a_post(client, user):
    assert client.post("/accounts/tokens/", {"name": "x"}).status_code == 302
    client.force_login(user)
    assert client.get("/accounts/tokens/").status_code == 405
    assert client.post("/accounts/tokens/", {"name": ""}).status_code == 400
    assert not AccessToken.objects.exists()


def test_the_schema_declares_the_bearer_scheme_and_not_basic(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    schemes = schema["components"]["securitySchemes"]
    assert schemes["tokenAuth"]["type"] == "http" and schemes["tokenAuth"]["scheme"] == "bearer"
    assert not any(s.get("scheme") == "basic" for s in schemes.values())
    assert {"tokenAuth": []} in schema["paths"]["/api/decks/"]["post"]["security"]
    assert "401" in schema["paths"]["/api/decks/"]["post"]["responses"]


def test_authenticated_writes_are_throttled_per_user(client, user, monkeypatch):
    cache.clear()
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "writes", "2/minute")
    client.force_login(user)
    api = bearer(create_token(client))
    for n in range(2):
        assert api.post("/api/decks/", {"name": f"d{n}", "format": "standard"}, format="json").status_code == 201
    refused = api.post("/api/decks/", {"name": "d3", "format": "standard"}, format="json")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    assert api.get("/api/decks/?mine=true").status_code == 200  # reads are not counted
    bob = User.objects.create_user("bob", password=PASSWORD)
    other = APIClient()
    other.force_authenticate(bob)
    assert other.post("/api/decks/", {"name": "b", "format": "standard"}, format="json").status_code == 201
    cache.clear()
