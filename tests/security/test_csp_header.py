"""The Content-Security-Policy header, built once per process (config.middleware.ContentSecurityPolicyMiddleware),
is the one django-csp builds from the settings, on every kind of response; a change to the settings is seen, and a
response that changes its own policy goes django-csp's way."""

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONCE, SELF
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import RequestFactory

from config.middleware import ContentSecurityPolicyMiddleware

pytestmark = [pytest.mark.django_db, pytest.mark.config_independent]  # a header, whatever the database


@pytest.mark.parametrize("path", ["/", "/cards/", "/api/keywords/", "/api/decks/0/", "/no-such-page/"])
def test_every_response_carries_the_policy_of_the_settings(client, path):
    response = client.get(path)
    assert response[HEADER] == build_policy() and "script-src 'self'" in response[HEADER]
    assert HEADER_REPORT_ONLY not in response


def test_a_change_to_the_settings_is_seen(client, settings):
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"default-src": ["'self'"],
                                                                   "report-uri": "/csp-reports/"}}
    response = client.get("/api/keywords/")
    assert response[HEADER] == "default-src 'none'"
    assert response[HEADER_REPORT_ONLY] == "default-src 'self'; report-uri /csp-reports/"


def test_a_response_that_changes_its_policy_gets_its_own():
    def view(request):
        response = HttpResponse("ok")
        response._csp_update = {"img-src": ["https://images.example"]}  # what django-csp's @csp_update sets
        return response

    response = ContentSecurityPolicyMiddleware(view)(RequestFactory().get("/"))
    assert response[HEADER] != build_policy() and "https://images.example" in response[HEADER]


def test_a_nonce_taken_during_the_request_is_in_the_header(settings):
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"script-src": [SELF, NONCE]}}

    def view(request):
        return HttpResponse(str(request.csp_nonce))

    response = ContentSecurityPolicyMiddleware(view)(RequestFactory().get("/"))
    assert f"'nonce-{response.content.decode()}'" in response[HEADER]
