"""The API keeps to its schema: one rule checks every request against the operation it calls.

The OpenAPI schema (/api/schema/) is generated from the views once per process. After authentication
(with CSRF for sessions) and the view's permission classes, before its handler, the operation's
declared path parameters, query parameters (type, bounds, enum, length, repeated or not, required)
and its JSON body (against the request body's schema) are checked; a HEAD request is checked as the
GET it runs. Anything outside them is a 400 in the error envelope naming the parameter or field and
what is allowed: a path id or a version past what its column holds is refused, never looked up
(core/intbounds.py); a request that passes and is still refused (an unknown card, a move the rules
forbid) is a 422 (config/api_errors.py). (The check is the first of DEFAULT_THROTTLE_CLASSES:
DRF has no other hook between the permission checks and the handler.) So the schema is the contract by
construction: a bound declared is a bound enforced, nothing is clamped or coerced on the way (an
array `page`, `mine=null`, `{"list": 0}` are refused), and a new parameter is checked the day it
is declared.
"""

from __future__ import annotations

import copy
import json
import re
import threading
from typing import Any

from drf_spectacular.settings import spectacular_settings
from jsonschema import Draft4Validator
from rest_framework.exceptions import UnsupportedMediaType, ValidationError
from rest_framework.request import is_form_media_type
from rest_framework.settings import api_settings

from core.errors import ErrorCode
from core.intbounds import shortened

from .api_errors import ApiError

# ASCII digits only: int() and float() would also read "٣" and "1_0".
_INTEGER = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_lock = threading.Lock()
_operations: dict[tuple[Any, str], dict] | None = None
_validators: dict[int, Draft4Validator] = {}


class ContractError(Exception):
    def __init__(self, message: str, details: dict) -> None:
        super().__init__(message)
        self.message, self.details = message, details


# --- The schema, once per process ----------------------------------------------------------------

def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema objects as JSON Schema (draft 4): `nullable` becomes a null alternative."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _json_schema(value) for key, value in node.items()
           if key not in ("nullable", "readOnly", "writeOnly", "example", "examples", "xml", "externalDocs",
                          "deprecated")}  # draft 4 ignores `discriminator`; check_body reads it to name the field
    if node.get("nullable"):
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        if "type" in out and isinstance(out["type"], str):
            out["type"] = [out["type"], "null"]
        elif "type" not in out:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def _build() -> dict[tuple[Any, str], dict]:
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator()
    schema = generator.get_schema(request=None, public=True)
    components = _json_schema(schema.get("components", {}))
    operations: dict[tuple[Any, str], dict] = {}
    for path, _regex, method, callback in generator.endpoints:
        view = generator.create_view(callback, method)
        key = generator.coerce_path(path, method, view)
        key = key if key.startswith("/") else "/" + key
        operation = schema["paths"].get(key, {}).get(method.lower())
        if operation is None:
            continue
        body = (operation.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("schema")
        body = {"components": components, **_json_schema(body)} if body else None
        operations[(callback, method.upper())] = {
            "path": key,
            "query": [p for p in operation.get("parameters", []) if p.get("in") == "query"],
            "path_parameters": [p for p in operation.get("parameters", []) if p.get("in") == "path"],
            "body": body,
            "forms": _forms_by_name(body) if body else None,
            "body_required": bool((operation.get("requestBody") or {}).get("required")),
        }
    return operations


def operation_for(callback, method: str) -> dict | None:
    global _operations
    if _operations is None:
        with _lock:
            if _operations is None:
                _operations = _build()
    method = method.upper()
    return _operations.get((callback, "GET" if method == "HEAD" else method))  # HEAD runs the GET handler


def reset() -> None:
    """Forget the schema (tests that change the URL configuration or the views)."""
    global _operations
    with _lock:
        _operations = None
        _validators.clear()


# --- Query parameters -----------------------------------------------------------------------------

def _allowed(schema: dict) -> str:
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    kind = schema.get("type", "string")
    if kind in ("integer", "number"):
        word = "a whole number" if kind == "integer" else "a number"
        if schema.get("multipleOf") == 2:
            word = "an even number"
        elif schema.get("multipleOf") is not None:
            word = f"a multiple of {schema['multipleOf']}"
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"{word} from {low} to {high}"
        if low is not None:
            return f"{word} from {low}"
        if high is not None:
            return f"{word} up to {high}"
        return word
    if kind == "boolean":
        return "true or false"
    low, high = schema.get("minLength"), schema.get("maxLength")
    if high is not None:
        return f"text of {low or 0} to {high} characters"
    if low:
        return f"text of at least {low} characters"
    return "text"


def _check_value(name: str, raw: str, schema: dict) -> None:
    kind = schema.get("type", "string")
    value: Any = raw
    ok = True
    if kind == "integer":
        ok = bool(_INTEGER.fullmatch(raw))
        value = int(raw) if ok else None
    elif kind == "number":
        ok = bool(_NUMBER.fullmatch(raw))
        value = float(raw) if ok else None
    elif kind == "boolean":
        ok = raw in ("true", "false")
    if ok and "enum" in schema:
        enum = [str(v).lower() if isinstance(v, bool) else v for v in schema["enum"]]
        ok = (value if kind in ("integer", "number") else raw) in enum
    if ok and kind in ("integer", "number"):
        if schema.get("minimum") is not None and value < schema["minimum"]:
            ok = False
        if schema.get("maximum") is not None and value > schema["maximum"]:
            ok = False
        if schema.get("multipleOf") and value % schema["multipleOf"]:
            ok = False
    if ok and kind == "string":
        if schema.get("minLength") is not None and len(raw) < schema["minLength"]:
            ok = False
        if schema.get("maxLength") is not None and len(raw) > schema["maxLength"]:
            ok = False
        if schema.get("pattern") and not re.search(schema["pattern"], raw):
            ok = False
    if not ok:
        shown = shortened(raw)
        raise ContractError(f"{name} must be {_allowed(schema)}, not {shown!r}.",
                            {"parameter": name, "allowed": _allowed(schema), "value": shown})


def check_query(operation: dict, query) -> None:
    for parameter in operation["query"]:
        name, schema = parameter["name"], parameter.get("schema", {})
        values = query.getlist(name)
        if not values:
            if parameter.get("required"):
                raise ContractError(f"{name} is required ({_allowed(schema)}).", {"parameter": name})
            continue
        if schema.get("type") == "array":
            items = schema.get("items", {})
            for raw in values:
                for part in (raw.split(",") if not parameter.get("explode", True) else [raw]):
                    _check_value(name, part, items)
            continue
        if len(values) > 1:
            raise ContractError(f"{name} is given {len(values)} times; it takes one value ({_allowed(schema)}).",
                                {"parameter": name})
        _check_value(name, values[0], schema)


def _schema_name(kwarg: str) -> str:
    """A URL keyword as the schema names it (drf-spectacular: pk is id, a _pk suffix is _id)."""
    if kwarg == "pk" and api_settings.SCHEMA_COERCE_PATH_PK:
        return "id"
    if kwarg.endswith("_pk") and spectacular_settings.SCHEMA_COERCE_PATH_PK_SUFFIX:
        return kwarg[:-3] + "_id"
    return kwarg


def check_path(operation: dict, kwargs: dict) -> None:
    """The URL's parameters (already matched by their converters) against their declared bounds."""
    values = {_schema_name(name): str(value) for name, value in kwargs.items()}
    for parameter in operation["path_parameters"]:
        name = parameter["name"]
        if name in values:
            _check_value(name, values[name], parameter.get("schema", {}))


# --- JSON bodies ----------------------------------------------------------------------------------

def _where(error) -> str:
    path = ""
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "body"


# What a JSON type is, in words (jsonschema says "is not of type 'integer'").
_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text", "boolean": "true or false",
               "array": "a list", "object": "an object ({…})", "null": "null"}


def _short(value) -> str:
    return shortened(json.dumps(value, ensure_ascii=False))


def _message(error) -> str:
    """jsonschema's message, or in words where its own would print a pattern, a type's name or a whole value: a
    size bound names the bound, a type what was expected, a pattern the rule."""
    kind, bound, value = error.validator, error.validator_value, error.instance
    if kind == "type" and isinstance(bound, str) and bound in _TYPE_WORDS:
        return f"{_short(value)} is not {_TYPE_WORDS[bound]}"
    if kind == "pattern" and isinstance(value, str):
        if error.schema.get("description"):
            return error.schema["description"]
        return "may not be blank" if not value.strip() else f"{_short(value)} holds characters not allowed here"
    if kind in ("maxItems", "minItems") and isinstance(value, list):
        return f"{len(value)} items given; {'at most' if kind == 'maxItems' else 'at least'} {bound} are allowed"
    if kind in ("maxLength", "minLength") and isinstance(value, str):
        return (f"{len(value)} characters given; {'at most' if kind == 'maxLength' else 'at least'} "
                f"{bound} are allowed")
    if kind in ("oneOf", "anyOf", "not") and error.schema.get("description"):  # the rule, as written
        return error.schema["description"]
    if kind == "additionalProperties" and isinstance(value, dict) and "properties" in error.schema:
        unknown = [str(key)[:40] for key in value if key not in error.schema["properties"]]
        return (f"{', '.join(unknown[:3])} {'is not a field' if len(unknown) == 1 else 'are not fields'} here; "
                f"the fields are {', '.join(error.schema['properties'])}")
    return error.message if len(error.message) <= 200 else error.message[:200] + "…"


def _chosen_form(error):
    """For a oneOf told apart by a discriminator (a run's kind), the errors of the form the body names, else None."""
    discriminator = error.schema.get("discriminator") if error.validator == "oneOf" else None
    if not discriminator or not isinstance(error.instance, dict):
        return None
    named = error.instance.get(discriminator["propertyName"])
    ref = discriminator.get("mapping", {}).get(named) if isinstance(named, str) else None  # {"kind": {}} names none
    forms = [form.get("$ref") for form in error.schema["oneOf"]]
    if ref not in forms:
        return None
    return [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == forms.index(ref)]


def _at_fault(error):
    """The error whose place names the field: for a oneOf told apart by a discriminator, the first error of the
    form the body names; for an anyOf (rules on parts of one object, as a table's decks with or without the
    starters), the deepest of its forms' own errors (13 decks: `decks`, not the body); else the error itself (a
    oneOf of whole values names the value)."""
    chosen = _chosen_form(error)
    if chosen:
        return min(chosen, key=lambda e: (len(e.absolute_path), e.message))
    if error.validator != "anyOf":
        return error
    deepest = max(error.context or [], key=lambda e: len(e.absolute_path), default=None)
    return deepest if deepest is not None and len(deepest.absolute_path) > len(error.absolute_path) else error


def _resolved(components: dict, node: dict) -> dict:
    """The schema a local reference names ({} for one the components do not hold)."""
    while "$ref" in node:
        node = components.get("schemas", {}).get(node["$ref"].rsplit("/", 1)[-1], {})
    return node


def _forms_by_name(schema: dict) -> tuple[str, dict[Any, dict]] | None:
    """For a body that is a oneOf told apart by a discriminator whose every form requires it and allows the one name
    that maps to the form: (the property, {name: the form as a schema of its own}). A body its named form accepts is
    then accepted by the oneOf (every other form refuses its name), so that form alone need be checked. None for any
    other body."""
    components = schema.get("components", {})
    top = _resolved(components, schema)
    discriminator, forms = top.get("discriminator") or {}, top.get("oneOf")
    name, mapping = discriminator.get("propertyName"), discriminator.get("mapping") or {}
    if not (forms and name and mapping) or sorted(f.get("$ref", "") for f in forms) != sorted(mapping.values()):
        return None
    for value, ref in mapping.items():
        form = _resolved(components, {"$ref": ref})
        if name not in form.get("required", ()) or \
                _resolved(components, form.get("properties", {}).get(name, {})).get("enum") != [value]:
            return None
    return name, {value: {"components": components, "$ref": ref} for value, ref in mapping.items()}


def _validator(schema: dict) -> Draft4Validator:
    validator = _validators.get(id(schema))
    if validator is None:
        validator = _validators[id(schema)] = Draft4Validator(copy.deepcopy(schema))
    return validator


def check_body(operation: dict, data) -> None:
    """Check a parsed JSON body against the operation's request body schema."""
    schema = operation["body"]
    if schema is None:
        return
    forms = operation.get("forms")
    if forms is not None and isinstance(data, dict):
        form = forms[1].get(data.get(forms[0])) if isinstance(data.get(forms[0]), str) else None
        if form is not None and _validator(form).is_valid(data):
            return  # a run submission checks its kind's form, not all four (a refusal still names the field as below)
    validator = _validator(schema)
    # The shallowest first; at one depth, a field not known before one missing: `collector_number` for `card` is
    # one mistake, which "card: This field is required." would leave the client to guess.
    error = next(iter(sorted(validator.iter_errors(data), key=lambda e: (
        len(e.absolute_path), e.validator != "additionalProperties", e.message))), None)
    if error is not None:
        fault = _at_fault(error)
        # The fault's own words when it is deeper than the error (a count inside an anyOf of whole decks), unless the
        # error states its rule: jsonschema's words for the error would print the whole value.
        deeper = fault is not error and not error.schema.get("description")
        where, message = _where(fault), _message(fault if _chosen_form(error) or deeper else error)
        if fault.validator == "required" and isinstance(fault.instance, dict):  # the missing field is the place
            missing = next(name for name in fault.validator_value if name not in fault.instance)
            where, message = (missing if where == "body" else f"{where}.{missing}"), "This field is required."
        raise ContractError(f"{where}: {message}", {"field": where, "fields": {where: [message]}})


class ApiContract:
    """Every API request against its operation in the schema (the first of DEFAULT_THROTTLE_CLASSES)."""

    def allow_request(self, request, view) -> bool:
        match = getattr(request._request, "resolver_match", None)
        operation = operation_for(match.func, request.method) if match is not None else None
        if operation is None:
            return True
        try:
            check_path(operation, match.kwargs)
            check_query(operation, request.query_params)
        except ContractError as exc:
            raise ApiError(exc.message, code=ErrorCode.INVALID_PARAMETER, details=exc.details) from None
        form = request._request
        if is_form_media_type(request.content_type) and (form.POST or form.FILES):
            # The API reads JSON alone (415 for any other body), but a form's fields were read already by the pages'
            # middleware (config.middleware), which leaves DRF nothing to read: an empty body for a urlencoded form,
            # a 500 for a multipart one. A form of no field is no body, as a test client's bare post sends.
            raise UnsupportedMediaType(request._request.content_type)
        if operation["body"] is not None:
            # Parsed (and bounded) by the API's one parser, whatever the case of its media type ("Application/JSON"
            # is JSON too); a body of another type is a 415 there. No body at all, where the operation requires
            # one, is checked as `{}` is: a field it requires is missing either way (where it may be left out, the
            # view's defaults stand for it).
            data = request.data
            sent = request.stream is not None or bool(data)
            if sent or operation["body_required"]:
                try:
                    check_body(operation, data if sent else {})
                except ContractError as exc:
                    raise ValidationError(exc.details["fields"]) from None  # the envelope names the field
        elif request.method in ("POST", "PUT", "PATCH") and isinstance(request.data, dict) and request.data:
            # An action that takes no body (an undo, a cancel): a field sent to it is a mistake, not ignored.
            name = next(iter(request.data))
            raise ValidationError({name: ["This action takes no body; send none, or {}."]})
        request.fits_the_schema = True  # a refusal from here on is by a rule beyond it (config.api_errors: 422)
        return True

    def wait(self):
        return None
