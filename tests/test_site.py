import os
import subprocess
import sys

import pytest

from tests.support import ROOT


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["database"]["status"] == "ok"
    assert body["broker"]["status"] == "ok"


@pytest.mark.django_db
def test_front_page_has_navigation(client):
    html = client.get("/").content.decode()
    for label in ("Cards", "Decks", "Playtest", "Dread Draw", "Log in", "Sign up"):
        assert label in html
    assert "/static/django_htmx/htmx-2" in html


@pytest.mark.django_db
def test_the_header_and_footer_links_lead_to_their_pages_under_any_url_prefix(client, django_user_model):
    """The links are reversed once per process and URL prefix (config/site_links.py): a site served under a prefix
    gets its own, not those of the first prefix seen."""
    import re

    from django.urls import set_script_prefix

    def links():
        html = client.get("/").content.decode()
        return re.findall(r'<a (?:class="\w+" )?href="([^"]+)"', html.split("<main")[0]) + \
            re.findall(r'href="([^"]+)">(?:API|Status)<', html)

    assert links() == ["/", "/cards/", "/decks/", "/playtest/", "/dread-draw/", "/rules/", "/accounts/login/",
                       "/accounts/signup/", "/api/docs/", "/healthz"]
    set_script_prefix("/site/")  # as a WSGI server under /site sets it (the test client sets none)
    try:
        assert links()[:3] == ["/site/", "/site/cards/", "/site/decks/"]
    finally:
        set_script_prefix("/")
    client.force_login(django_user_model.objects.create_user("linked", password="a-long-passphrase-7"))
    assert "/accounts/" in links() and "/accounts/login/" not in links()


@pytest.mark.django_db
def test_html_responses_carry_the_security_headers(client):
    response = client.get("/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_production_settings_pass_the_deploy_check():
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env |= {"DJANGO_SETTINGS_MODULE": "config.settings_production",
           "DJANGO_SECRET_KEY": "k" * 20 + "-production-check-" + "z" * 30, "DJANGO_ALLOWED_HOSTS": "dreadgate.example",
           "TRUSTED_PROXY_COUNT": "1"}  # behind the TLS proxy its settings name (dreadgate.W001 otherwise)
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.django_db
def test_production_settings_send_hsts_over_https(client, settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    response = client.get("/", secure=True)
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")


@pytest.mark.django_db
def test_sign_up_logs_in_and_log_out_ends_the_session(client):
    response = client.post("/accounts/signup/", {"username": "newplayer", "password1": "a-long-passphrase-7",
                                                 "password2": "a-long-passphrase-7"})
    assert response.status_code == 302
    assert "newplayer" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "newplayer" not in client.get("/").content.decode()


@pytest.mark.django_db
def test_sign_up_refuses_a_common_password_with_a_message(client):
    response = client.post("/accounts/signup/", {"username": "weak", "password1": "password123",
                                                 "password2": "password123"})
    assert response.status_code == 400
    assert "too common" in response.content.decode()


@pytest.mark.django_db
def test_a_nul_character_in_the_query_string_is_a_400_not_a_server_error(client):
    response = client.get("/api/decks/?deck_format=%00")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_character"
    assert client.get("/cards/?q=a%00b").status_code == 400


@pytest.mark.django_db
def test_every_page_links_the_favicon_and_favicon_ico_leads_to_it(client):
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in client.get("/").content.decode()
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
    assert (ROOT / "static" / "favicon.svg").read_text().startswith("<svg")


@pytest.mark.django_db
def test_the_browsable_api_has_no_inline_style_and_its_code_style_is_drfs_own(client):
    """The CSP (style-src 'self') refuses inline styles: the browsable API's pages carry none, and the stylesheet
    that replaces DRF's inline <style> holds exactly the code highlighting DRF would inline."""
    from django.contrib.auth import get_user_model
    from rest_framework.compat import pygments_css
    from rest_framework.renderers import BrowsableAPIRenderer

    client.force_login(get_user_model().objects.create_user("api-reader"))  # signed in: the pages carry forms
    for path in ("/api/cards/?q=t:unit", "/api/decks/", "/api/runs/", "/api/dreaddraw/tables/",
                 "/api/metagames/budget/"):
        html = client.get(path, HTTP_ACCEPT="text/html").content.decode()
        assert "style=" not in html and "<style" not in html, path
        assert "/static/api/browsable.css" in html
    css = (ROOT / "static" / "api" / "browsable.css").read_text()
    assert pygments_css(BrowsableAPIRenderer.code_style) in css


@pytest.mark.django_db
def test_a_forms_action_opened_as_a_page_says_what_it_is_and_keeps_its_allow_header(client, django_user_model):
    """Django answers it a bare 405: a blank page."""
    client.force_login(django_user_model.objects.create_user("visitor", password="a-long-passphrase-7"))
    response = client.get("/accounts/tokens/1/revoke/")
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert "used by a button on its page" in response.content.decode()
    assert client.get("/api/decks/validate/").json()["error"]["code"] == "method_not_allowed"  # the API's own


@pytest.mark.django_db
def test_a_400_of_djangos_own_says_nothing_of_its_cause_and_a_pages_own_says_what_is_wrong(client):
    response = client.get("/cards/", HTTP_HOST="intruder.example")
    assert response.status_code == 400
    assert "intruder" not in response.content.decode() and "ALLOWED_HOSTS" not in response.content.decode()
    response = client.get("/decks/public/", {"page": "x"})
    assert response.status_code == 400 and "page: “x” is not a page number" in response.content.decode()


def test_a_pages_refusal_is_the_sites_page_with_debug_on_too(client, settings):
    settings.DEBUG = True  # as `make run` serves: Django shows its technical page for a BadRequest then
    response = client.get("/decks/public/", {"craft": "bogus"})
    html = response.content.decode()
    assert response.status_code == 400 and "craft: “bogus” is not one of" in html
    assert "Traceback" not in html and "technical" not in html.lower() and '<link rel="icon"' in html


@pytest.mark.parametrize("path", ["/", "/playtest/", "/dread-draw/", "/api/cards/"])
def test_a_method_no_page_takes_is_a_405_where_a_page_answered_trace_as_a_get(client, path):
    response = client.generic("TRACE", path)
    assert response.status_code == 405 and "TRACE" not in response["Allow"]
