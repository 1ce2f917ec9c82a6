"""Schemathesis against the app's own OpenAPI schema, through the WSGI app (no server).

Every operation, anonymous and with a personal access token (Bearer), FUZZ_CASES generated cases each (25 by
default: the suite's share; `make fuzz` runs the full command-line fuzz against a live server, docs/testing.md),
valid and invalid data alike, NUL characters included, with every check Schemathesis has: no server error, every
status code, content type and header documented, every response matching its documented schema, invalid data
refused with a 4xx, valid data accepted, methods not in the schema refused, authentication honoured. The schema
states the rules the server enforces (config/api_schema.py): a 400 is a request that breaks them, and valid data
is accepted or refused only with a status its operation documents (412 stale, 422 a rule no schema states).
Schemathesis's settings, shared with `make fuzz`, are in schemathesis.toml.

It runs on PostgreSQL only (`strict_database`, docs/testing.md): a value the schema's bounds let through to the
database that PostgreSQL refuses (a NUL character, an integer past its column) is a server error there, where SQLite
would store it; and most of the module's three minutes are Schemathesis making its cases, the same in both.
"""

import json
import os
from collections import Counter

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import CHECKS as REGISTRY
from schemathesis.checks import load_all_checks

from config.accounts.services import token_create
from config.wsgi import application

CASES_PER_OPERATION = int(os.environ.get("FUZZ_CASES", "25"))
pytestmark = pytest.mark.strict_database

load_all_checks()
CHECKS = REGISTRY.get_all()
PASSWORD = "fuzz-passphrase-that-is-long"

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
schema.config.generation.update(modes=list(schemathesis.GenerationMode))
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


def test_every_check_ran_and_every_operation_with_input_had_its_cases():
    """Runs after the operations above (same module): the report's figures, checked."""
    names = {getattr(check, "__name__", "") for check in CHECKS}
    assert {"not_a_server_error", "status_code_conformance", "content_type_conformance",
            "response_headers_conformance", "response_schema_conformance", "negative_data_rejection",
            "positive_data_acceptance", "ignored_auth",
            "unsupported_method"} <= names
    if not CALLS:
        pytest.skip("the operations did not run in this session")
    operations = [result.ok() for result in schema.get_all_operations()]
    with_input = {op.label for op in operations if len(op.query) or len(op.body) or len(op.path_parameters)}
    assert len(with_input) >= 25
    for label in with_input:
        for actor in ("anonymous", "user"):
            assert CALLS[(label, actor)] >= CASES_PER_OPERATION, (label, actor, CALLS[(label, actor)])
