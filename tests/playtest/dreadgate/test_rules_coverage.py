"""Every numbered DG rule of docs/rules.md has a scenario test that names it in its docstring."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def dg_rules() -> list[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("## Dreadgate play rules (DG)") : text.index("## Dreadgate deck construction (DC)")]
    return re.findall(r"\*\*(DG-\d+\.\d+)", section)


def rules_named_by_tests() -> set[str]:
    found: set[str] = set()
    for path in Path(__file__).parent.glob("test_rules_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node) or ""
                found.update(re.findall(r"^(DG-\d+\.\d+)", doc))
    return found


def test_the_rules_are_numbered_without_gaps_or_repeats():
    rules = dg_rules()
    assert len(rules) == len(set(rules)) > 90
    for family in {r.split(".")[0] for r in rules}:
        numbers = sorted(int(r.split(".")[1]) for r in rules if r.split(".")[0] == family)
        assert numbers == list(range(1, len(numbers) + 1)), family


def test_every_rule_has_a_scenario_test():
    named = rules_named_by_tests()  # every test file parsed once, not once a rule
    missing = [r for r in dg_rules() if r not in named]
    assert missing == []


def test_every_rule_the_engine_cites_exists():
    """A refusal links to /rules/#DG-x.y, so every cited number must be a rule of docs/rules.md."""
    rules = set(dg_rules()) | {r.split(".")[0] for r in dg_rules()}
    cited = set()
    for path in (ROOT / "playtest" / "dreadgate").glob("*.py"):
        cited.update(re.findall(r"\"(DG-\d+(?:\.\d+)?)\"", path.read_text(encoding="utf-8")))
    assert cited and cited <= rules, sorted(cited - rules)
