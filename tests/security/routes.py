"""Every URL route of the site, with its parameters filled in, for tests that must cover them all."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver

_ROUTE_PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>")
_REGEX_PARAM = re.compile(r"\(\?P<(?P<name>\w+)>[^)]*\)")


def all_routes(skip_prefixes: tuple[str, ...] = ("admin/",)) -> Iterator[str]:
    """Route templates, e.g. 'api/decks/<int:pk>/' or 'api/runs/<pk>/cancel/' (regexes made plain)."""
    def walk(patterns, prefix: str):
        for pattern in patterns:
            text = str(pattern.pattern)
            if text.startswith("^") or text.endswith("$"):
                text = _REGEX_PARAM.sub(lambda m: f"<{m['name']}>", text.lstrip("^").rstrip("$"))
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + text)
            elif isinstance(pattern, URLPattern):
                yield prefix + text

    seen = set()
    for route in walk(get_resolver().url_patterns, ""):
        if route not in seen and not route.startswith(skip_prefixes):
            seen.add(route)
            yield route


# For a parameter the caller gave no value: a well-formed value of its converter, so that a route
# added later is still requested (and refused or answered) rather than skipped.
_DEFAULTS = {"int": "1", "uuid": "00000000-0000-0000-0000-000000000001", "slug": "x", "str": "x", "path": "x"}


def fill(route: str, values: dict[str, object]) -> str:
    """'/'-rooted path with each parameter replaced by values[name], or a default of its converter."""
    def value(match) -> str:
        if match["name"] in values:
            return str(values[match["name"]])
        return _DEFAULTS.get(match["conv"] or "str", "x")

    return "/" + _ROUTE_PARAM.sub(value, route)
