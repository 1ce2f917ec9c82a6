"""Every numbered DD rule of docs/rules.md has a scenario test that names it (the twin of the DG check).

A scenario test names its rules at the start of its docstring, before the first colon: "DD-4.3: ..." or
"DD-7.4, DD-12: ...". Rules DD-1 to DD-8 are numbered DD-x.y; the app's decisions are DD-9 onward.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE = r"DD-\d+(?:\.\d+)?"


def dd_rules() -> list[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("## Dread Draw (DD)"):]
    return re.findall(rf"\*\*({RULE})[*\s]", section)


def rules_named_by_tests() -> set[str]:
    found: set[str] = set()
    for path in Path(__file__).parent.glob("test_dd_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node) or ""
                if re.match(RULE, doc):
                    found.update(re.findall(RULE, doc.split(":", 1)[0]))
    return found


def test_the_rules_are_numbered_without_gaps_or_repeats():
    rules = dd_rules()
    assert len(rules) == len(set(rules)) >= 50
    texts = [r for r in rules if "." in r]
    for family in {r.split(".")[0] for r in texts}:
        numbers = sorted(int(r.split(".")[1]) for r in texts if r.split(".")[0] == family)
        assert numbers == list(range(1, len(numbers) + 1)), family
    heads = sorted({int(r[3:].split(".")[0]) for r in rules})
    assert heads == list(range(1, len(heads) + 1))


def test_every_rule_has_a_scenario_test():
    named = rules_named_by_tests()  # every test file parsed once, not once a rule
    missing = [r for r in dd_rules() if r not in named]
    assert missing == []


def test_every_rule_a_test_names_exists():
    assert rules_named_by_tests() <= set(dd_rules())


def test_every_rule_the_engine_cites_exists():
    """A refusal names its rule (DD-x.y or DD-n): every cited number must be a rule of docs/rules.md."""
    rules = set(dd_rules())
    cited = set()
    for path in (ROOT / "dreaddraw").rglob("*.py"):
        cited.update(re.findall(rf"\"({RULE})\"", path.read_text(encoding="utf-8")))
    assert cited and cited <= rules, sorted(cited - rules)
