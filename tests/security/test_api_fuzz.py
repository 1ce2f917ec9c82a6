"""Schemathesis against the app's own OpenAPI schema, through the WSGI app (no server).

Every operation, anonymous and with a personal access token (Bearer), at least 100 generated cases each: no
server error, every status code documented, every response matching its documented schema and
content type.
"""

import json
from collections import Counter

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.accounts.services import token_create
from config.wsgi import application

CASES_PER_OPERATION = 100
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
PASSWORD = "fuzz-passphrase-that-is-long"

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
CALLS: Counter = Counter()  # (operation, actor) -> requests sent, written to var/reports/api-fuzz.json


@pytest.fixture(scope="module", autouse=True)
def _report_counts():
    yield
    from django.conf import settings as django_settings

    folder = django_settings.VAR_DIR / "reports"
    folder.mkdir(exist_ok=True)
    per_operation = {f"{op} [{actor}]": n for (op, actor), n in sorted(CALLS.items())}
    (folder / "api-fuzz.json").write_text(json.dumps(
        {"operations": len({op for op, _ in CALLS}), "cases": sum(CALLS.values()), "per_operation": per_operation},
        indent=1))


@pytest.fixture(autouse=True)
def _keep_the_test_transaction():
    """The real WSGI handler closes the database connection after each request, as it should in
    production; here that connection holds the test's transaction, so keep it open (as Django's
    test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(params=["anonymous", "user"])
def actor(request, db):
    if request.param == "anonymous":
        return request.param, {}
    user = get_user_model().objects.create_user("fuzzer", password=PASSWORD)
    _, token = token_create(user=user, name="fuzz")
    return request.param, {"Authorization": f"Bearer {token}"}


@schema.parametrize()
@settings(max_examples=CASES_PER_OPERATION, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_operation(case, actor):
    name, headers = actor
    CALLS[(case.operation.label, name)] += 1
    case.call_and_validate(headers=headers, checks=CHECKS)
