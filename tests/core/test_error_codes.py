"""Domain error codes are named once, in core.errors.ErrorCode: no refusal of the project spells its code inline."""

from __future__ import annotations

import ast

import pytest

from core.errors import DomainError, ErrorCode
from tests.support import ROOT

pytestmark = pytest.mark.config_independent

APPS = ("cards", "decks", "playtest", "dreaddraw", "config", "core")
# Django's form validation codes are the forms' own vocabulary, not domain refusals.
FORM_ERRORS = {"ValidationError"}


def inline_codes() -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                    for keyword in node.keywords:
                        if (keyword.arg == "code" and isinstance(keyword.value, ast.Constant)
                                and isinstance(keyword.value.value, str) and name not in FORM_ERRORS):
                            found.append(f"{where} {name}(code={keyword.value.value!r})")
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                    targets = [getattr(t, "id", None) for t in node.targets]
                    if "default_code" in targets and isinstance(node.value.value, str):
                        found.append(f"{where} default_code = {node.value.value!r}")
                elif isinstance(node, ast.Dict) and any(getattr(k, "value", None) == "message" for k in node.keys):
                    for key, value in zip(node.keys, node.values, strict=True):  # an error body
                        if (isinstance(key, ast.Constant) and key.value == "code" and isinstance(value, ast.Constant)
                                and isinstance(value.value, str)):
                            found.append(f"{where} {{'code': {value.value!r}}}")
    return found


def test_no_refusal_spells_its_code_inline():
    assert inline_codes() == []


def test_a_code_reads_as_its_stable_string_in_the_envelope():
    error = DomainError("No such table.", code=ErrorCode.TABLE_FULL)
    assert error.code == "table_full" and f"{error.code}" == "table_full"
    assert DomainError().code == "bad_request"
