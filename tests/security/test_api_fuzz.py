"""Schemathesis against the app's own OpenAPI schema, through the WSGI app (no server).

Every operation, anonymous and with a personal access token (Bearer), at least 100 generated cases each,
valid and invalid data alike, with every check Schemathesis has: no server error, every status code,
content type and header documented, every response matching its documented schema, invalid data
refused with a 4xx, valid data accepted, methods not in the schema refused, authentication honoured.

One allowance, by name: a request that fits the schema may still be refused (400) by a rule of the
domain that no schema can state (a deck list naming an unknown card, a deck that cannot be played, an
illegal decision, a query in the search language that does not parse, exactly one of two query
parameters where OpenAPI 3.0 can only say that each is optional); those refusals carry their own
error codes (DOMAIN_REFUSALS), and any other 400 to schema-valid data is a failure. NUL characters are
not generated: every text is refused with them, by one documented rule (tests/security/test_hostile_inputs.py).
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
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from config.accounts.services import token_create
from config.wsgi import application

CASES_PER_OPERATION = int(os.environ.get("FUZZ_CASES", "100"))
DOMAIN_REFUSALS = {"invalid_deck", "invalid_deck_list", "invalid_deck_code", "unknown_card", "deck_unplayable",
                   "games_out_of_range",  # a table's pairs times its games a pair, over the run limit
                   "illegal_decision",
                   "invalid_seats", "invalid_query", "invalid_params", "invalid_action", "game_over",
                   "exactly_one_parameter"}


def positive_data_acceptance_but_domain_rules(ctx, response, case):
    """positive_data_acceptance, with the named domain refusals allowed (see the module's text)."""
    if response.status_code == 400:
        try:
            code = json.loads(response.content)["error"]["code"]
        except (ValueError, KeyError, TypeError):
            code = None
        if code in DOMAIN_REFUSALS:
            return True
    return positive_data_acceptance(ctx, response, case)


def negative_data_rejection_or_too_large(ctx, response, case):
    """negative_data_rejection, with 413 counted as the refusal it is: a body past the request size limit (invalid
    data made long enough, such as a text past its maxLength in many-byte characters) is refused before it is read."""
    if response.status_code == 413:
        return True
    return negative_data_rejection(ctx, response, case)


load_all_checks()
REPLACED = {positive_data_acceptance: positive_data_acceptance_but_domain_rules,
            negative_data_rejection: negative_data_rejection_or_too_large}
CHECKS = [REPLACED.get(check, check) for check in REGISTRY.get_all()]
PASSWORD = "fuzz-passphrase-that-is-long"

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
schema.config.generation.update(modes=list(schemathesis.GenerationMode), allow_x00=False)
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


def test_every_check_ran_and_every_operation_with_input_had_at_least_100_cases():
    """Runs after the operations above (same module): the report's figures, checked."""
    names = {getattr(check, "__name__", "") for check in CHECKS}
    assert {"not_a_server_error", "status_code_conformance", "content_type_conformance",
            "response_headers_conformance", "response_schema_conformance", "negative_data_rejection_or_too_large",
            "positive_data_acceptance_but_domain_rules", "ignored_auth", "unsupported_method"} <= names
    if not CALLS or CASES_PER_OPERATION < 100:
        pytest.skip("the operations did not all run in this session")
    operations = [result.ok() for result in schema.get_all_operations()]
    with_input = {op.label for op in operations if len(op.query) or len(op.body) or len(op.path_parameters)}
    assert len(with_input) >= 25
    for label in with_input:
        for actor in ("anonymous", "user"):
            assert CALLS[(label, actor)] >= 100, (label, actor, CALLS[(label, actor)])
