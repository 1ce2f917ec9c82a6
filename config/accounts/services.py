from __future__ import annotations

from django.db import transaction

from . import tokens
from .models import AccessToken


@transaction.atomic
def account_delete(*, user) -> int:
    """Delete a user with everything they own (decks with their revisions, runs); returns the deck count."""
    decks = user.decks.count()
    user.decks.all().delete()
    user.delete()  # runs and the remaining relations cascade or are set null
    return decks


MAX_TOKENS_PER_USER = 50


class TokenLimitReached(Exception):
    pass


def token_create(*, user, name: str) -> tuple[AccessToken, str]:
    """A new personal access token; returns the row and the token, which is never shown again."""
    if user.access_tokens.count() >= MAX_TOKENS_PER_USER:
        raise TokenLimitReached(f"You have {MAX_TOKENS_PER_USER} tokens, the most one account may have; "
                                "revoke one first.")
    token = tokens.new_token()
    row = AccessToken.objects.create(user=user, name=name, prefix=token[:12], digest=tokens.digest(token))
    return row, token


def token_revoke(*, user, token_id: int) -> bool:
    """Revoke one of the user's tokens (its requests are refused from now on); False if there was none."""
    deleted, _ = AccessToken.objects.filter(user=user, pk=token_id).delete()
    return deleted > 0
