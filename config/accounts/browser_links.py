"""E-mailed links that let a new browser of the owner's in while guessers keep an account locked (docs/operations.md,
OPS-1).

Opening a link proves that whoever opens it reads the account's e-mail. The browser that confirms it becomes one of the
account's known browsers (the device cookie of config.accounts.throttle), whose password checks have a budget of their
own that no guesser elsewhere can spend. The link logs no one in: the password is still asked for.

At most one link per account is sent every LOGIN_LINK_INTERVAL_SECONDS, so asking for links cannot flood a mailbox; a
guesser who asks for one only puts a link in the owner's mailbox, which lets in whichever browser opens it there. A link
works once, for LOGIN_LINK_VALID_SECONDS, and only while the account has the address it was sent to.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.template.loader import render_to_string

from . import throttle

SALT = "accounts.browser-link"


class BrowserLinkRefused(Exception):
    """A link that lets no browser in, with the reason to show."""


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _sent_key(user_pk: int) -> str:
    return "login-link:sent:" + _digest(str(user_pk))


def _used_key(nonce: str) -> str:
    return "login-link:used:" + _digest(nonce)


def browser_link_send(*, username: str, link_for: Callable[[str], str]) -> None:
    """E-mail the account a link (made by `link_for` from its token), unless it has no address or had one lately.

    Says nothing either way: the answer must not tell who has an account or an address."""
    user_model = get_user_model()
    user = user_model._default_manager.filter(**{user_model.USERNAME_FIELD: username}).first()
    if user is None or not user.is_active or not user.email:
        return
    if not throttle.cache.add(_sent_key(user.pk), 1, timeout=settings.LOGIN_LINK_INTERVAL_SECONDS):
        return
    token = signing.dumps({"u": user.pk, "e": _digest(user.email), "n": secrets.token_urlsafe(16)}, salt=SALT)
    context = {"username": user.get_username(), "link": link_for(token),
               "minutes": settings.LOGIN_LINK_VALID_SECONDS // 60}
    send_mail("A link to let your browser in to Dreadgate",
              render_to_string("registration/browser_link_email.txt", context), None, [user.email])


def _account_of(token: str):
    try:
        value = signing.loads(token, salt=SALT, max_age=settings.LOGIN_LINK_VALID_SECONDS)
    except signing.SignatureExpired:
        raise BrowserLinkRefused("This link has expired; ask for a new one.") from None
    except signing.BadSignature:
        raise BrowserLinkRefused("This link is not valid; copy the whole link from the e-mail.") from None
    user = get_user_model()._default_manager.filter(pk=value.get("u")).first()
    if user is None or not user.is_active or not user.email or _digest(user.email) != value.get("e"):
        raise BrowserLinkRefused("This link is not valid any more: the account or its e-mail address has changed.")
    return user, str(value.get("n", ""))


def browser_link_username(*, token: str) -> str:
    """The username a link is for, without using it up; BrowserLinkRefused if it lets no browser in."""
    user, _ = _account_of(token)
    return user.get_username()


def browser_link_redeem(*, token: str) -> str:
    """Use the link up and return the username whose known browser the caller may make of this one."""
    user, nonce = _account_of(token)
    if not throttle.cache.add(_used_key(nonce), 1, timeout=settings.LOGIN_LINK_VALID_SECONDS):
        raise BrowserLinkRefused("This link has already been used; ask for a new one.")
    return user.get_username()
