"""Metagame tables through the API and the pages: submission, limits and refusals, progress, the table, replays."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from decks.models import Deck, Visibility
from decks.selectors import starter_deck_list
from playtest.jobs import services
from playtest.models import Run, RunStatus
from playtest.simulation.metagame_kind import METAGAME
from playtest.simulation.metagame_report import short_names
from playtest.simulation.run_speed import speed_calibrate
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db


def starter_ids(count: int = 6) -> list[int]:
    return list(starter_deck_list(format="standard").values_list("pk", flat=True)[:count])


def post(client, body, path="/api/metagames/"):
    return client.post(path, body, content_type="application/json")


def refusal(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


def field_of(error: dict) -> str:
    """The field a 400 names: a domain refusal's `field`, or the one field the API's schema check refused."""
    details = error["details"]
    if "field" in details:
        return details["field"]
    (name,) = details["fields"]
    return name


def play_all(run):
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    return run


# --- Submission and refusals -------------------------------------------------------------------------------


def test_the_starters_and_my_deck_make_a_table_of_seven(client, alice):
    mine = starter_deck(alice, craft="sorcery", name="My sorcery")
    client.force_login(alice)
    response = post(client, {"starters": True, "decks": [mine.pk], "games_per_pair": 10, "format": "quick"})
    assert response.status_code == 202, response.json()
    body = response.json()
    assert body["status"] == "queued" and body["games"] == 21 * 10 and body["games_done"] == 0
    assert body["policy"] == "matchup" and body["format"] == "quick" and body["games_per_pair"] == 10
    assert [d["name"] for d in body["decks"]][-1] == "My sorcery" and len(body["decks"]) == 7
    assert body["table"] is None
    run = Run.objects.get(pk=body["id"])
    assert run.kind == METAGAME and run.owner == alice and len(run.params["decks"][0]["cards"]) > 1  # snapshots


def test_too_many_decks_is_a_400_naming_the_field(client, alice):
    client.force_login(alice)
    own = [starter_deck(alice, name=f"Mine {n}").pk for n in range(7)]
    error = refusal(post(client, {"starters": True, "decks": own}), 400)
    assert field_of(error) == "decks" and error["message"].startswith("decks: ")
    assert "at most 12" in error["message"] and "the 6 starters and at most 6 more" in error["message"]
    error = refusal(post(client, {"decks": list(range(1, 14))}), 400)
    assert field_of(error) == "decks" and "12" in error["message"]
    error = refusal(post(client, {"decks": own[:1]}), 400)
    assert field_of(error) == "decks" and "2 to 12" in error["message"]
    assert not Run.objects.exists()


def test_someone_elses_private_deck_is_a_404_naming_it_and_a_public_one_is_played(client, alice, bob):
    hidden = starter_deck(bob, name="Bob's secret")
    shared = starter_deck(bob, name="Bob's public", visibility=Visibility.PUBLIC)
    client.force_login(alice)
    error = refusal(post(client, {"decks": [starter_ids(1)[0], hidden.pk]}), 404)
    assert error["details"]["field"] == "decks[1]" and error["message"].startswith("decks[1]: ")
    assert "Bob's secret" not in error["message"], "a hidden deck's name never leaks"
    assert not Run.objects.exists()
    assert post(client, {"decks": [starter_ids(1)[0], shared.pk], "games_per_pair": 2}).status_code == 202


def test_over_the_game_limit_is_a_422_naming_games_per_pair(client, alice, settings):
    settings.PLAYTEST_MAX_GAMES = 1000
    client.force_login(alice)
    error = refusal(post(client, {"starters": True, "games_per_pair": 400}), 422)
    assert error["code"] == "games_out_of_range" and error["details"]["field"] == "games_per_pair"
    assert "15 pairs of 400 games make 6,000 games" in error["message"] and "1,000" in error["message"]
    assert "at most 66 games a pair" in error["message"]
    assert not Run.objects.exists()


@pytest.mark.parametrize("body, field, words", [
    ({"starters": True, "games_per_pair": 7}, "games_per_pair", "multiple of 2"),
    ({"starters": True, "games_per_pair": 0}, "games_per_pair", "2"),
    ({"starters": True, "format": "tactical"}, "format", "tactical"),
    ({"starters": True, "policy": "genius"}, "policy", "genius"),
    ({"decks": ["x", 1]}, "decks[0]", "is not a whole number"),
])
def test_bad_parameters_are_a_400_naming_the_field(client, alice, body, field, words):
    client.force_login(alice)
    error = refusal(post(client, body), 400)
    assert field_of(error) == field and error["message"].startswith(f"{field}: ")
    assert words in error["message"]


def test_a_deck_listed_twice_or_a_tactical_deck_is_refused(client, alice):
    client.force_login(alice)
    first = starter_ids(1)[0]
    error = refusal(post(client, {"starters": True, "decks": [first]}), 422)
    assert error["details"]["field"] == "decks[0]" and "already in the table (a starter deck)" in error["message"]
    tactical = Deck.objects.filter(is_starter=True, format="tactical").first()
    error = refusal(post(client, {"decks": [first, tactical.pk]}), 422)
    assert error["details"]["field"] == "decks[1]" and "Tactical deck" in error["message"]


def test_the_active_runs_limit_applies(client, alice, settings):
    settings.PLAYTEST_MAX_ACTIVE_RUNS = 1
    client.force_login(alice)
    assert post(client, {"decks": starter_ids(2), "games_per_pair": 2}).status_code == 202
    error = refusal(post(client, {"decks": starter_ids(2), "games_per_pair": 2}), 429)
    assert error["code"] == "too_many_runs"


def test_the_runs_endpoint_takes_a_table_and_its_games_from_the_parameters(client, alice):
    client.force_login(alice)
    params = {"decks": starter_ids(3), "games_per_pair": 4}
    response = post(client, {"kind": METAGAME, "params": params}, path="/api/runs/")
    assert response.status_code == 202, response.json()
    assert response.json()["games"] == 12
    error = refusal(post(client, {"kind": METAGAME, "params": params, "games": 10}, path="/api/runs/"), 400)
    assert field_of(error) == "body" and "games is not a field here" in error["message"]  # the parameters fix it
    error = refusal(post(client, {"kind": "dreadgate_playtest", "params": {"deck": 1}}, path="/api/runs/"), 400)
    assert field_of(error) == "games" and error["message"] == "games: This field is required."


# --- Progress, the table, the replays ------------------------------------------------------------------------


def test_progress_then_the_table_through_the_api(client, alice, bob):
    client.force_login(alice)
    body = post(client, {"decks": starter_ids(3), "games_per_pair": 4, "format": "quick", "seed": 3}).json()
    run = Run.objects.get(pk=body["id"])
    services.chunk_execute(run_id=run.pk, index=0)
    shown = client.get(f"/api/metagames/{run.pk}/").json()
    assert shown["status"] == "done" and shown["games_done"] == 12 and shown["progress_percent"] == 100
    table = shown["table"]
    assert len(table["decks"]) == 3 and len(table["matchups"]) == 6 and table["games"] == 12
    for matchup in table["matchups"]:
        assert matchup["games"] == 4 and matchup["low"] <= (matchup["rate"] or 0) <= matchup["high"]
        assert matchup["sample_game"] is not None
    for deck in table["decks"]:
        assert deck["overall"]["games"] == 8 and deck["best"] and deck["worst"]
    client.force_login(bob)
    assert client.get(f"/api/metagames/{run.pk}/").status_code == 404


def test_the_budget_is_timed_by_a_worker_on_first_use_then_measured_on_finished_tables_and_counts_the_queue_ahead(
        client, alice, bob, django_capture_on_commit_callbacks):
    client.force_login(alice)
    with django_capture_on_commit_callbacks() as asked:
        budget = client.get("/api/metagames/budget/", {"decks": 6, "games_per_pair": 400}).json()
    assert budget["pairs"] == 15 and budget["games"] == 6000 and budget["within_limit"]
    # No game is played in the request: a worker is asked to time the policy, and the estimate says it waits.
    assert budget["source"] == "timing" and budget["games_per_second"] is None and budget["seconds"] is None
    assert budget["seconds_text"] == "not known yet" and "a worker is timing" in budget["source_text"]
    assert len(asked) == 1
    with django_capture_on_commit_callbacks() as asked_again:
        client.get("/api/metagames/budget/", {"decks": 6, "games_per_pair": 400})
    assert asked_again == [], "asked once, not at every request while the worker times it"
    speed_calibrate(policies=("matchup", "matchup"), fmt="standard")  # the worker's part
    budget = client.get("/api/metagames/budget/", {"decks": 6, "games_per_pair": 400}).json()
    assert budget["source"] == "calibrated" and budget["games_per_second"] > 0 and budget["games_ahead"] == 0
    assert budget["seconds"] == pytest.approx(6000 / budget["games_per_second"])
    again = client.get("/api/metagames/budget/", {"decks": 6, "games_per_pair": 400}).json()
    assert again["games_per_second"] == budget["games_per_second"], "timed once, then kept"
    run = play_all(services.run_submit(owner=alice, kind=METAGAME, params={"decks": starter_ids(2),
                                                                         "games_per_pair": 4}))
    start = timezone.now()
    Run.objects.filter(pk=run.pk).update(started_at=start, finished_at=start + timedelta(seconds=2))
    budget = client.get("/api/metagames/budget/", {"decks": 6, "games_per_pair": 400}).json()
    assert budget["source"] == "measured" and budget["runs"] == 1 and budget["games_per_second"] == 2.0
    assert budget["seconds_text"] == "50 min"
    # Runs still to play share the workers: each plays as many games as this table's 6,000, or what it has left.
    services.run_submit(owner=bob, kind="test_sum", params={}, games=10_000)
    services.run_submit(owner=bob, kind="test_sum", params={}, games=1_000)
    budget = client.get("/api/metagames/budget/", {"decks": 6, "games_per_pair": 400}).json()
    assert budget["games_ahead"] == 7_000 and budget["seconds_text"] == "1 h 48 min"
    quick = client.get("/api/metagames/budget/", {"decks": 6, "deck_format": "quick"}).json()
    assert quick["source"] == "timing", "a Quick table is not estimated from Standard ones"
    message = refusal(client.get("/api/metagames/budget/", {"decks": 13}), 400)["message"]
    assert message.startswith("decks") and "2 to 12" in message
    # An odd number of games a pair, which the submission refuses, gets no estimate either: the schema's refusal.
    message = refusal(client.get("/api/metagames/budget/", {"decks": 2, "games_per_pair": 3}), 400)["message"]
    assert message == "games_per_pair must be an even number from 2 to 100000, not '3'."
    page = client.get("/playtest/metagame/budget/", {"decks": starter_ids(2), "games_per_pair": 3}).content.decode()
    assert "an even number of games a pair" in page and "= 3 games" not in page


def test_the_schema_documents_the_metagame_endpoints(client):
    schema = client.get("/api/schema/").content.decode()
    for text in ("/api/metagames/", "/api/metagames/{id}/", "/api/metagames/budget/", "games_per_pair",
                 "MetagameTable", "sample_game"):
        assert text in schema


def test_the_form_shows_the_budget_and_queues_the_table(client, alice, settings):
    client.force_login(alice)
    html = client.get("/playtest/metagame/").content.decode()
    assert html.count('name="decks"') >= 6 and html.count(" checked>") >= 6  # the six starters, checked
    assert "15 pairs × 400 games = 6000 games" in html and "Estimated time: not known yet" in html
    assert 'hx-trigger="load delay:2s"' in html, "the line asks again until the worker has timed the AI"
    speed_calibrate(policies=("matchup", "matchup"), fmt="standard")  # the worker's part
    html = client.get("/playtest/metagame/").content.decode()
    assert "Estimated time: about" in html and 'hx-trigger="load delay:2s"' not in html
    partial = client.get("/playtest/metagame/budget/", {"decks": starter_ids(3), "games_per_pair": 10},
                         HTTP_HX_REQUEST="true").content.decode()
    assert "3 pairs × 10 games = 30 games" in partial and "<form" not in partial
    settings.PLAYTEST_MAX_GAMES = 100
    response = client.post("/playtest/metagame/", {"decks": starter_ids(6), "games_per_pair": 10, "format": "quick",
                                                   "policy": "matchup"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'role="alert"' in html and "games_per_pair: 15 pairs of 10 games make 150 games" in html
    assert "more than the 100 a run may play" in html
    response = client.post("/playtest/metagame/", {"decks": starter_ids(3), "games_per_pair": 4, "format": "quick",
                                                   "policy": "matchup", "seed": "5"})
    run = Run.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == f"/playtest/runs/{run.pk}/"
    assert run.games == 12 and run.seed == 5 and run.params["format"] == "quick"


def test_the_result_page_is_a_heat_map_table_whose_cells_replay_a_game_of_the_pair(client, alice):
    run = play_all(services.run_submit(owner=alice, kind=METAGAME, seed=4, params={
        "decks": starter_ids(3), "games_per_pair": 4, "format": "quick"}))
    assert run.status == RunStatus.DONE, run.error
    client.force_login(alice)
    html = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    names = [d["name"] for d in run.params["decks"]]
    assert "<caption" in html and html.count('<th scope="row">') >= 6  # the heat map's rows and the standings'
    heads = re.findall(r'<th scope="col">(.*?)</th>', html)
    for name, short in zip(names, short_names(names), strict=True):
        # a long name is cut short at the head of its column, whole on hover and for screen readers
        assert len(short) <= 15 and short != name and short.endswith("…")
        assert (f'<abbr title="{name}" aria-hidden="true">{short}</abbr><span class="visually-hidden">{name}</span>'
                in heads)
    assert html.count('class="interval"') == 6 + 3  # every cell and every overall rate has its interval
    assert "Best matchup" in html and "Worst matchup" in html
    sample = run.result["samples"][0]
    assert f"/playtest/runs/{run.pk}/games/{sample['game']}/" in html
    replay = client.get(f"/playtest/runs/{run.pk}/games/{sample['game']}/?step=2")
    assert replay.status_code == 200
    page = replay.content.decode()
    first = names[sample["first"]]
    assert f"South (moves first): <strong>{first}</strong>" in page and "Step 2 of" in page
    listing = client.get("/playtest/").content.decode()
    assert "3 decks: " in listing


def test_a_decks_playtest_page_offers_it_in_a_table_with_the_starters(client, alice):
    mine = starter_deck(alice, craft="hinter", name="My hinter")
    client.force_login(alice)
    link = f"/playtest/metagame/?decks={mine.pk}&amp;starters=1"
    assert link in client.get(f"/playtest/new/?deck={mine.pk}").content.decode()
    html = client.get(link.replace("&amp;", "&")).content.decode()
    assert f'value="{mine.pk}" checked' in html and "21 pairs × 400 games = 8400 games" in html


def test_a_table_cancelled_part_way_says_how_many_of_its_games_it_reports(client, alice):
    run = services.run_submit(owner=alice, kind=METAGAME, params={"decks": starter_ids(3), "games_per_pair": 200})
    services.chunk_execute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert services.run_cancel(run=run)
    client.force_login(alice)
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    played = run.chunks.get(index=0).games
    assert f"{played} games of the 600 asked: 3 pairs of 200 games asked" in page


@pytest.mark.django_db
@pytest.mark.parametrize("per_pair", [3, 100_002])
def test_the_budget_refuses_games_a_pair_as_the_submission_does(client, alice, per_pair):
    """Odd or past the run limit: the submission's 400 naming the field, where the budget said 422 (odd) or took a
    value up to 2**31 - 1."""
    client.force_login(alice)
    budget = client.get("/api/metagames/budget/", {"decks": 6, "games_per_pair": per_pair})
    submitted = client.post("/api/metagames/", {"starters": True, "games_per_pair": per_pair},
                            content_type="application/json")
    assert budget.status_code == submitted.status_code == 400, (budget.json(), submitted.json())
    assert "games_per_pair" in budget.json()["error"]["message"]
