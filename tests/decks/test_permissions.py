"""The whole permission matrix: actor x visibility x every deck page and endpoint.

A deck the actor may not see answers 404 everywhere; a visible deck of someone else is read-only
(writes answer 403; an anonymous API write 401). After every refused write the deck's row, entries
(with their tags), considering list and history are unchanged.
"""

import json

import pytest
from django.test import Client

from decks.models import Deck, Visibility
from decks.services import deck_copy, deck_create

from .factories import entries_of, make_card, make_user

pytestmark = pytest.mark.django_db

ACTORS = ("owner", "other", "anonymous", "staff")
# "unlisted+link" is an unlisted deck reached with the secret of its link.
VISIBILITIES = ("private", "unlisted", "unlisted+link", "public")


# (name, method, path template, body, kind). Kinds: "read" (200 when visible), "write" (owner only),
# "copy" (any logged-in viewer), "unpublish" (staff, public decks only).
OPERATIONS = [
    ("page detail", "get", "/decks/{pk}/", None, "read"),
    ("page visual", "get", "/decks/{pk}/?view=visual", None, "read"),
    ("page stats", "get", "/decks/{pk}/stats/", None, "read"),
    ("page print", "get", "/decks/{pk}/print/", None, "read"),
    ("page export txt", "get", "/decks/{pk}/export.txt", None, "read"),
    ("page export json", "get", "/decks/{pk}/export.json", None, "read"),
    ("page history", "get", "/decks/{pk}/history/", None, "read"),
    ("page edit", "get", "/decks/{pk}/edit/", None, "write"),
    ("page edit search", "get", "/decks/{pk}/edit/search/?q=zz", None, "write"),
    ("page edit change", "post", "/decks/{pk}/edit/change/", {"name": "Hijacked", "version": "1"}, "write"),
    # {card}: the deck's second card, in the deck and on its considering list
    ("page edit quick", "post", "/decks/{pk}/edit/quick/", {"lines": "-1 {card}"}, "write"),
    ("page edit text", "get", "/decks/{pk}/edit/text/", None, "write"),
    ("page edit whole", "post", "/decks/{pk}/edit/whole/", {"lines": "1 {card}", "version": "1"}, "write"),
    ("page edit tag", "post", "/decks/{pk}/edit/tag/", {"card": "{card}", "tag": "hijacked"}, "write"),
    ("page edit consider", "post", "/decks/{pk}/edit/consider/", {"card": "{card}", "delta": "1"}, "write"),
    ("page edit move", "post", "/decks/{pk}/edit/move/", {"card": "{card}", "to": "main"}, "write"),
    ("page delete form", "get", "/decks/{pk}/delete/", None, "write"),
    ("page delete", "post", "/decks/{pk}/delete/", {"version": "1"}, "write"),
    ("page revert", "post", "/decks/{pk}/revert/1/", {"version": "1"}, "write"),
    ("page copy", "post", "/decks/{pk}/copy/", {}, "copy"),
    ("page unpublish", "post", "/decks/{pk}/unpublish/", {}, "unpublish"),
    ("api get", "get", "/api/decks/{pk}/", None, "read"),
    ("api revisions", "get", "/api/decks/{pk}/revisions/", None, "read"),
    ("api diff", "get", "/api/decks/{pk}/diff/?from=1&to=1", None, "read"),
    ("api export", "get", "/api/decks/{pk}/export/?as=text", None, "read"),
    ("api patch", "patch", "/api/decks/{pk}/", {"name": "Hijacked"}, "write"),
    ("api put", "put", "/api/decks/{pk}/", {"name": "Hijacked", "description": "", "format": "standard",
                                           "visibility": "private", "cards": [], "considering": [], "gateway": None},
     "write"),
    ("api patch considering", "patch", "/api/decks/{pk}/", {"considering": []}, "write"),
    ("api delete", "delete", "/api/decks/{pk}/", None, "write"),
    ("api revert", "post", "/api/decks/{pk}/revert/", {"version": 1}, "write"),
    ("api copy", "post", "/api/decks/{pk}/copy/", {}, "copy"),
    ("api unpublish", "post", "/api/decks/{pk}/unpublish/", {}, "unpublish"),
]

OWNER_SUCCESS = {
    "page edit change": 200, "page delete": 302, "page revert": 302, "api patch": 200, "api put": 200,
    "api delete": 204, "api revert": 200,
}


def expected_status(actor, visibility, name, kind):
    is_api = name.startswith("api")
    if is_api and actor == "anonymous" and kind != "read":
        return 401  # before anything is looked up, so a hidden deck and a missing one answer alike
    visible = actor == "owner" or visibility in ("public", "unlisted+link")
    if not visible:
        return 404
    if kind == "read":
        return 200
    if kind == "write":
        return OWNER_SUCCESS.get(name, 200) if actor == "owner" else 403
    if kind == "copy":
        if actor == "anonymous":
            return 302  # the page sends the visitor to log in
        return 201 if is_api else 302
    if kind == "unpublish":
        if actor != "staff":
            return 403
        if visibility == "public":
            return 200 if is_api else 302
        return 409 if is_api else 302  # only a public deck can be unpublished
    raise AssertionError(kind)


def snapshot(deck_id):
    deck = Deck.objects.filter(pk=deck_id).values("name", "version", "visibility", "updated_at", "format").first()
    entries = sorted(Deck.objects.get(pk=deck_id).entries.values_list("card_id", "count", "tag")) if deck else None
    considering = sorted(Deck.objects.get(pk=deck_id).considering.values_list("card_id", "count")) if deck else None
    revisions = Deck.objects.get(pk=deck_id).revisions.count() if deck else None
    return deck, entries, considering, revisions


@pytest.fixture
def world():
    users = {"owner": make_user(), "other": make_user(), "staff": make_user(staff=True)}
    cards = [make_card(), make_card()]
    return users, cards


def client_for(actor, users):
    client = Client()
    if actor != "anonymous":
        client.force_login(users[actor])
    return client


CASES = [(a, v, op) for a in ACTORS for v in VISIBILITIES for op in OPERATIONS]


@pytest.mark.parametrize("actor, visibility, op", CASES,
                         ids=[f"{a}-{v}-{op[0].replace(' ', '_')}" for a, v, op in CASES])
def test_permission_matrix(world, actor, visibility, op):
    users, cards = world
    name, method, template, body, kind = op
    deck = deck_create(owner=users["owner"], name="Secret plans", visibility=visibility.split("+")[0],
                       entries=entries_of((cards[0], 4), (cards[1], 2)), tags={cards[0].collector_number: "core"},
                       considering=entries_of((cards[1], 1)))
    path = template.format(pk=deck.pk)
    if visibility == "unlisted+link":
        path += ("&" if "?" in path else "?") + f"key={deck.share_token}"
    before = snapshot(deck.pk)
    client = client_for(actor, users)
    kwargs = {}
    if name.startswith("api"):
        kwargs["content_type"] = "application/json"
        kwargs["HTTP_IF_MATCH"] = '"1"'
        data = json.dumps(body) if body is not None else None
    else:
        data = body and {key: value.replace("{card}", cards[1].collector_number) for key, value in body.items()}
    response = getattr(client, method)(path, data, **kwargs) if data is not None else getattr(client, method)(
        path, **kwargs)
    want = expected_status(actor, visibility, name, kind)
    assert response.status_code == want, (name, response.content[:300])
    if name.startswith("api") and want >= 400:
        assert set(response.json()["error"]) == {"code", "message", "details"}
    if response.status_code == 404:
        assert b"Secret plans" not in response.content
    refused_write = kind in ("write", "unpublish") and want >= 400
    if refused_write or kind in ("read", "copy"):
        assert snapshot(deck.pk) == before, f"{name} changed the deck"


def test_unlisted_deck_is_not_in_any_list_and_a_wrong_key_is_404():
    owner = make_user()
    deck = deck_create(owner=owner, name="Hidden link deck", visibility=Visibility.UNLISTED)
    client = Client()
    assert client.get(f"/decks/{deck.pk}/?key=wrong").status_code == 404
    assert "Hidden link deck" not in client.get("/decks/public/").content.decode()
    assert "Hidden link deck" not in client.get("/api/decks/").content.decode()
    assert client.get(deck.get_absolute_url()).status_code == 200


@pytest.mark.parametrize("source_visibility", ["private", "unlisted"])
def test_a_public_copy_names_its_source_only_to_who_may_see_it_on_the_page_and_in_the_api(source_visibility):
    alice, bob = make_user("alice"), make_user("bob")
    source = deck_create(owner=alice, name="Hidden source", entries=entries_of((make_card(), 2)),
                         visibility=source_visibility)
    copy = deck_copy(deck=source, owner=bob, name="Bob's copy")
    Deck.objects.filter(pk=copy.pk).update(visibility=Visibility.PUBLIC)
    readers = {"anonymous": Client(), "bob": Client(), "alice": Client()}
    readers["bob"].force_login(bob)
    readers["alice"].force_login(alice)
    for name, reader in readers.items():
        api = reader.get(f"/api/decks/{copy.pk}/").json()
        page = reader.get(f"/decks/{copy.pk}/").content.decode()
        if name == "alice":  # her own deck: named and linked
            assert api["copied_from"] == source.pk and f'href="/decks/{source.pk}/"' in page
        else:
            assert api["copied_from"] is None and f"/decks/{source.pk}/" not in page and "another deck" in page
        # The copy's history, shown to whoever may see the copy, names the source by its version alone.
        history = reader.get(f"/decks/{copy.pk}/history/").content.decode()
        revisions = reader.get(f"/api/decks/{copy.pk}/revisions/").json()["results"]
        assert [r["message"] for r in revisions] == [f"Copied from version {source.version} of its source deck"]
        assert f"deck {source.pk}" not in history and "Hidden source" not in history
    Deck.objects.filter(pk=source.pk).update(visibility=Visibility.PUBLIC)  # published: named to everyone at once
    assert readers["anonymous"].get(f"/api/decks/{copy.pk}/").json()["copied_from"] == source.pk
