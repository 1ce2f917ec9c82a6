"""What the shared machinery enforces on every operation, stated once here by postprocessing hooks.

The shared machinery (config.api_errors, the request bounds, the throttles, authentication and
the database guard) can answer any operation with these statuses, so the schema says so once here
instead of in every view; every error response's body is the one envelope.

And two rules of every request: no text may hold a NUL character (config/middleware.py refuses it in
the path and the query string, config/parsers.py anywhere in a JSON body), and a JSON object of a
request holds the fields its schema names and no other (config/api_contract.py refuses the rest), so
that a misspelt field is an error rather than silently ignored.
"""

from __future__ import annotations

ENVELOPE_REF = {"$ref": "#/components/schemas/ErrorEnvelope"}
ENVELOPE_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "details"],
            "properties": {
                "code": {"type": "string", "description": "Stable machine-readable code, e.g. invalid_query."},
                "message": {"type": "string", "description": "What is wrong, naming the field, line or position."},
                "details": {"type": "object", "additionalProperties": True,
                            "description": "What locates the problem: fields, line numbers, a query position."},
            },
        }
    },
}

SHARED = {
    "400": "Bad input: the envelope names the field, line or query position at fault.",
    "422": "The request fits this schema, but a rule no schema states refuses it; error.code says which: a search "
           "query, deck list, deck code or action notation that does not read (invalid_query, invalid_deck_list, "
           "invalid_deck_code, bad_notation), a card, deck or category that is not there or not of the kind needed "
           "(unknown_card, invalid_deck, invalid_parameter, deck_format, deck_unplayable), a move the game's rules "
           "refuse (illegal_action, illegal_decision, invalid), exactly one of two parameters "
           "(exactly_one_parameter), or run parameters that play no game or too many (invalid_params, "
           "games_out_of_range). The message names the field, line or rule.",
    "401": "Not authenticated, or an unknown or revoked token (WWW-Authenticate: Bearer).",
    "403": "Not allowed to do this, or a browser session's request without its CSRF token.",
    "404": "No such object, one you may not see, or a page past the last.",
    "413": "The request body is larger than the limit (details.limit, in bytes).",
    "415": "The body's content type is not one this operation reads.",
    "429": "Too many requests (see Retry-After, RateLimit and RateLimit-Policy), too many failed log-ins, or "
           "too many runs at once.",
    "503": "The database is unavailable for a moment; try again (see Retry-After).",
}


# A text without NUL: ECMA and Python regular expressions both read \x00.
NO_NUL = "^[^\\x00]*$"
# The characters a trimmed field strips (Python's str.isspace, as DRF trims), spelled out: \s differs between the
# two (Python's holds \x1c-\x1f and \x85, ECMA's \ufeff), so a client's reading of \s would disagree with ours.
BLANK = "\\t\\n\\x0b\\x0c\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
# Patterns the serializers declare, each with the NUL rule folded in (one pattern per string in OpenAPI 3.0).
WITHOUT_NUL = {r"\S": f"^[^\\x00]*[^{BLANK}\\x00][^\\x00]*$"}


def _state_request_rules(node, body: bool = True) -> None:
    """Every text of a request refuses NUL; every object of a request closes its fields."""
    if not isinstance(node, dict):
        return
    if node.get("type") == "string" and "enum" not in node and "format" not in node:
        if body and node.get("minLength", 0) >= 1 and "pattern" not in node:
            node["pattern"] = r"\S"  # a body's field that may not be blank is trimmed first: spaces are blank
        node["pattern"] = WITHOUT_NUL[node["pattern"]] if "pattern" in node else NO_NUL
    if "properties" in node:
        if node.get("type") == "object":  # a whole object (a oneOf's part only adds to one)
            node.setdefault("additionalProperties", False)
        for field in node["properties"].values():
            _state_request_rules(field)
    for key in ("items", "additionalProperties"):  # not "not": what it refuses is a pattern, not an object to close
        _state_request_rules(node.get(key))
    for key in ("allOf", "oneOf", "anyOf"):
        for form in node.get(key, []):
            _state_request_rules(form)


def state_request_rules(result, generator, request, public):
    """The request rules of the module's text, on every parameter and request body (COMPONENT_SPLIT_REQUEST
    names the components that requests use *Request)."""
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            _state_request_rules(component)
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            for parameter in operation.get("parameters", []):
                if parameter.get("in") in ("path", "query", "header"):
                    _state_request_rules(parameter.get("schema", {}), body=False)
            body = operation.get("requestBody") or {}
            for media in body.get("content", {}).values():
                _state_request_rules(media.get("schema", {}))
                if _requires_fields(media.get("schema", {}), result):
                    body["required"] = True  # no body is then no object with the fields it must have
    return result


def _requires_fields(schema: dict, result: dict) -> bool:
    """Whether every object the schema allows has a required field (for a oneOf, every form)."""
    if "$ref" in schema:
        schema = result["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if "oneOf" in schema:
        return all(_requires_fields(form, result) for form in schema["oneOf"])
    return bool(schema.get("required"))


def _applies(status: str, operation: dict, path: str) -> bool:
    if status in ("413", "415"):
        return "requestBody" in operation
    if status == "404":  # an object in the path, or a page number past the end
        return "{" in path or any(p.get("name") == "page" for p in operation.get("parameters", []))
    if status in ("400", "422"):
        return bool(operation.get("parameters")) or "requestBody" in operation
    return True


def document_shared_errors(result, generator, request, public):
    result.setdefault("components", {}).setdefault("schemas", {})["ErrorEnvelope"] = ENVELOPE_SCHEMA
    for path, methods in result.get("paths", {}).items():
        for operation in methods.values():
            responses = operation.setdefault("responses", {})
            for status, description in SHARED.items():
                if status not in responses and _applies(status, operation, path):
                    responses[status] = {"description": description}
            for status, response in responses.items():
                if status[0] in "45" and not response.get("content"):
                    response["content"] = {"application/json": {"schema": ENVELOPE_REF}}
    return state_request_rules(result, generator, request, public)
