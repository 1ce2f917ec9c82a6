"""Two decks compared: what only one holds, what both hold and in what numbers, by number or by link, never a deck
the viewer may not see."""

import html
import re

import pytest

from decks.compare import compare_decks, deck_reference
from decks.models import Visibility
from decks.services import deck_create

from .factories import entries_of, info, make_card, make_user


def test_the_cards_only_one_deck_holds_and_those_both_hold_with_their_copies_and_what_they_share():
    shared, recounted = info(name="Shared"), info(name="Recounted")
    mine, theirs = info(name="Mine"), info(name="Theirs")
    glyph = info("glyph", name="A Glyph")
    result = compare_decks(entries_of((shared, 4), (recounted, 3), (mine, 2), (glyph, 1)),
                           entries_of((shared, 4), (recounted, 1), (theirs, 4)))
    assert [(r.card.name, r.first, r.second) for r in result.only_first] == [("Mine", 2, 0), ("A Glyph", 1, 0)]
    assert [(r.card.name, r.first, r.second) for r in result.only_second] == [("Theirs", 0, 4)]
    assert [(r.card.name, r.change) for r in result.both] == [("Recounted", "−2"), ("Shared", "same")]
    assert (result.first_total, result.second_total, result.shared, result.differing) == (10, 9, 5, 1)
    assert result.only_second[0].change == "+4"


@pytest.mark.parametrize(("text", "named"), [
    ("12", (12, "")), (" 12 ", (12, "")), ("/decks/12/", (12, "")), ("https://example.org/decks/12/", (12, "")),
    ("https://example.org/decks/12/history/?page=2", (12, "")),
    ("https://example.org/decks/12/?key=Ab_c-9", (12, "Ab_c-9")),
    ("12?key=Ab_c-9", (12, "Ab_c-9")), ("/decks/12/?page=1&key=xyz#cards", (12, "xyz")),
    ("12abc", None), ("deck twelve", None), ("", None), ("/cards/12/x", None), ("1" * 19, None),
])
def test_a_deck_is_named_by_its_number_or_its_link_with_an_unlisted_decks_key(text, named):
    assert deck_reference(text) == named


def _table(page: str) -> list[tuple[str, ...]]:
    """The comparison's rows as text: a group's heading alone, a card's name, type, copies and change."""
    body = page[page.index('<table class="compare">'):page.index("</table>")]
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)[1:]:
        rows.append(tuple(html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
                          for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)))
    return rows


@pytest.mark.django_db
def test_the_page_shows_a_players_private_deck_beside_a_public_one_group_by_group(client):
    me, other = make_user(), make_user()
    common, extra, theirs = make_card(name="Zz Common"), make_card(name="Zz Extra"), make_card(name="Zz Theirs")
    mine = deck_create(owner=me, name="My brew", entries=entries_of((common, 4), (extra, 2)))
    public = deck_create(owner=other, name="Their list", visibility=Visibility.PUBLIC,
                         entries=entries_of((common, 3), (theirs, 4)))
    client.force_login(me)
    response = client.get(f"/decks/compare/?a={mine.pk}&b=/decks/{public.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert _table(page) == [
        ("Only in the first, My brew (1 card)",), ("Zz Extra", "Unit", "2", "0", "−2"),
        ("Only in the second, Their list (1 card)",), ("Zz Theirs", "Unit", "0", "4", "+4"),
        ("In both (1 card)",), ("Zz Common", "Unit", "4", "3", "−1"),
    ]
    assert "They share <strong>3</strong> copies" in page
    assert "Starter decks" not in page and "Your decks" not in page  # nothing else to choose from, nor read


@pytest.mark.django_db
def test_a_deck_the_viewer_may_not_see_is_refused_as_one_that_does_not_exist(client):
    me, other = make_user(), make_user()
    card = make_card()
    secret = deck_create(owner=other, name="Secret tech", entries=entries_of((card, 4)))
    unlisted = deck_create(owner=other, name="Shared by link", visibility=Visibility.UNLISTED,
                           entries=entries_of((card, 2)))
    mine = deck_create(owner=me, name="Mine", entries=entries_of((card, 1)))
    client.force_login(me)
    for hidden in (secret.pk, unlisted.pk, f"{unlisted.pk}?key=wrong", 999_999_999, "9" * 18):
        response = client.get("/decks/compare/", {"a": mine.pk, "b": hidden})
        page = response.content.decode()
        assert response.status_code == 404, hidden
        assert "Second deck: there is no deck" in page and "Secret tech" not in page and "Shared by link" not in page
        assert 'class="compare"' not in page
    by_link = client.get("/decks/compare/", {"a": mine.pk, "b": f"https://example.org{unlisted.get_absolute_url()}"})
    assert by_link.status_code == 200 and "Shared by link" in by_link.content.decode()


@pytest.mark.django_db
def test_a_reference_that_names_no_deck_is_a_400_saying_which_field_and_what_was_sent(client):
    response = client.get("/decks/compare/", {"a": "my best deck", "b": "12"})
    page = html.unescape(response.content.decode())
    assert response.status_code == 400
    assert "First deck: give a deck's number or its link" in page and "“my best deck” is neither" in page
    assert 'aria-invalid="true"' in page and 'value="my best deck"' in page  # kept in its box, to mend


@pytest.mark.django_db
def test_with_one_deck_chosen_the_page_offers_the_players_own_decks_and_the_starters_as_the_other(client):
    me = make_user()
    card = make_card()
    first = deck_create(owner=me, name="First brew", entries=entries_of((card, 4)))
    second = deck_create(owner=me, name="Second brew", entries=entries_of((card, 2)))
    client.force_login(me)
    page = html.unescape(client.get(f"/decks/compare/?a={first.pk}").content.decode())
    assert f'href="?a={first.pk}&b={second.pk}"' in page  # the one not yet chosen, as the second
    assert f'href="?a={first.pk}&b={first.pk}"' not in page
    assert "Starter decks" in page
    for path in (f"/decks/{first.pk}/", f"/decks/{first.pk}/edit/"):  # the deck page's link, and the editor's
        assert f'href="/decks/compare/?a={first.pk}"' in client.get(path).content.decode(), path


@pytest.mark.django_db
def test_an_unlisted_decks_compare_link_carries_its_key_to_whoever_has_its_link(client):
    owner = make_user()
    shared = deck_create(owner=owner, name="By link only", visibility=Visibility.UNLISTED,
                         entries=entries_of((make_card(), 3)))
    page = html.unescape(client.get(shared.get_absolute_url()).content.decode())  # a visitor with the link
    link = re.search(r'href="(/decks/compare/\?a=[^"]+)">Compare with another deck', page)[1]
    response = client.get(link)
    assert response.status_code == 200 and "Compare By link only with" in html.unescape(response.content.decode())


@pytest.mark.django_db
def test_the_api_compares_two_decks_the_caller_may_see_and_names_the_one_it_may_not():
    from rest_framework.test import APIClient

    me, other = make_user(), make_user()
    common, extra, theirs = make_card(name="Zz Common"), make_card(name="Zz Extra"), make_card(name="Zz Theirs")
    mine = deck_create(owner=me, name="My brew", entries=entries_of((common, 4), (extra, 2)))
    unlisted = deck_create(owner=other, name="Their list", visibility=Visibility.UNLISTED,
                           entries=entries_of((common, 3), (theirs, 4)))
    secret = deck_create(owner=other, name="Secret", entries=entries_of((common, 1)))
    api = APIClient()
    api.force_authenticate(me)
    answer = api.get("/api/decks/compare/", {"a": mine.pk, "b": unlisted.pk, "b_key": unlisted.share_token})
    assert answer.status_code == 200
    body = answer.json()
    assert (body["first"], body["second"]) == ({"id": mine.pk, "name": "My brew", "cards": 6},
                                               {"id": unlisted.pk, "name": "Their list", "cards": 7})
    assert (body["shared"], body["differing"]) == (3, 1)
    assert [(r["card"], r["first"], r["second"]) for r in body["only_first"]] == [(extra.collector_number, 2, 0)]
    assert [(r["card"], r["first"], r["second"]) for r in body["only_second"]] == [(theirs.collector_number, 0, 4)]
    assert [(r["name"], r["first"], r["second"]) for r in body["both"]] == [("Zz Common", 4, 3)]
    for query, field in (({"a": mine.pk, "b": unlisted.pk}, "b"), ({"a": secret.pk, "b": mine.pk}, "a")):
        refused = api.get("/api/decks/compare/", query)
        assert refused.status_code == 404 and refused.json()["error"]["details"]["field"] == field
        assert "Secret" not in refused.content.decode() and "Their list" not in refused.content.decode()
    assert api.get("/api/decks/compare/", {"a": mine.pk}).status_code == 400  # both are required
    assert api.get("/api/decks/compare/", {"a": "mine", "b": mine.pk}).status_code == 400


@pytest.mark.django_db
def test_only_what_differs_leaves_out_the_cards_both_decks_hold_alike(client):
    me = make_user()
    same, more, only = make_card(name="Zz Same"), make_card(name="Zz More"), make_card(name="Zz Only")
    first = deck_create(owner=me, name="First", entries=entries_of((same, 4), (more, 2), (only, 1)))
    second = deck_create(owner=me, name="Second", entries=entries_of((same, 4), (more, 3)))
    client.force_login(me)
    whole = html.unescape(client.get(f"/decks/compare/?a={first.pk}&b={second.pk}").content.decode())
    assert ("Zz Same", "Unit", "4", "4", "same") in _table(whole)
    assert f'href="?a={first.pk}&b={second.pk}&differ=1">Show only what differs' in whole
    page = client.get(f"/decks/compare/?a={first.pk}&b={second.pk}&differ=1").content.decode()
    assert _table(page) == [
        ("Only in the first, First (1 card)",), ("Zz Only", "Unit", "1", "0", "−1"),
        ("Only in the second, Second (0 cards)",), ("None.",),
        ("In both, in different numbers (1 card)",), ("Zz More", "Unit", "2", "3", "+1"),
    ]
    assert "They share <strong>6</strong> copies" in page  # the figures are the whole decks'
