"""Bounded JSON: a document nested deeper than MAX_JSON_DEPTH is refused before it is parsed.

Python's parser recurses once per level, so `[` x 100,000 raises RecursionError (a crash, not a
refusal); and a deep document that parses would crash whatever walks it next. No document of this
site nests more than a few levels.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_JSON_DEPTH = 32

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class JSONTooDeep(ValueError):
    def __init__(self, depth: int) -> None:
        super().__init__(f"The JSON nests deeper than {MAX_JSON_DEPTH} levels (at least {depth}).")
        self.depth = depth


def check_depth(text: str) -> None:
    """Raise JSONTooDeep when the document's brackets (outside strings) nest deeper than MAX_JSON_DEPTH."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return  # cannot be deep enough
    depth = 0
    for match in _BRACKETS.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise JSONTooDeep(depth)
        else:
            depth -= 1


def loads(text: str) -> Any:
    """json.loads with the depth bound (JSONTooDeep and json.JSONDecodeError are both ValueErrors)."""
    check_depth(text)
    return json.loads(text)
