"""A session ended in one process is ended in every other at once, though each keeps its copy of the sessions it read
(config/accounts/sessions.py): gunicorn on a Redis of its own, the log-out made by this process."""

import urllib.error
import urllib.request

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

from config.accounts.sessions import SessionStore
from config.settings import cache_aliases
from tests.support import live_db

from .support import WebServer

pytestmark = [live_db, pytest.mark.faults]


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def account_page(web: WebServer, session_key: str) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{web.port}/accounts/")
    request.add_header("Cookie", f"{django_settings.SESSION_COOKIE_NAME}={session_key}")
    try:
        with urllib.request.build_opener(NoRedirects).open(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_log_out_elsewhere_ends_the_session_a_web_process_kept(tmp_path, redis, user, settings):
    settings.CACHES = cache_aliases(redis.url)
    settings.SESSION_ENGINE = "config.accounts.sessions"
    web = WebServer(tmp_path, {"CACHE_URL": redis.url}, workers=1)
    try:
        session = SessionStore()
        session.update({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: django_settings.AUTHENTICATION_BACKENDS[0],
                        HASH_SESSION_KEY: user.get_session_auth_hash()})
        session.create()
        cookie = session.session_key
        for _ in range(3):  # read once from Redis, then from the worker's copy
            assert account_page(web, cookie) == 200
        session.flush()  # the log-out, in another process than the web's
        assert account_page(web, cookie) == 302  # to the log-in page, at the very next request
    finally:
        web.stop()
