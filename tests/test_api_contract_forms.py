"""A body that is one of several forms told apart by a field (a run submission's `kind`) is checked against the form
it names alone, where that gives the whole schema's answer; a refusal still names the field."""

import pytest
import rest_framework.views  # noqa: F401  (DRF's views load the contract as one of their settings: first, or a cycle)
from django.urls import resolve

from config import api_contract
from config.api_contract import ContractError, check_body

KINDS = ["dreaddraw_tournament", "dreadgate_metagame", "dreadgate_playtest", "dreadgate_tuning"]
PLAYTEST = {"kind": "dreadgate_playtest", "games": 10, "params": {"deck": 5, "mode": "goldfish"}}


@pytest.fixture
def submission():
    return api_contract.operation_for(resolve("/api/runs/").func, "POST")


def answer(operation, body) -> str | None:
    try:
        check_body(operation, body)
    except ContractError as exc:
        return exc.message
    return None


def test_a_run_submission_is_checked_against_its_kinds_form(submission):
    assert answer(submission, PLAYTEST) is None
    assert submission["forms"] is not None and set(KINDS) <= set(submission["forms"][1])


@pytest.mark.parametrize("kind", [k for k in KINDS if k != PLAYTEST["kind"]])
def test_a_body_of_one_kind_named_as_another_is_refused_as_the_whole_schema_refuses_it(submission, kind):
    body = {**PLAYTEST, "kind": kind}
    whole = api_contract._validator(submission["body"])
    assert not whole.is_valid(body)
    assert answer(submission, body) is not None


def test_a_bad_field_of_the_named_form_is_still_named(submission):
    assert answer(submission, {**PLAYTEST, "params": {"deck": "x", "mode": "goldfish"}}) == \
        'params.deck: "x" is not a whole number'


def test_forms_that_do_not_each_refuse_the_others_names_get_no_shortcut():
    """Form A takes any kind: {"kind": "b"} fits both A and B, which oneOf refuses. Checking B alone would take it."""
    schemas = {
        "A": {"type": "object", "properties": {"kind": {"type": "string"}}, "required": ["kind"]},
        "B": {"type": "object", "properties": {"kind": {"enum": ["b"]}}, "required": ["kind"]},
    }
    body = {"components": {"schemas": schemas}, "oneOf": [{"$ref": "#/components/schemas/A"},
                                                          {"$ref": "#/components/schemas/B"}],
            "discriminator": {"propertyName": "kind", "mapping": {"a": "#/components/schemas/A",
                                                                  "b": "#/components/schemas/B"}}}
    operation = {"body": body, "forms": api_contract._forms_by_name(body)}
    assert operation["forms"] is None
    assert answer(operation, {"kind": "b"}) is not None
    assert answer(operation, {"kind": "a"}) is None
