"""The playtest page: start a playtest of any deck from it, and a run list that names each run's opponent."""

import re

import pytest

from decks.models import Deck
from decks.services import deck_copy
from playtest.jobs import services
from playtest.models import GoldfishTable, Run

pytestmark = pytest.mark.django_db


@pytest.fixture
def starters():
    return list(Deck.objects.filter(is_starter=True, format="standard").order_by("starter_key")[:2])


def test_the_playtest_page_offers_the_users_decks_and_the_public_ones(client, alice, bob, starters):
    mine = deck_copy(deck=starters[0], owner=alice, name="Alice's ember")
    hidden = deck_copy(deck=starters[1], owner=bob, name="Bob's private deck")
    client.force_login(alice)
    html = client.get("/playtest/").content.decode()
    select = re.search(r'<select id="sim-deck" name="deck" required data-format-source>(.*?)</select>', html,
                       re.S).group(1)
    takes = 'data-takes="standard quick"'
    assert f'<option value="{mine.pk}" {takes}>Alice&#x27;s ember (Standard)</option>' in select
    assert f'<option value="{starters[0].pk}" {takes}>{starters[0].name} (Standard, starter)</option>' in select
    assert f'value="{hidden.pk}"' not in html  # a deck the user may not see is not offered
    assert '<form method="post" action="/playtest/new/"' in html and 'name="opponent"' in html


def test_a_matchup_started_from_the_playtest_page_is_queued_and_listed_with_its_opponent(client, alice, starters):
    client.force_login(alice)
    deck, opponent = starters
    response = client.post("/playtest/new/", {"what": "run", "deck": deck.pk, "mode": "matchup",
                                              "opponent": opponent.pk, "games": "200"})
    run = Run.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == f"/playtest/runs/{run.pk}/"
    assert run.params["mode"] == "matchup" and [d["id"] for d in run.params["decks"]] == [deck.pk, opponent.pk]
    html = client.get("/playtest/").content.decode()
    row = re.search(rf'<tr><td><a href="/playtest/runs/{run.pk}/">.*?</tr>', html, re.S).group(0)
    cells = re.findall(r"<td>(.*?)</td>", row, re.S)
    assert cells[1].startswith(deck.name) and cells[2].startswith(opponent.name)


def test_a_goldfish_table_opens_from_the_playtest_page(client, alice, starters):
    client.force_login(alice)
    response = client.post("/playtest/new/", {"what": "table", "deck": starters[0].pk, "seed": "3"})
    table = GoldfishTable.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == f"/playtest/tables/{table.pk}/"


@pytest.mark.parametrize("fields, words", [
    ({"what": "table", "seed": "9" * 40}, f"seed: {'9' * 24}… is not a seed"),  # not cut short
    ({"what": "run", "mode": "goldfish", "games": "10", "seed": str(2**62 + 1)}, "seed: 4611686018427387905 is not"),
    ({"what": "table", "seed": "abc"}, "seed: “abc” is not a whole number"),
    ({"what": "run", "mode": "goldfish", "games": "10", "seed": "-5"}, "seed: “-5” is not a whole number"),
    ({"what": "table", "table_opponent": "abc"}, "opponent: “abc” is not a whole number"),
    ({"what": "run", "mode": "goldfish", "games": "ten"}, "games: “ten” is not a whole number"),
    ({"what": "run", "mode": "goldfish", "games": "-1"}, "games: “-1” is not a whole number from 1 up"),
    ({"what": "run", "mode": "goldfish", "games": "0"}, "games: “0” is not a whole number from 1 up"),
    ({"what": "zzz"}, "what: “zzz” is neither a table nor a run"),
    ({"what": "run", "mode": "bogus", "games": "10", "policy": "strong"}, "mode: “bogus” is not one of goldfish"),
    ({"what": "run", "mode": "goldfish", "games": "10", "policy": "bogus"}, "policy: “bogus” is not one of goldfish"),
    ({"what": "run", "mode": "matchup", "games": "10", "opponent_policy": "bogus"},
     "opponent_policy: “bogus” is not one of"),
])
def test_a_playtest_form_value_that_is_not_one_is_refused_naming_it_and_nothing_starts(client, alice, starters,
                                                                                     fields, words):
    """A seed past a big integer column was a 500; a seed or opponent that is not a number was read as left out."""
    client.force_login(alice)
    response = client.post("/playtest/new/", {"deck": starters[0].pk, **fields})
    assert response.status_code == 400 and words in response.content.decode()
    assert not GoldfishTable.objects.exists() and not Run.objects.exists()


def test_a_refused_run_or_table_form_comes_back_as_it_was_sent(client, alice, starters):
    """Corrected and sent again, it must start what the player chose, not the form's defaults."""
    client.force_login(alice)
    deck, opponent = starters
    html = client.post("/playtest/new/", {"what": "run", "deck": deck.pk, "mode": "matchup", "opponent": opponent.pk,
                                          "policy": "strong", "games": "300", "seed": "abc"}).content.decode()
    assert 'value="matchup" checked' in html and 'value="goldfish" checked' not in html
    assert f'<option value="{opponent.pk}" data-deck-format="standard" selected>' in html
    assert '<option value="strong" selected>strong: the AI searching' in html
    assert 'value="300"' in html and 'value="abc"' in html
    html = client.post("/playtest/new/", {"what": "table", "deck": deck.pk, "table_opponent": opponent.pk,
                                          "table_level": "strong", "seed": "x1"}).content.decode()
    assert f'<option value="{opponent.pk}" selected>The AI with' in html
    assert '<option value="strong" selected>Strong</option>' in html and 'value="x1"' in html
    assert 'value="1000"' in html  # the run's form, not the one sent, keeps its defaults


def test_a_run_submitted_without_a_title_is_named_after_its_deck_and_opponent(alice, starters):
    deck, opponent = starters
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", games=10,
                              params={"deck": deck.pk, "mode": "matchup", "opponent": opponent.pk})
    assert run.title == f"{deck.name} vs {opponent.name}"
    alone = services.run_submit(owner=alice, kind="dreadgate_playtest", games=10, params={"deck": deck.pk})
    assert alone.title == f"{deck.name}: goldfish"


def test_a_run_of_a_kind_without_default_titles_is_named_by_its_kind_on_its_page_and_in_the_list(client, alice):
    """A tournament submitted through the API without a title is "Dread Draw bot tournament", not its code name."""
    run = services.run_submit(owner=alice, kind="dreaddraw_tournament", games=10,
                              params={"lineup": ["heuristic", "random"]})
    assert run.title == ""
    client.force_login(alice)
    for path in (f"/playtest/runs/{run.pk}/", "/playtest/"):
        html = client.get(path).content.decode()
        assert "Dread Draw bot tournament" in html and "dreaddraw_tournament" not in html, path


def test_the_run_list_says_a_goldfish_run_has_no_opponent(client, alice, starters):
    services.run_submit(owner=alice, kind="dreadgate_playtest", games=10, params={"deck": starters[0].pk})
    client.force_login(alice)
    html = client.get("/playtest/").content.decode()
    assert "<td>A passive one (goldfish)</td>" in html


def test_a_visitor_is_asked_to_log_in(client):
    html = client.get("/playtest/").content.decode()
    assert 'href="/accounts/login/?next=/playtest/"' in html and 'name="deck"' not in html


def test_runs_past_the_first_fifty_are_on_the_next_pages_and_a_page_that_is_not_one_is_refused(client, alice):
    Run.objects.bulk_create(Run(owner=alice, kind="dreaddraw_tournament", title=f"Run number {n:02d}", games=1,
                                chunk_size=1, seed=n, engine_version="x", catalog_version="x") for n in range(52))
    client.force_login(alice)
    first = client.get("/playtest/").content.decode()
    assert first.count("Run number ") == 50 and "Page 1 of 2" in first and 'href="?page=2#runs-h"' in first
    second = client.get("/playtest/", {"page": "2"}).content.decode()
    assert second.count("Run number ") == 2 and "Newer runs" in second
    shown = set(re.findall(r"Run number \d\d", first + second))
    assert len(shown) == 52  # each run on one page
    refused = client.get("/playtest/", {"page": "-1"})
    assert refused.status_code == 400 and "is not a page number" in refused.content.decode()


def test_every_policy_a_form_offers_says_what_it_is(client, alice, starters):
    from playtest.policies import POLICIES, POLICY_WORDS

    assert set(POLICY_WORDS) == set(POLICIES)
    client.force_login(alice)
    html = client.get("/playtest/").content.decode()
    assert '<option value="passive">passive: does nothing: a deck to race against (goldfish)</option>' in html


def test_a_run_of_one_game_says_game_in_the_singular(client, alice, starters):
    one = services.run_submit(owner=alice, kind="dreadgate_playtest", games=1, params={"deck": starters[0].pk})
    two = services.run_submit(owner=alice, kind="dreadgate_playtest", games=2, params={"deck": starters[0].pk})
    client.force_login(alice)
    page = " ".join(client.get(f"/playtest/runs/{one.pk}/").content.decode().split())
    assert re.search(r"0 of 1 game\b", page) and "of 1 games" not in page
    assert "0 of 2 games" in " ".join(client.get(f"/playtest/runs/{two.pk}/").content.decode().split())
