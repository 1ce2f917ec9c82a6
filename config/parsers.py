"""The API's JSON parser: every JSON body is bounded in depth (core.jsonbounds) and may hold no NUL
character, so a hostile document is a 400 in the envelope, never a crash or a database error."""

from __future__ import annotations

import json

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from core.jsonbounds import MAX_JSON_DEPTH, JSONTooDeep, check_depth


def _has_nul(value) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class BoundedJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as exc:
            raise ParseError(f"JSON parse error - the body is not valid {encoding}.") from exc
        try:
            check_depth(text)
            data = json.loads(text, parse_constant=self._refuse_constant)
        except JSONTooDeep as exc:
            raise ParseError(f"JSON parse error - {exc} The limit is {MAX_JSON_DEPTH}.") from exc
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        if _has_nul(data):
            raise ParseError("The JSON holds a NUL character (\\u0000), which no field may hold.")
        return data

    @staticmethod
    def _refuse_constant(name: str):
        raise ValueError(f"{name} is not a JSON number")
