"""The domain error: what services, selectors, job kinds and engines raise when a request can't be met.

HackSoft's ApplicationError pattern: a plain exception with a stable code, a message for people and the
details that locate the problem (a field, a line, a rule number). It knows nothing of HTTP frameworks;
`status_code` is only the kind of failure, named as the HTTP status the web layer answers with
(config.api_errors maps it to the API's error envelope; page views show `message`). Its codes are the
members of ErrorCode, so that each is named once.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Every code a domain refusal can carry, named once: services, engines' adapters and the API's envelope
    use these members, and clients read their values (stable strings) in `error.code`."""

    AI_THINKING = "ai_thinking"  # a goldfish table's AI is choosing its move on a worker (409)
    AMBIGUOUS = "ambiguous"  # a fuzzy card name that several names hold (404, with the alternatives)
    BAD_NOTATION = "bad_notation"  # an action written in a notation that does not read
    BAD_REQUEST = "bad_request"  # the default: the request is not valid
    CARD_NOT_FOUND = "card_not_found"  # no card of that name
    COPIES_OVER_LIMIT = "copies_over_limit"  # more copies than the deck rules allow (DC-4, DC-5)
    DECK_FORMAT = "deck_format"  # a deck built for a format the game does not take (DC-8)
    DECK_ILLEGAL = "deck_illegal"  # the deck breaks its format's rules
    DECK_NOT_FOUND = "deck_not_found"
    DECK_UNPLAYABLE = "deck_unplayable"  # the engine can't play the deck
    EXACTLY_ONE_PARAMETER = "exactly_one_parameter"  # one of several parameters, and only one, is required
    GAMES_OUT_OF_RANGE = "games_out_of_range"
    ILLEGAL_ACTION = "illegal_action"  # a Dreadgate action the rules refuse
    ILLEGAL_DECISION = "illegal_decision"  # a Dread Draw decision the rules refuse
    INVALID = "invalid"  # a field's value does not read or is out of its bounds
    INVALID_DECK = "invalid_deck"
    INVALID_DECK_CODE = "invalid_deck_code"
    INVALID_DECK_LIST = "invalid_deck_list"
    INVALID_FILTER = "invalid_filter"
    INVALID_PARAMETER = "invalid_parameter"  # a query parameter
    INVALID_PARAMS = "invalid_params"  # a run's parameters
    INVALID_QUERY = "invalid_query"  # a search query that does not read
    INVALID_SEATS = "invalid_seats"
    INVALID_VALUE = "invalid_value"  # a value the database can't store
    NO_MATCH = "no_match"
    NOT_APPLICABLE = "not_applicable"
    NOT_DECK_OWNER = "not_deck_owner"
    NOT_PUBLIC = "not_public"
    NOT_REQUEUEABLE = "not_requeueable"
    NOT_STAFF = "not_staff"
    NOT_TABLE_OWNER = "not_table_owner"
    NOT_YOUR_SEAT = "not_your_seat"
    NOTHING_TO_TUNE = "nothing_to_tune"
    OWNER_CANNOT_JOIN = "owner_cannot_join"
    PRECONDITION_FAILED = "precondition_failed"  # If-Match names only a weak ETag, or If-None-Match matches (412)
    REVISION_NOT_FOUND = "revision_not_found"
    RULES_CHANGED = "rules_changed"  # a table closed by a change of rules (RV-5)
    STALE_TURN = "stale_turn"
    STALE_VERSION = "stale_version"  # If-Match names an older version (412)
    SWAP_STALE = "swap_stale"
    TABLE_FULL = "table_full"
    TABLE_NOT_OVER = "table_not_over"
    TABLE_WAITING = "table_waiting"
    THROTTLED = "throttled"
    TOO_MANY_RUNS = "too_many_runs"
    UNKNOWN_CARD = "unknown_card"
    VERSION_REQUIRED = "version_required"  # a write without If-Match (428)


class DomainError(Exception):
    status_code = 400
    default_code: str = ErrorCode.BAD_REQUEST
    default_message = "The request is not valid."

    def __init__(self, message: str | None = None, *, code: str | None = None,
                 details: dict[str, Any] | None = None, status_code: int | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)
        self.code = code or self.default_code
        self.details = details or {}
        if status_code is not None:
            self.status_code = status_code
