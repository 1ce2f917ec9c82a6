"""The API's content negotiation (config/negotiation.py): the common requests answered without DRF's full reading of
the headers give DRF's answer, and every other Accept header still goes DRF's way."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.config_independent]  # DRF's reading, whatever the services


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_no_form_asked_is_answered_in_json(accept):
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    response = Client().get("/api/keywords/", **headers)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() is not None


def test_an_accept_header_with_parameters_is_read_as_drf_reads_it():
    response = Client().get("/api/keywords/", HTTP_ACCEPT="application/json; indent=4")
    assert response.status_code == 200 and b"\n    " in response.content  # the indent asked for


def test_a_form_the_endpoint_does_not_answer_in_is_a_406():
    assert Client().get("/api/keywords/", HTTP_ACCEPT="application/xml").status_code == 406


def test_a_format_in_the_query_string_is_read_whatever_the_accept_header():
    response = Client().get("/api/keywords/", {"format": "yaml"})
    assert response.status_code == 400 and response.json()["error"]["details"]["parameter"] == "format"
