"""The domain error: what services, selectors, job kinds and engines raise when a request can't be met.

HackSoft's ApplicationError pattern: a plain exception with a stable code, a message for people and the
details that locate the problem (a field, a line, a rule number). It knows nothing of HTTP frameworks;
`status_code` is only the kind of failure, named as the HTTP status the web layer answers with
(config.api_errors maps it to the API's error envelope; page views show `message`).
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    status_code = 400
    default_code = "bad_request"
    default_message = "The request is not valid."

    def __init__(self, message: str | None = None, *, code: str | None = None,
                 details: dict[str, Any] | None = None, status_code: int | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)
        self.code = code or self.default_code
        self.details = details or {}
        if status_code is not None:
            self.status_code = status_code
