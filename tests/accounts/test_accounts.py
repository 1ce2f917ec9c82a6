"""Accounts: password rules, throttled log-ins, sessions, password change and reset, deletion."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from django.test import Client

from decks.models import Deck, DeckRevision
from decks.services import deck_create
from playtest.models import Run
from tests.decks.factories import entries_of, legal_pool

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-7"
User = get_user_model()


@pytest.fixture
def user():
    return User.objects.create_user("alice", email="alice@example.com", password=PASSWORD)


def log_in(client, username="alice", password=PASSWORD, address="10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def signup(client, password, username="newplayer"):
    return client.post("/accounts/signup/", {"username": username, "email": "", "password1": password,
                                             "password2": password})


# --- Password rules ------------------------------------------------------------------------

@pytest.mark.parametrize("password, reason", [
    ("short-7x", "too short"),
    ("password123", "too common"),
    ("8461937205", "entirely numeric"),
])
def test_sign_up_refuses_weak_passwords_with_the_reason(client, password, reason):
    response = signup(client, password)
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not User.objects.filter(username="newplayer").exists()


def test_sign_up_accepts_a_long_uncommon_password_and_an_optional_email(client):
    response = client.post("/accounts/signup/", {"username": "bob", "email": "bob@example.com",
                                                 "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert User.objects.get(username="bob").email == "bob@example.com"
    welcome = client.get(response["Location"]).content.decode()  # and is told where to start
    assert "Welcome, bob. A first step: copy a starter deck" in welcome


def test_an_invited_visitor_who_signs_up_comes_back_to_the_page_that_sent_them(client):
    """A table's link sends a logged-out visitor to the log-in page with `next`; its sign-up link carries it on,
    and signing up lands them back on the table."""
    table_path = "/dread-draw/tables/6f0c3a52-94d1-4f41-9c3e-2b0e7b4a8f11/"
    login_page = client.get(table_path, follow=True)
    assert login_page.redirect_chain[-1][0].startswith("/accounts/login/?next=")
    html = login_page.content.decode()
    assert 'href="/accounts/signup/?next=/dread-draw/tables/6f0c3a52-94d1-4f41-9c3e-2b0e7b4a8f11/"' in html
    form = client.get(f"/accounts/signup/?next={table_path}").content.decode()
    assert f'name="next" value="{table_path}"' in form
    response = client.post("/accounts/signup/", {"username": "visitor", "email": "", "password1": PASSWORD,
                                                 "password2": PASSWORD, "next": table_path})
    assert response.status_code == 302 and response["Location"] == table_path
    assert int(client.session["_auth_user_id"]) == User.objects.get(username="visitor").pk


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)",
                                    "http://testserver.evil.example/"])
def test_sign_up_drops_a_next_that_leaves_the_site(client, target):
    form = client.get("/accounts/signup/", {"next": target}).content.decode()
    assert "evil" not in form and "javascript" not in form
    response = client.post("/accounts/signup/", {"username": "visitor", "email": "", "password1": PASSWORD,
                                                 "password2": PASSWORD, "next": target})
    assert response.status_code == 302 and response["Location"] == "/"


# --- Log-in, throttle, session -------------------------------------------------------------

def test_log_in_renews_the_session_key(client, user):
    client.get("/accounts/login/")
    session = client.session  # an anonymous session exists before the log-in
    session["marker"] = 1
    session.save()
    before = client.cookies["sessionid"].value
    assert log_in(client).status_code == 302
    after = client.cookies["sessionid"].value
    assert after != before
    assert not Session.objects.filter(session_key=before).exists()


def test_log_out_ends_the_session_on_the_server(client, user):
    log_in(client)
    key = client.cookies["sessionid"].value
    assert client.post("/accounts/logout/").status_code == 302
    assert not Session.objects.filter(session_key=key).exists()
    # Replaying the old cookie does not log anyone in.
    replay = Client()
    replay.cookies["sessionid"] = key
    assert "alice" not in replay.get("/").content.decode()


def test_log_out_by_get_asks_and_logs_out_no_one(client, user):
    """A GET (a bookmark, a link from elsewhere) must not end a session: it shows the button that does."""
    log_in(client)
    page = client.get("/accounts/logout/")
    assert page.status_code == 200 and '<form method="post" action="/accounts/logout/"' in page.content.decode()
    assert "alice" in client.get("/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert "alice" not in client.get("/").content.decode()


def test_failed_log_ins_lock_the_username_for_that_address_only(client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    for _ in range(3):
        response = log_in(client, password="wrong-password")
        assert response.status_code == 400
    locked = log_in(client)  # even the right password is not checked now
    assert locked.status_code == 429
    assert "Too many failed log-ins for this account from your address" in locked.content.decode()
    assert 800 < int(locked["Retry-After"]) <= 900
    assert "_auth_user_id" not in client.session
    # Another address is not locked out by the attacker's failures.
    assert log_in(Client(), address="10.0.0.2").status_code == 302


def test_a_success_clears_the_failures(client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    log_in(client, password="wrong-password")
    log_in(client, password="wrong-password")
    assert log_in(client).status_code == 302
    client.post("/accounts/logout/")
    log_in(client, password="wrong-password")
    log_in(client, password="wrong-password")
    assert log_in(client).status_code == 302


def test_an_address_over_its_limit_is_refused_only_for_the_usernames_that_failed_from_it(client, user, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 4
    for n in range(4):
        assert log_in(client, username=f"guess{n}", password="wrong-password").status_code == 400
    refused = log_in(client, username="guess0", password="wrong-password")
    assert refused.status_code == 429 and "Retry-After" in refused
    assert "from your address, this account among them" in refused.content.decode()
    # A user behind the same address (a proxy, a NAT) who has not failed still logs in.
    assert log_in(Client()).status_code == 302


def test_no_client_can_lock_everyone_out_from_one_address(user, settings):
    """The attack of the issue: behind one proxy address, more failures than the address limit."""
    alices_browser = Client()
    assert log_in(alices_browser).status_code == 302  # she has logged in from this browser before
    alices_browser.post("/accounts/logout/")
    User.objects.create_user("bob", password=PASSWORD)
    attacker = Client()
    for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT + 5):
        log_in(attacker, username=f"guess{n}", password="wrong-password")
    for n in range(settings.LOGIN_FAILURE_LIMIT + 2):  # and alice's account itself, past every pair limit
        log_in(attacker, username="alice", password=f"wrong-{n}")
    assert log_in(attacker, username="alice").status_code == 429  # the guesser is locked out
    assert log_in(Client(), username="bob").status_code == 302  # everyone else at the address logs in
    assert log_in(alices_browser).status_code == 302  # and so does alice from her browser


def test_guessing_one_account_from_many_addresses_slows_new_devices_and_spares_the_owners(user, settings):
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 4
    settings.LOGIN_ACCOUNT_SLOWDOWN_SECONDS = 60
    owner = Client()
    assert log_in(owner, address="10.0.0.50").status_code == 302  # leaves the device cookie
    assert owner.cookies["dg_device"].value
    owner.post("/accounts/logout/")
    for n in range(4):  # a botnet: one failure from each of many addresses
        assert log_in(Client(), password="wrong-password", address=f"10.1.0.{n}").status_code == 400
    first = log_in(Client(), password="wrong-password", address="10.1.0.100")
    assert first.status_code == 400  # the one check of this slot
    slowed = log_in(Client(), password="wrong-password", address="10.1.0.101")
    assert slowed.status_code == 429
    assert 0 < int(slowed["Retry-After"]) <= 60
    assert "one attempt every 60 seconds" in slowed.content.decode()
    # The owner's browser, on yet another address, is not slowed down.
    assert log_in(owner, address="10.2.0.1").status_code == 302


def test_a_device_cookie_for_another_account_or_forged_does_not_exempt(user, settings):
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 1
    User.objects.create_user("mallory", password=PASSWORD)
    attacker = Client()
    assert log_in(attacker, username="mallory").status_code == 302  # mallory's own device cookie
    attacker.post("/accounts/logout/")
    assert log_in(Client(), password="wrong-password", address="10.3.0.1").status_code == 400
    assert log_in(attacker, password="wrong-password", address="10.3.0.2").status_code == 400  # takes the slot
    assert log_in(attacker, password="wrong-password", address="10.3.0.3").status_code == 429
    forged = Client()
    forged.cookies["dg_device"] = "alice"
    assert log_in(forged, address="10.3.0.4").status_code == 429


def test_delete_account_shares_the_limits(client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    client.force_login(user)
    for _ in range(2):
        assert client.post("/accounts/delete/", {"password": "nope"}, REMOTE_ADDR="10.4.0.1").status_code == 400
    locked = client.post("/accounts/delete/", {"password": PASSWORD}, REMOTE_ADDR="10.4.0.1")
    assert "Too many failed log-ins for this account" in locked.content.decode()
    assert User.objects.filter(pk=user.pk).exists()


# --- Password change and reset -------------------------------------------------------------

def test_password_change_needs_the_old_password_and_logs_out_other_sessions(client, user):
    other_device = Client()
    log_in(other_device)
    log_in(client)
    wrong = client.post("/accounts/password_change/", {"old_password": "nope", "new_password1": "another-passphrase-9",
                                                       "new_password2": "another-passphrase-9"})
    assert wrong.status_code == 400 and "incorrectly" in wrong.content.decode()  # refused, as every form is
    unlike = client.post("/accounts/password_change/", {"old_password": PASSWORD,
                                                        "new_password1": "another-passphrase-9",
                                                        "new_password2": "another-passphrase-8"})
    assert unlike.status_code == 400 and "didn’t match" in unlike.content.decode()
    done = client.post("/accounts/password_change/", {"old_password": PASSWORD, "new_password1": "another-passphrase-9",
                                                      "new_password2": "another-passphrase-9"})
    assert done.status_code == 302 and done["Location"] == "/accounts/password_change/done/"
    assert "Password changed" in client.get(done["Location"]).content.decode()
    assert "alice" in client.get("/").content.decode()  # this session stays
    assert "alice" not in other_device.get("/").content.decode()  # the other one is logged out
    user.refresh_from_db()
    assert user.check_password("another-passphrase-9")


def test_password_reset_by_email_link_works_once(client, user):
    assert "Reset your password" in client.get("/accounts/password_reset/").content.decode()
    response = client.post("/accounts/password_reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert "Check your e-mail" in client.get(response["Location"]).content.decode()
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    weak = client.post(set_url, {"new_password1": "password123", "new_password2": "password123"})
    assert "too common" in weak.content.decode()
    done = client.post(set_url, {"new_password1": "brand-new-phrase-4", "new_password2": "brand-new-phrase-4"})
    assert done.status_code == 302
    assert "Password set" in client.get(done["Location"]).content.decode()
    user.refresh_from_db()
    assert user.check_password("brand-new-phrase-4")
    again = Client().get(link, follow=True)
    assert "not valid any more" in again.content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client, user):
    response = client.post("/accounts/password_reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []


def test_asking_again_and_again_sends_an_account_one_reset_mail_in_its_interval(client, user):
    """A mailbox could be flooded: every request sent a mail. The answers stay alike, mail or none."""
    for _ in range(3):
        response = Client().post("/accounts/password_reset/", {"email": "alice@example.com"})
        assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1


def test_accounts_made_from_one_address_are_counted_not_the_sign_up_page(client, monkeypatch):
    from django.core.cache import cache
    from rest_framework.throttling import SimpleRateThrottle

    cache.clear()
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "signups", "2/hour")
    for _ in range(3):
        assert Client().get("/accounts/signup/").status_code == 200
    for n in range(3):
        response = Client().post("/accounts/signup/", {"username": f"maker{n}", "password1": PASSWORD,
                                                       "password2": PASSWORD})
        if n < 2:
            assert response.status_code == 302
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "try again in" in response.content.decode()
    assert list(get_user_model().objects.filter(username__startswith="maker").values_list("username", flat=True)) \
        == ["maker0", "maker1"]
    cache.clear()


# --- Account deletion ----------------------------------------------------------------------

def test_account_deletion_needs_the_password_and_removes_the_decks(client, user):
    deck = deck_create(owner=user, name="Mine", entries=entries_of(*[(c, 4) for c in legal_pool(9)]))
    Run.objects.create(owner=user, kind="test_sum", games=1, chunk_size=1, seed=1)
    other = User.objects.create_user("bob", password=PASSWORD)
    kept = deck_create(owner=other, name="Bob's", entries=[])
    log_in(client)
    page = client.get("/accounts/delete/")
    assert "1 decks" in page.content.decode()
    wrong = client.post("/accounts/delete/", {"password": "wrong-password"})
    assert wrong.status_code == 400 and "nothing was deleted" in wrong.content.decode()
    assert User.objects.filter(pk=user.pk).exists() and Deck.objects.filter(pk=deck.pk).exists()

    key = client.cookies["sessionid"].value
    done = client.post("/accounts/delete/", {"password": PASSWORD}, follow=True)
    assert "Your account and its 1 decks were deleted." in done.content.decode()
    assert not User.objects.filter(pk=user.pk).exists()
    assert not Deck.objects.filter(pk=deck.pk).exists()
    assert not DeckRevision.objects.filter(deck_id=deck.pk).exists()
    assert not Run.objects.filter(owner_id=user.pk).exists()
    assert not Session.objects.filter(session_key=key).exists()
    assert Deck.objects.filter(pk=kept.pk).exists()


def test_account_pages_need_a_log_in(client):
    for url in ("/accounts/", "/accounts/delete/", "/accounts/password_change/"):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_admins_log_in_is_the_sites_with_its_limits(client, user):
    """The admin's own form told a locked-out staff member that the right password was wrong."""
    response = client.get("/admin/login/", {"next": "/admin/"})
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/admin/"
    assert client.get("/admin/")["Location"].startswith("/admin/login/")  # the admin sends there, so here
    client.force_login(user)  # signed in, not staff
    refused = client.get("/admin/login/")
    assert refused.status_code == 403  # the site's page: why, and as whom
    assert "The admin is for staff accounts" in refused.content.decode()
    assert "You are logged in as alice." in refused.content.decode()


@pytest.mark.parametrize("name", ["\u0430lice", "b\u03bfb", "m\u0456x\u0435d"])  # Cyrillic а, Greek ο, Cyrillic і е
def test_a_name_mixing_look_alike_scripts_is_refused_as_one_that_can_pass_for_anothers(client, name):
    response = client.post("/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 400 and "which can make it pass for" in response.content.decode()
    assert not get_user_model().objects.filter(username=name).exists()


@pytest.mark.parametrize("name", ["алиса", "Ψυχή", "zoë", "山田_taro"])
def test_a_name_in_one_script_or_with_other_scripts_than_the_look_alikes_is_taken(client, name):
    response = client.post("/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:500]


@pytest.mark.parametrize("name", ["taken-name", "TAKEN-NAME"])
def test_a_name_taken_in_any_case_is_refused_beside_its_field_with_what_was_typed_kept(client, name):
    """Django's form answers a taken name with an error and no name; the look-alike check then failed on it (500)."""
    get_user_model().objects.create_user("taken-name", password=PASSWORD)
    response = client.post("/accounts/signup/", {"username": name, "email": "me@example.com", "password1": PASSWORD,
                                                 "password2": PASSWORD})
    page = response.content.decode()
    assert response.status_code == 400 and "A user with that username already exists." in page
    assert 'value="me@example.com"' in page and get_user_model().objects.count() == 1
