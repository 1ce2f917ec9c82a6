"""A guessing attack on one account locks the guessers out and lets the owner in (docs/operations.md, decision
OPS-1): from a browser that logged in before (its device cookie), and from a new one once an e-mailed link has
proved that the owner holds the account's address."""

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-passphrase-7"
PROXY = "127.0.0.1"  # the TLS proxy in front of gunicorn: every request's REMOTE_ADDR
ATTACKERS = [f"10.{n // 100}.{n % 100}.7" for n in range(200)]  # hundreds of addresses


@pytest.fixture
def owner_account(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.LOGIN_ACCOUNT_SLOWDOWN_SECONDS = 600  # a slot freed while the test runs would blur the counts
    return get_user_model().objects.create_user("alice", email="alice@example.com", password=PASSWORD)


def log_in(client, address, password=PASSWORD, username="alice"):
    """A log-in through one trusted proxy, which appends the address it saw to X-Forwarded-For."""
    return client.post("/accounts/login/", {"username": username, "password": password},
                       REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)


def stranger(client):
    """The test client as a browser that has never been here (one client: a new one costs its middleware's start)."""
    client.cookies.clear()
    return client


def link_in_mail(outbox_index=-1) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/login/browser/\S+)", mail.outbox[outbox_index].body).group(1)


def recognise_by_e_mail(browser, address, username="alice") -> None:
    """The owner's path from a new browser: ask for the link, open it, confirm."""
    asked = browser.post("/accounts/login/browser/", {"username": username}, REMOTE_ADDR=PROXY,
                         HTTP_X_FORWARDED_FOR=address)
    assert asked.status_code == 200 and "If the account" in asked.content.decode()
    link = link_in_mail()
    page = browser.get(link, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)
    assert page.status_code == 200 and "Let this browser in" in page.content.decode()
    confirmed = browser.post(link, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)
    assert confirmed.status_code == 302 and confirmed["Location"].startswith("/accounts/login/")


def test_an_attack_from_hundreds_of_addresses_locks_the_attackers_and_lets_the_owners_browsers_in(owner_account,
                                                                                                  settings, client):
    known_browser = Client()
    assert log_in(known_browser, "198.51.100.10").status_code == 302
    known_browser.post("/accounts/logout/")

    answers = [log_in(stranger(client), address, password=f"guess-{n}").status_code
               for n, address in enumerate(ATTACKERS)]
    checked = settings.LOGIN_ACCOUNT_FAILURE_LIMIT + 1  # the failures up to the limit, then the one slowed slot
    assert answers[:checked] == [400] * checked
    assert set(answers[checked:]) == {429}
    # Every attacking address stays out, whatever it tries next, the right password included.
    assert {log_in(stranger(client), address).status_code for address in ATTACKERS[::20]} == {429}

    # A new browser of the owner's is refused like any other while the attack holds the slot (the 11 of 11)...
    new_browser = Client()
    assert log_in(new_browser, "203.0.113.20").status_code == 429
    assert "/accounts/login/browser/?username=alice" in log_in(new_browser, "203.0.113.20").content.decode()
    # ...until the e-mailed link lets it in; the browser that logged in before gets in as it is.
    recognise_by_e_mail(new_browser, "203.0.113.20")
    assert log_in(new_browser, "203.0.113.20").status_code == 302
    assert log_in(known_browser, "198.51.100.99").status_code == 302
    # And the attack is still held off.
    assert log_in(stranger(client), ATTACKERS[-1]).status_code == 429


def test_behind_a_proxy_at_the_default_count_the_owners_new_browser_gets_in_by_e_mail(owner_account, settings,
                                                                                      client):
    """TRUSTED_PROXY_COUNT left at 0 behind a proxy: every client has the proxy's address, so 5 failures lock the
    account for every browser that has not logged in to it (the check --deploy warning dreadgate.W001 is about this)."""
    settings.TRUSTED_PROXY_COUNT = 0
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        assert log_in(stranger(client), ATTACKERS[n], password=f"guess-{n}").status_code == 400
    new_browser = Client()
    assert log_in(new_browser, "203.0.113.30").status_code == 429
    recognise_by_e_mail(new_browser, "203.0.113.30")
    assert log_in(new_browser, "203.0.113.30").status_code == 302
    assert log_in(stranger(client), ATTACKERS[0]).status_code == 429  # the guessers, behind the same proxy, stay out


def test_the_link_is_sent_at_most_once_a_while_and_the_owners_copy_still_works(owner_account, client):
    for address in ATTACKERS[:5]:  # an attacker asks for links to flood the owner's mailbox
        answer = stranger(client).post("/accounts/login/browser/", {"username": "alice"}, REMOTE_ADDR=PROXY,
                               HTTP_X_FORWARDED_FOR=address)
        assert answer.status_code == 200
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    # The one link sent lets in whichever browser opens it: the owner's, from the mailbox.
    owner = Client()
    owner.post(link_in_mail(), REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.40")
    assert owner.cookies["dg_device"].value


def test_the_answer_is_the_same_for_an_unknown_account_or_one_without_an_address(owner_account, client):
    get_user_model().objects.create_user("bob", password=PASSWORD)

    def answer(username):
        response = stranger(client).post("/accounts/login/browser/", {"username": username}, REMOTE_ADDR=PROXY,
                                         HTTP_X_FORWARDED_FOR="203.0.113.50")
        return response.status_code, re.search(r"<main.*</main>", response.content.decode(), re.S).group(0)

    assert answer("bob") == answer("nobody") == answer("alice")
    assert [message.to for message in mail.outbox] == [["alice@example.com"]]


def test_a_link_works_once_for_a_limited_time_and_for_its_own_account(owner_account, settings, monkeypatch, client):
    settings.LOGIN_FAILURE_LIMIT = 1
    get_user_model().objects.create_user("mallory", email="mallory@example.com", password=PASSWORD)
    # mallory's own link does not let her browser past alice's lock.
    assert log_in(client, "203.0.113.60", password="guess").status_code == 400
    mallory = stranger(client)
    recognise_by_e_mail(mallory, "203.0.113.60", username="mallory")
    assert log_in(mallory, "203.0.113.60").status_code == 429

    stranger(client).post("/accounts/login/browser/", {"username": "alice"}, REMOTE_ADDR=PROXY,
                          HTTP_X_FORWARDED_FOR="203.0.113.60")
    link = link_in_mail()
    forged = link[:-3] + ("yz" if link[-3:-1] != "yz" else "zy") + "/"
    tampered = stranger(client).post(forged, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.60")
    assert tampered.status_code == 400 and "not valid" in tampered.content.decode()
    assert "dg_device" not in client.cookies

    started = time.time()
    monkeypatch.setattr(time, "time", lambda: started + settings.LOGIN_LINK_VALID_SECONDS + 5)
    late = stranger(client).post(link, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.60")
    assert late.status_code == 400 and "expired" in late.content.decode()
    monkeypatch.undo()

    assert stranger(client).post(link, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.60").status_code == 302
    first_cookie = client.cookies["dg_device"].value
    used = stranger(client).post(link, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.60")
    assert used.status_code == 400 and "already been used" in used.content.decode()
    assert log_in(client, "203.0.113.60").status_code == 429  # the second browser was not let in
    client.cookies["dg_device"] = first_cookie
    assert log_in(client, "203.0.113.60").status_code == 302  # the first was


def test_the_browser_an_account_was_made_in_is_one_of_its_known_browsers(settings, client):
    """It made the account and was logged in by it: under an attack it gets in as a browser that logged in does."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.LOGIN_ACCOUNT_SLOWDOWN_SECONDS = 600
    maker = Client()
    made = maker.post("/accounts/signup/", {"username": "dave", "password1": PASSWORD, "password2": PASSWORD},
                      REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.30")
    assert made.status_code == 302
    maker.post("/accounts/logout/")
    for n, address in enumerate(ATTACKERS[:settings.LOGIN_ACCOUNT_FAILURE_LIMIT + 3]):
        log_in(stranger(client), address, password=f"guess-{n}", username="dave")
    assert log_in(stranger(client), ATTACKERS[0], username="dave").status_code == 429  # the attack holds the slot
    assert log_in(maker, "198.51.100.31", username="dave").status_code == 302
