"""What the search language reports: one error that stops the search, warnings that do not."""

from __future__ import annotations

from dataclasses import dataclass


class SearchError(ValueError):
    """A query that cannot be run: where (0-based `position` in the text) and what was expected there.

    `parameter` names the request parameter at fault (order, direction) when the problem is not in
    the query text; `position` is then None.
    """

    def __init__(self, message: str, *, position: int | None = None, expected: list[str] | None = None,
                 parameter: str | None = None, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.expected = expected or []
        self.parameter = parameter
        self.suggestions = suggestions or []  # "did you mean", best first

    def details(self) -> dict[str, object]:
        details: dict[str, object] = {"expected": self.expected}
        if self.suggestions:
            details["suggestions"] = self.suggestions
        if self.position is not None:
            details["position"] = self.position
            details["column"] = self.position + 1
        if self.parameter:
            details["parameter"] = self.parameter
        return details

    def __str__(self) -> str:
        if self.position is None:
            return self.message
        return f"{self.message} (column {self.position + 1})"


@dataclass(frozen=True, slots=True)
class SearchWarning:
    """A term that was understood but ignored, or read otherwise than a player may expect; with the terms that
    may have been meant, best first."""

    message: str
    position: int | None = None
    suggestions: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"message": self.message}
        if self.position is not None:
            data["position"] = self.position
            data["column"] = self.position + 1
        if self.suggestions:
            data["suggestions"] = list(self.suggestions)
        return data
