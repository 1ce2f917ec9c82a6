"""The schema's shared error responses, added to every operation by one postprocessing hook.

The shared machinery (config.api_errors, the request bounds, the throttles, authentication and
the database guard) can answer any operation with these statuses, so the schema says so once here
instead of in every view; every error response's body is the one envelope.
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
    "401": "Not authenticated, or an unknown or revoked token (WWW-Authenticate: Bearer).",
    "403": "Not allowed to do this, or a browser session's request without its CSRF token.",
    "404": "No such object, one you may not see, or a page past the last.",
    "413": "The request body is larger than the limit (details.limit, in bytes).",
    "415": "The body's content type is not one this operation reads.",
    "429": "Too many requests (see Retry-After, RateLimit and RateLimit-Policy), too many failed log-ins, or "
           "too many runs at once.",
    "503": "The database is unavailable for a moment; try again (see Retry-After).",
}


def _applies(status: str, operation: dict, path: str) -> bool:
    if status in ("413", "415"):
        return "requestBody" in operation
    if status == "404":  # an object in the path, or a page number past the end
        return "{" in path or any(p.get("name") == "page" for p in operation.get("parameters", []))
    if status == "400":
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
    return result
