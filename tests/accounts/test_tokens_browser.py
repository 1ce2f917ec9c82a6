"""API tokens on the account page, in headless Chromium: create one, use it, revoke it."""

import urllib.error
import urllib.request

import pytest
from django.contrib.auth import get_user_model

from config.accounts.models import AccessToken
from tests.support import live_db

pytestmark = [pytest.mark.browser, live_db]

PASSWORD = "a-long-passphrase-7"


def api_status(base_url: str, token: str) -> int:
    request = urllib.request.Request(f"{base_url}/api/runs/", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_create_use_and_revoke_a_token_from_the_account_page(page, live_server):
    get_user_model().objects.create_user("tokener", password=PASSWORD)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("tokener")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)

    page.goto("/accounts/")
    page.get_by_text("You have no tokens.").wait_for()
    page.get_by_label("Name").fill("nightly export")
    page.get_by_role("button", name="Create a token").click()
    token = page.get_by_test_id("new-token").inner_text().strip()
    assert token.startswith("dgt_")
    row = page.locator("#token-list tbody tr")
    assert "nightly export" in row.inner_text() and token[:12] in row.inner_text()
    assert api_status(live_server.url, token) == 200

    page.get_by_role("button", name="Revoke nightly export").click()
    page.get_by_text("The token was revoked").wait_for()
    assert not AccessToken.objects.exists()
    assert api_status(live_server.url, token) == 401
    page.reload()
    assert token not in page.content()  # shown once, never again
