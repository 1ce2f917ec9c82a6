"""The deck domain's errors: each a stable code and an HTTP status, rendered by config.api_errors.

Page views turn them into the matching page (404, 403, a form error) with decks.views.
"""

from __future__ import annotations

from core.errors import DomainError, ErrorCode


class DeckNotFound(DomainError):
    status_code = 404
    default_code = ErrorCode.DECK_NOT_FOUND
    default_message = "No such deck."


class DeckForbidden(DomainError):
    status_code = 403
    default_code = ErrorCode.NOT_DECK_OWNER
    default_message = "Only the deck's owner may change it."


class VersionRequired(DomainError):
    status_code = 428
    default_code = ErrorCode.VERSION_REQUIRED
    default_message = "Send the deck's version (its ETag) in If-Match, so that another edit is never overwritten."


class StaleVersion(DomainError):
    status_code = 412
    default_code = ErrorCode.STALE_VERSION
    default_message = "The deck was changed since you loaded it; reload it and apply your change again."


class InvalidDeckList(DomainError):
    status_code = 400
    default_code = ErrorCode.INVALID_DECK_LIST
    default_message = "The deck list has lines that cannot be read; nothing was saved."


class InvalidDeckCode(DomainError):
    status_code = 400
    default_code = ErrorCode.INVALID_DECK_CODE
    default_message = "The deck code cannot be read."


class InvalidDeck(DomainError):
    status_code = 400
    default_code = ErrorCode.INVALID_DECK


class StaleTag(InvalidDeck):
    """A card's tag changed since the player saw it (decks.considering.deck_tag_card's `was`)."""

    status_code = 409
    default_code = ErrorCode.STALE_VERSION
