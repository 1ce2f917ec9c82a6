"""The deck page's cached body (decks.views._detail_body: the shared cache, and each process's own copy in front of
it) and the deck API's cached answer (decks.api.deck_payload) are keyed by the deck's version and by what the viewer
may see: an edit and a change of visibility show at once, and the owner's controls and secret link are never served
to a visitor."""

import json

import pytest
from django.core.cache import caches
from django.test import Client

from decks import selectors, services
from decks.models import Deck, Visibility
from decks.services import deck_copy
from tests.decks.factories import make_user
from tests.roundtrips import counted
from tests.support import without_tokens

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cached_pages(settings):
    settings.DECK_PAGE_CACHE_SECONDS = 600
    settings.CACHES = {**settings.CACHES, "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                                    "LOCATION": "deck-page-cache-test"}}


@pytest.fixture
def deck():
    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    deck = deck_copy(deck=starter, owner=make_user(), name="Cached deck")
    return services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version,
                                visibility=Visibility.PUBLIC)


def visitor() -> Client:
    client = Client()
    client.force_login(make_user())
    return client


def test_an_edit_shows_at_once_on_the_cached_page(deck):
    client = visitor()
    entry = selectors.deck_entries(deck)[0]
    assert entry.card.name in client.get(f"/decks/{deck.pk}/").content.decode()
    services.deck_change_card(deck=deck, actor=deck.owner, card=entry.card, count=0, expected_version=deck.version)
    assert entry.card.name not in client.get(f"/decks/{deck.pk}/").content.decode()


def test_a_new_description_shows_at_once_and_the_kept_list_is_served_without_reading_a_card(deck):
    """The list, legality and statistics are kept per list version: a description (or name) saved renders the
    heading again, not the list."""
    client = visitor()
    client.get(f"/decks/{deck.pk}/")
    deck = services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version,
                                description="A primer, newly written", name="Renamed deck")
    another_process()
    with counted() as trips:
        page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "A primer, newly written" in page and "Renamed deck" in page
    assert not [sql for sql in trips.sql if "decks_deckentry" in sql or "decks_consideringentry" in sql], trips.sql


@pytest.mark.parametrize("change", ["format", "gateway", "tag", "considering"])
def test_a_change_of_what_the_list_shows_shows_at_once_on_the_cached_page(deck, change):
    client = visitor()
    before = client.get(f"/decks/{deck.pk}/").content.decode()
    entry = selectors.deck_entries(deck)[0]
    if change == "format":
        deck = services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version, format="tactical")
        assert "not used in Tactical" not in before
    elif change == "gateway":
        deck = services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version, gateway=None)
        assert "No gateway card in this deck." not in before
    elif change == "tag":
        deck = services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version,
                                    tags={entry.card.collector_number: "Newly tagged"})
        assert "Newly tagged" not in before
    else:
        deck = services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version,
                                    considering=[entry])
        assert "Considering" not in before
    after = client.get(f"/decks/{deck.pk}/").content.decode()
    shown = {"format": "not used in Tactical", "gateway": "No gateway card in this deck.", "tag": "Newly tagged",
             "considering": "Considering"}[change]
    assert shown in after


def test_a_deck_made_private_is_gone_for_a_visitor_at_once(deck):
    client = visitor()
    assert client.get(f"/decks/{deck.pk}/").status_code == 200
    deck.refresh_from_db()
    services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version, visibility=Visibility.PRIVATE)
    assert client.get(f"/decks/{deck.pk}/").status_code == 404


def test_the_owners_controls_are_never_served_to_a_visitor_from_the_cache(deck):
    owner = Client()
    owner.force_login(deck.owner)
    edit = f"/decks/{deck.pk}/edit/"
    assert edit in owner.get(f"/decks/{deck.pk}/").content.decode()
    assert edit not in visitor().get(f"/decks/{deck.pk}/").content.decode()


def owner_client(deck) -> Client:
    client = Client()
    client.force_login(deck.owner)
    return client


def another_process() -> None:
    """What a read served by another web process sees: not this process's copies, only the shared cache."""
    caches["local"].clear()


@pytest.mark.parametrize("process", ["this", "another"])
def test_an_api_edit_shows_at_once_in_the_apis_answer(deck, process):
    owner, path = owner_client(deck), f"/api/decks/{deck.pk}/"
    before = owner.get(path)
    assert before.json()["description"] != "Edited"
    edited = owner.patch(path, json.dumps({"description": "Edited"}), content_type="application/json",
                         HTTP_IF_MATCH=before["ETag"])
    assert edited.status_code == 200 and edited.json()["description"] == "Edited"
    if process == "another":
        another_process()
    after = owner.get(path)
    assert after.json()["description"] == "Edited" and after["ETag"] == edited["ETag"] != before["ETag"]


def test_the_read_after_an_api_save_is_answered_from_the_cache_by_another_process(deck):
    """The answer a save wrote out is kept in the shared cache too: another web process reads the deck's row and
    no card of it."""
    owner, path = owner_client(deck), f"/api/decks/{deck.pk}/"
    edited = owner.patch(path, json.dumps({"description": "Edited"}), content_type="application/json",
                         HTTP_IF_MATCH=owner.get(path)["ETag"])
    another_process()
    with counted() as trips:
        after = owner.get(path)
    assert after.json() == edited.json()
    assert not [sql for sql in trips.sql if "decks_deckentry" in sql or "decks_consideringentry" in sql], trips.sql


def test_an_edit_in_the_editor_shows_at_once_in_the_apis_answer(deck):
    client, path = visitor(), f"/api/decks/{deck.pk}/"
    entry = selectors.deck_entries(deck)[0]
    assert entry.card.collector_number in [card["card"] for card in client.get(path).json()["cards"]]
    services.deck_change_card(deck=deck, actor=deck.owner, card=entry.card, count=0, expected_version=deck.version)
    assert entry.card.collector_number not in [card["card"] for card in client.get(path).json()["cards"]]


def test_the_secret_link_is_the_owners_alone_whoever_asked_first(deck):
    deck = services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version,
                                visibility=Visibility.UNLISTED)
    path = f"/api/decks/{deck.pk}/?key={deck.share_token}"
    assert visitor().get(path).json()["share_url"] is None
    assert owner_client(deck).get(path).json()["share_url"] == deck.get_absolute_url()
    assert visitor().get(path).json()["share_url"] is None


def test_a_new_name_of_the_owner_shows_at_once_in_the_apis_answer(deck):
    client, path = visitor(), f"/api/decks/{deck.pk}/"
    assert client.get(path).json()["owner"] == deck.owner.username
    deck.owner.username = "renamed-owner"
    deck.owner.save()
    assert client.get(path).json()["owner"] == "renamed-owner"


def test_the_cached_heading_and_actions_are_each_viewers_own(deck, settings):
    """The page's heading, actions and share link are kept per what a viewer may do: each of these viewers, served
    after the others (from the cache), gets the page they get with no cache at all, save for their CSRF token."""
    from django.contrib.auth import get_user_model

    source_owner = make_user()
    source = deck_copy(deck=deck, owner=source_owner, name="The private source")  # private by default
    copy = deck_copy(deck=source, owner=make_user(), name="A copy of it")
    copy = services.deck_update(deck=copy, actor=copy.owner, expected_version=copy.version,
                                visibility=Visibility.UNLISTED)
    staff = get_user_model().objects.create_user("staff-viewer", password="pw-for-tests-only", is_staff=True)
    viewers = {"anonymous": None, "a visitor": make_user(), "staff": staff, "its owner": copy.owner,
               "the source's owner": source_owner}
    paths = [f"/decks/{deck.pk}/", f"/decks/{copy.pk}/?key={copy.share_token}"]

    def pages() -> dict:
        seen = {}
        for name, user in viewers.items():
            client = Client()
            if user is not None:
                client.force_login(user)
            for path in paths:
                response = client.get(path)
                assert response.status_code == 200, (name, path)
                seen[name, path] = without_tokens(response.content.decode())
        return seen

    cached = pages()
    settings.DECK_PAGE_CACHE_SECONDS = 0
    fresh = pages()
    for case, page in fresh.items():
        assert cached[case] == page, case
    assert "The private source" in fresh["the source's owner", paths[1]]  # its link, to the one who may open it
    assert "The private source" not in fresh["a visitor", paths[1]] and "another deck" in fresh["a visitor", paths[1]]
    assert "Share link" in fresh["its owner", paths[1]] and "Share link" not in fresh["a visitor", paths[1]]
    assert "Unpublish" in fresh["staff", paths[0]] and "Unpublish" not in fresh["a visitor", paths[0]]


def test_a_form_of_the_cached_page_carries_the_viewers_own_token(deck):
    """The kept heading's Clone form: its token is the viewer's, and the copy is made (CSRF checked)."""
    import re

    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    for client in (first, second):
        client.force_login(make_user())
    first.get(f"/decks/{deck.pk}/")  # the heading is kept
    page = second.get(f"/decks/{deck.pk}/").content.decode()
    token = re.search(r'action="/decks/\d+/copy/"><input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)"',
                      page).group(1)
    copied = second.post(f"/decks/{deck.pk}/copy/", {"csrfmiddlewaretoken": token})
    assert copied.status_code == 302, copied.status_code


def test_odds_asked_in_the_address_are_answered_but_never_kept(deck):
    """The statistics' form without scripts asks for the deck page with odds in its address: the page answers them,
    and keeps no rendering of them, so that text a visitor makes up cannot fill the shared cache."""
    client = visitor()
    client.get(f"/decks/{deck.pk}/")  # the page's own odds, kept
    for n in range(3):
        with counted() as trips:
            page = client.get(f"/decks/{deck.pk}/", {"category": f"made-up-{n}", "turns": "4"})
        assert f"no category “made-up-{n}”" in page.content.decode()
        assert not [call for call in trips.calls if call.startswith(("set", "SET"))], trips.calls


@pytest.mark.parametrize("change", ["tag", "considering", "format", "cards"])
def test_a_change_of_the_list_shows_at_once_in_the_apis_answer_after_a_new_description(deck, change):
    """The API's answer keeps what it shows of the list per list version: a description leaves it kept, and every
    change of the list is answered at once."""
    owner, path = owner_client(deck), f"/api/decks/{deck.pk}/"
    described = owner.patch(path, json.dumps({"description": "First words"}), content_type="application/json",
                            HTTP_IF_MATCH=owner.get(path)["ETag"]).json()
    entry = selectors.deck_entries(deck)[0]
    number = entry.card.collector_number
    body = {"tag": {"cards": [{"card": e.card.collector_number, "count": e.count, "tag": "Newly tagged"}
                              for e in selectors.deck_entries(deck)]},
            "considering": {"considering": [{"card": number, "count": 1}]},
            "format": {"format": "tactical"},
            "cards": {"cards": [{"card": e.card.collector_number, "count": e.count}
                                for e in selectors.deck_entries(deck)[1:]]}}[change]
    changed = owner.patch(path, json.dumps(body), content_type="application/json",
                          HTTP_IF_MATCH=f'"{described["version"]}"')
    assert changed.status_code == 200, changed.content
    another_process()
    after = owner.get(path).json()
    assert after == changed.json()
    if change == "tag":
        assert {card["tag"] for card in after["cards"]} == {"Newly tagged"}
    elif change == "considering":
        assert [card["card"] for card in after["considering"]] == [number]
    elif change == "format":
        assert after["legality"] != described["legality"] and after["format"] == "tactical"
    else:
        assert number not in [card["card"] for card in after["cards"]] and after["code"] != described["code"]


def test_a_new_description_validates_the_deck_again_only_against_another_catalog(deck, monkeypatch):
    validated = []
    real = services.validate_deck
    monkeypatch.setattr(services, "validate_deck", lambda *args: validated.append(args) or real(*args))
    deck = services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version, description="Once")
    assert validated == []
    Deck.objects.filter(pk=deck.pk).update(catalog_version="an older catalog")
    deck.refresh_from_db()
    deck = services.deck_update(deck=deck, actor=deck.owner, expected_version=deck.version, description="Twice")
    assert len(validated) == 1 and deck.catalog_version != "an older catalog"
    assert Deck.objects.get(pk=deck.pk).catalog_version == deck.catalog_version


def test_a_page_kept_by_other_code_is_not_served_after_a_deploy(deck, monkeypatch):
    """Kept parts carry the code's digest (core/release.py): the code after a deploy renders its own."""
    from cards import selectors as answers

    client = visitor()
    client.get(f"/decks/{deck.pk}/")
    another_process()
    with counted() as kept:
        client.get(f"/decks/{deck.pk}/")
    monkeypatch.setattr(answers, "code_release", lambda: "next-release")
    another_process()
    with counted() as deployed:
        client.get(f"/decks/{deck.pk}/")
    assert not reads_cards(kept) and reads_cards(deployed)


def reads_cards(trips) -> bool:
    return any("decks_deckentry" in sql for sql in trips.sql)
