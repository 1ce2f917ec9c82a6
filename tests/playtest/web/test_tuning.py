"""Deck tuning through the API and the pages: submission and refusals, stages and progress, the report, applying
a swap as a new deck version (and undoing it from the history)."""

import pytest
from django.contrib.auth import get_user_model

from decks.cardinfo import Entry
from decks.models import Deck, Visibility
from decks.selectors import deck_entries
from decks.services import deck_update
from playtest.jobs import services
from playtest.jobs.registry import get_kind
from playtest.models import Run, RunChunk, RunStatus
from playtest.simulation.run_speed import speed_calibrate
from playtest.simulation.tuning_kind import TUNING
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db


def post(client, body, path="/api/tunings/"):
    return client.post(path, body, content_type="application/json")


def refusal(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


def play_pending(run):
    while pending := list(RunChunk.objects.filter(run=run, status="pending").values_list("index", flat=True)):
        for index in pending:
            services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    return run


@pytest.fixture
def tuned(alice):
    """A finished goldfish tuning run of alice’s Champion deck, Quick, 300 games."""
    deck = starter_deck(alice, craft="champion", name="My champions")
    run = services.run_submit(owner=alice, kind=TUNING, params={"deck": deck.pk, "format": "quick", "budget": 300},
                              seed=3)
    return deck, play_pending(run)


def test_a_tuning_run_races_in_stages_within_its_budget_and_reports_swaps_with_intervals(client, alice, tuned):
    deck, run = tuned
    assert run.status == RunStatus.DONE, run.error
    assert run.stages.count() > 1 and run.games_done == run.result["games"] <= 300
    client.force_login(alice)
    body = client.get(f"/api/tunings/{run.pk}/").json()
    report = body["report"]
    assert body["goal"] == "goldfish" and body["deck"]["name"] == "My champions" and body["progress_percent"] == 100
    assert 1 <= len(report["best"]) <= 4 and report["raced"] == len(run.params["candidates"])
    for swap in report["best"]:
        assert swap["low"] <= swap["mean"] <= swap["high"]
    assert report["beyond_notice"] == ""
    assert "as good as the AI" in report["caveat"] and "public decks" in report["shortlist_rule"]
    page = client.get(f"/playtest/runs/{run.pk}/")
    assert b"Best swaps" in page.content and b"Cheapest cuts" in page.content and b"Apply" in page.content
    # After the race, the finalists were tried again on new deals; none was clearly better there.
    assert "base" in run.stages.last().plan and report["plan"] == [] and report["chained_stages"] >= 1
    assert "none improved the deck clearly there" in page.content.decode()
    # The API says of each finalist what the page says: its verdict, and its figures on the new deals.
    for swap in report["best"]:
        assert swap["verdict"] in page.content.decode()
        assert swap["new_deals"]["low"] <= swap["new_deals"]["mean"] <= swap["new_deals"]["high"]
        if swap["low"] > 0:
            assert swap["verdict"] == "Clear in the race, not confirmed on new deals"
    # The progress line counts what was asked and what was played, and says why they differ (no "100%").
    short = 300 - run.games_done
    assert short > 0, "this run fills its budget: pick one whose chain ends early"
    assert (f"{run.games_done} of 300 games: the run stopped {short} game{'s' if short > 1 else ''} short of its "
            "budget: after the race, its chained stages") in page.content.decode()
    assert "confirmed none of the" in page.content.decode() and "no swap was left" not in page.content.decode()
    assert "(100%)" not in page.content.decode()
    runs_list = client.get("/playtest/").content.decode()
    assert f"{run.games_done} of 300 ({short} not played: its page says why)" in runs_list

    # Applying a swap makes a new version of the deck, which the history can undo.
    swap = run.params["candidates"][0]
    before = {e.card.collector_number: e.count for e in deck_entries(deck)}
    response = post(client, {"swap": 0}, f"/api/tunings/{run.pk}/apply/")
    assert response.status_code == 200, response.content
    deck.refresh_from_db()
    assert response.json()["version"] == deck.version == 2
    after = {e.card.collector_number: e.count for e in deck_entries(deck)}
    assert after.get(swap["cut"], 0) == before[swap["cut"]] - 1
    assert after.get(swap["add"], 0) == before.get(swap["add"], 0) + 1
    assert deck.revisions.count() == 2 and "Tuning:" in deck.revisions.order_by("-number").first().message
    # Sent again (its answer lost on the way), it is refused: a second copy would go out.
    again = refusal(post(client, {"swap": 0}, f"/api/tunings/{run.pk}/apply/"), 409)
    assert again["code"] == "swap_stale" and again["message"].startswith("Swap 0 of this run was applied already")
    deck.refresh_from_db()
    assert deck.version == 2
    client.post(f"/decks/{deck.pk}/revert/1/", {"version": deck.version})
    deck.refresh_from_db()
    assert {e.card.collector_number: e.count for e in deck_entries(deck)} == before


def test_a_runs_plan_is_applied_as_one_version_in_its_order_and_refused_whole_when_a_swap_no_longer_fits(
        client, alice, tuned):
    deck, run = tuned
    first, second = run.params["candidates"][:2]  # two cards out, each for a copy of what the race brings in
    assert first["cut"] != second["cut"]
    figures = {"stage": 3, "games": 40, "mean": 0.5, "low": 0.1, "high": 0.9, "value": 6.0}  # as the chain concludes
    run.result = {**run.result, "plan": [{"arm": 1, **first, **figures}, {"arm": 2, **second, **figures}]}
    run.save(update_fields=["result"])
    client.force_login(alice)
    assert "Apply the plan (2 swaps)" in client.get(f"/playtest/runs/{run.pk}/").content.decode()
    # The second swap's card out taken out of the deck since the run: the plan is refused whole, the first swap
    # (which still fits) not applied either.
    original = deck_entries(deck)
    deck = deck_update(deck=deck, actor=alice, expected_version=deck.version,
                       entries=[e for e in original if e.card.collector_number != second["cut"]])
    kept = {e.card.collector_number: e.count for e in deck_entries(deck)}
    assert first["cut"] in kept
    assert refusal(post(client, {"plan": True}, f"/api/tunings/{run.pk}/apply/"), 409)["code"] == "swap_stale"
    deck.refresh_from_db()
    assert deck.version == 2 and {e.card.collector_number: e.count for e in deck_entries(deck)} == kept
    # Back as it was, the plan applies, in one new version.
    deck = deck_update(deck=deck, actor=alice, expected_version=deck.version, entries=original)
    before = {e.card.collector_number: e.count for e in deck_entries(deck)}
    response = post(client, {"plan": True}, f"/api/tunings/{run.pk}/apply/")
    assert response.status_code == 200, response.content
    deck.refresh_from_db()
    assert deck.version == 4
    after = {e.card.collector_number: e.count for e in deck_entries(deck)}
    assert [after.get(swap["cut"], 0) - before[swap["cut"]] for swap in (first, second)] == [-1, -1]
    adds = [first["add"], second["add"]]
    assert all(after.get(add, 0) - before.get(add, 0) == adds.count(add) for add in adds)
    assert deck.revisions.order_by("-number").first().message.count(" out, ") == 2
    # The page's button takes the same route: applied again, the plan is refused, so the run's page says why, with
    # the refusal's status; so does a swap the run never raced.
    page = client.post(f"/playtest/runs/{run.pk}/plan/apply/")
    assert page.status_code == 409 and "was applied already" in page.content.decode() and b"Best swaps" in page.content
    unknown = client.post(f"/playtest/runs/{run.pk}/swaps/999/apply/")
    assert unknown.status_code == 400 and "no swap 999" in unknown.content.decode()
    deck.refresh_from_db()
    assert deck.version == 4
    # Exactly one of a swap or the plan.
    assert refusal(post(client, {}, f"/api/tunings/{run.pk}/apply/"), 422)["code"] == "exactly_one_parameter"
    assert refusal(post(client, {"swap": 0, "plan": True}, f"/api/tunings/{run.pk}/apply/"), 422)["code"] == \
        "exactly_one_parameter"


def test_swaps_applied_one_at_a_time_never_take_a_card_past_its_copy_limit(client, alice, tuned):
    """Each swap was checked alone against the deck as tuned; applied one after another, the one that would make a
    fifth copy is refused with nothing changed, as applying them together is."""
    deck, run = tuned
    card = next(e.card for e in deck_entries(deck) if e.count == 1 and not e.card.is_unique)
    others = [e.card.collector_number for e in deck_entries(deck) if e.card.id != card.id]
    swaps = [{"cut": cut, "add": card.collector_number} for cut in others[:4]]
    run.params = {**run.params, "candidates": swaps}
    run.save(update_fields=["params"])
    client.force_login(alice)
    for index in range(3):  # 1 copy, then 2, 3, 4
        assert post(client, {"swap": index}, f"/api/tunings/{run.pk}/apply/").status_code == 200
    version = Deck.objects.get(pk=deck.pk).version
    error = refusal(post(client, {"swap": 3}, f"/api/tunings/{run.pk}/apply/"), 409)
    assert error["code"] == "swap_stale" and error["message"].startswith("This swap makes a deck that is not legal")
    deck.refresh_from_db()
    assert deck.version == version and deck.is_legal
    assert {e.card.collector_number: e.count for e in deck_entries(deck)}[card.collector_number] == 4


def test_a_run_finished_before_tuning_chained_its_gains_says_it_suggests_single_swaps(client, alice, tuned):
    _, run = tuned
    run.result = {k: v for k, v in run.result.items() if k not in ("plan", "chained_stages")}  # as stored then
    run.save(update_fields=["result"])
    client.force_login(alice)
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    assert "played before tuning runs went on to confirm" in page and "Apply the plan" not in page
    assert "Best swaps" in page


def test_the_submission_is_cheap_the_shortlist_is_the_runs_first_stage_on_a_worker(alice):
    deck = starter_deck(alice, craft="champion", name="My champions")
    run = services.run_submit(owner=alice, kind=TUNING, params={"deck": deck.pk, "format": "quick", "budget": 300})
    run.refresh_from_db()
    assert "candidates" not in run.params and "cards" not in run.params  # no swap was scored or validated
    assert [(stage.plan, stage.games) for stage in run.stages.all()] == [({"games": 0, "prepare": True}, 0)]
    assert list(run.chunks.values_list("index", "games")) == [(0, 0)]
    # The deck changes before a worker takes the run: the shortlist is the submitted deck's, whose list is raced.
    other = starter_deck(alice, craft="sorcery")
    deck_update(deck=deck, actor=alice, expected_version=deck.version, entries=deck_entries(other))
    services.chunk_execute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert run.stage == 1 and run.games_done == 0
    assert 0 < len(run.params["candidates"]) < run.params["considered"]
    assert all(swap["cut"] in run.params["deck"]["list"] for swap in run.params["candidates"])
    assert run.stages.get(index=1).plan["arms"] == list(range(len(run.params["candidates"]) + 1))
    assert run.summary == get_kind(TUNING).public_params(run.params)  # what lists show: the shortlist, as prepared


def test_a_swap_on_someone_elses_deck_goes_on_a_copy_of_ones_own_and_only_from_a_finished_run(client, alice):
    deck = starter_deck(alice, craft="champion", name="Public champions", visibility=Visibility.PUBLIC)
    bob = get_user_model().objects.create_user("bob", password="x" * 12)
    theirs = services.run_submit(owner=bob, kind=TUNING, params={"deck": deck.pk, "format": "quick", "budget": 500})
    client.force_login(bob)
    assert refusal(post(client, {"swap": 0}, f"/api/tunings/{theirs.pk}/apply/"), 409)["code"] == "not_applicable"
    services.chunk_execute(run_id=theirs.pk, index=0)  # the first stage, its shortlist
    Run.objects.filter(pk=theirs.pk).update(status=RunStatus.DONE)
    answer = post(client, {"swap": 0}, f"/api/tunings/{theirs.pk}/apply/")
    assert answer.status_code == 200
    copy = Deck.objects.get(owner=bob)
    assert answer.json()["deck"] == copy.pk and copy.copied_from_id == deck.pk
    assert copy.name == "Public champions (tuned)" and copy.revisions.count() == 2  # copied, then swapped
    assert Deck.objects.get(pk=deck.pk).version == 1  # alice's deck is hers
    again = post(client, {"swap": 0}, f"/api/tunings/{theirs.pk}/apply/")  # the same swap: on the same copy, done
    assert again.status_code == 409 and Deck.objects.filter(owner=bob).count() == 1
    Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PRIVATE)  # no longer bob's to see
    assert post(client, {"swap": 0}, f"/api/tunings/{theirs.pk}/apply/").status_code == 404
    assert Deck.objects.filter(owner=bob).count() == 1
    client.force_login(alice)  # alice may not even see bob's run
    assert post(client, {"swap": 0}, f"/api/tunings/{theirs.pk}/apply/").status_code == 404


def test_a_tuning_or_metagame_run_is_cancelled_through_its_own_route_by_its_owner_only(client, alice):
    deck = starter_deck(alice, craft="champion", name="My champions")
    run = services.run_submit(owner=alice, kind=TUNING, params={"deck": deck.pk, "format": "quick", "budget": 300})
    bob = get_user_model().objects.create_user("bob", password="x" * 12)
    client.force_login(bob)
    assert post(client, {}, f"/api/tunings/{run.pk}/cancel/").status_code == 404
    client.force_login(alice)
    response = post(client, {}, f"/api/tunings/{run.pk}/cancel/")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert {"goal", "deck", "report"} <= set(response.json())  # answered as a tuning run, as GET answers it
    assert Run.objects.get(pk=run.pk).status == RunStatus.CANCELLED
    assert post(client, {}, f"/api/metagames/{run.pk}/cancel/").status_code == 404  # a tuning run is no metagame


@pytest.mark.parametrize(("body", "status", "field", "words"), [
    ({"budget": 100}, 400, "budget", "200"),
    ({"budget": 10**9}, 400, "budget", "maximum of 100000"),
    ({"goal": "fastest"}, 400, "goal", "fastest"),
    ({"format": "tactical"}, 400, "format", "tactical"),
    ({"goal": "matchup", "gauntlet": [987654]}, 404, "gauntlet[0]", "987654"),
])
def test_bad_parameters_are_refused_naming_the_field(client, alice, body, status, field, words):
    deck = starter_deck(alice, craft="divine")
    client.force_login(alice)
    error = refusal(post(client, {"deck": deck.pk, **body}), status)
    named = error["details"].get("field") or next(iter(error["details"].get("fields", {})), "")
    assert named == field and words in error["message"]
    assert not Run.objects.filter(kind=TUNING).exists()


def test_an_illegal_deck_is_refused_before_anything_is_played(client, alice):
    deck = starter_deck(alice, craft="divine")
    entries = deck_entries(deck)
    from decks.services import deck_update
    deck = deck_update(deck=deck, actor=alice, expected_version=deck.version, entries=entries[:3])
    client.force_login(alice)
    error = refusal(post(client, {"deck": deck.pk}), 422)
    assert error["details"]["field"] == "deck" and "not legal" in error["message"]


def test_a_matchup_race_plays_both_seats_against_every_gauntlet_deck(alice):
    deck = starter_deck(alice, craft="hinter")
    rival = starter_deck(alice, craft="sorcery")
    run = services.run_submit(owner=alice, kind=TUNING, params={"deck": deck.pk, "goal": "matchup",
                                                                "format": "quick", "budget": 500,
                                                                "gauntlet": [rival.pk]})
    services.chunk_execute(run_id=run.pk, index=0)  # the shortlist, then the race's first stage is planned
    first = run.stages.get(index=1).plan
    assert first["per_arm"] % 2 == 0  # whole units: both seats of each deal against the one gauntlet deck
    assert [d["name"] for d in run.params["gauntlet"]] == [rival.name]


def test_the_form_shows_the_budget_as_games_and_time_and_submits_a_run(client, alice):
    deck = starter_deck(alice, craft="hinter")
    client.force_login(alice)
    page = client.get(f"/playtest/tune/?deck={deck.pk}")
    assert page.status_code == 200 and b"20000 games" in page.content and b"Estimated time" in page.content
    response = client.post("/playtest/tune/", {"deck": deck.pk, "goal": "goldfish", "format": "quick",
                                               "budget": "600"})
    run = Run.objects.get(kind=TUNING)
    assert response.status_code == 302 and response["Location"] == f"/playtest/runs/{run.pk}/"
    assert run.games == 600
    listed = client.get("/playtest/").content.decode()  # the run list names the deck tuned (it said "—")
    row = listed.split(f"/playtest/runs/{run.pk}/")[1].split("</tr>")[0]
    assert f"<td>{deck.name}</td>" in row.replace("\n", "").replace("        ", "")
    refused = client.post("/playtest/tune/", {"deck": deck.pk, "goal": "goldfish", "format": "quick", "budget": "50"})
    assert refused.status_code == 400 and b"budget" in refused.content
    # Numbers that are not numbers are said so, not read as 0 games or as no seed (a random one).
    for field, value in (("budget", "abc"), ("seed", "xyz")):
        refused = client.post("/playtest/tune/", {"deck": deck.pk, "goal": "goldfish", "format": "quick",
                                                  "budget": "600", field: value})
        assert refused.status_code == 400, field
        assert f"{field}: “{value}” is not a whole number" in refused.content.decode()
    # A gauntlet that names no deck is refused, naming it, not read as no gauntlet (the starters).
    refused = client.post("/playtest/tune/", {"deck": deck.pk, "goal": "matchup", "format": "quick", "budget": "600",
                                              "gauntlet": ["abc"]})
    assert refused.status_code == 400 and "gauntlet[0]" in refused.content.decode()
    assert Run.objects.filter(kind=TUNING).count() == 1
    assert "-5 games" not in client.get("/playtest/tune/budget/", {"budget": "-5", "goal": "goldfish",
                                                                   "format": "quick"}).content.decode()
    # A budget the submission would refuse is said to be so where its time is estimated, not estimated as if not.
    few = client.get("/playtest/tune/budget/", {"budget": "150", "goal": "goldfish", "format": "quick"})
    assert "fewer than the 200 a tuning run plays" in few.content.decode()
    assert client.get("/api/tunings/budget/", {"budget": 150}).status_code == 400
    assert client.get("/api/tunings/budget/", {"budget": 200}).status_code == 200
    refused = client.post("/playtest/tune/", {"deck": deck.pk, "goal": "goldfish", "format": "quick", "budget": "1e9"})
    assert "budget: “1e9” is not a whole number from 200 up." in refused.content.decode()


def test_the_tuning_page_opened_without_a_deck_asks_which_of_yours(client, alice):
    deck = starter_deck(alice, craft="hinter")
    client.force_login(alice)
    page = client.get("/playtest/tune/")
    assert page.status_code == 200 and f'href="/playtest/tune/?deck={deck.pk}"' in page.content.decode()


def test_the_budget_is_timed_on_starter_decks_before_any_run_like_it_and_counts_the_queue_ahead(client, alice, bob):
    client.force_login(alice)
    query = {"budget": 600, "goal": "goldfish", "deck_format": "quick"}
    timing = client.get("/api/tunings/budget/", query).json()
    assert timing["source"] == "timing" and timing["seconds"] is None and timing["games_per_second"] is None
    speed_calibrate(policies=("goldfish", "passive"), fmt="quick")  # the worker's part
    budget = client.get("/api/tunings/budget/", query).json()
    assert budget["source"] == "calibrated" and budget["games_per_second"] > 0 and budget["games_ahead"] == 0
    assert budget["seconds"] == pytest.approx(600 / budget["games_per_second"])
    services.run_submit(owner=bob, kind="test_sum", params={}, games=10_000)  # another user's run, still to play
    queued = client.get("/api/tunings/budget/", query).json()
    assert queued["games_ahead"] == 600 and queued["seconds"] == pytest.approx(1200 / budget["games_per_second"])


def test_the_tuning_form_of_a_deck_i_may_not_see_is_a_404(client, alice):
    bob = get_user_model().objects.create_user("bob", password="x" * 12)
    hidden = starter_deck(bob, craft="hinter")
    client.force_login(alice)
    assert client.get(f"/playtest/tune/?deck={hidden.pk}").status_code == 404
    assert client.get("/playtest/tune/?deck=abc").status_code == 404


def test_a_tactical_deck_is_told_it_cannot_be_tuned_and_offered_no_form(client, alice):
    tactical = starter_deck(alice, craft="champion", name="Tactical champions", format="tactical")
    client.force_login(alice)
    html = client.get(f"/playtest/tune/?deck={tactical.pk}").content.decode()
    assert "it cannot be tuned" in html and 'id="tune-form"' not in html
    standard = starter_deck(alice, craft="champion", name="Standard champions")
    html = client.get(f"/playtest/tune/?deck={standard.pk}").content.decode()
    assert "it cannot be tuned" not in html and 'id="tune-form"' in html


def test_a_deck_that_cannot_reach_the_beyond_total_is_told_so_in_its_tuning_report():
    from django.template.loader import render_to_string

    from playtest.simulation.tuning_kind import present

    params = {"goal": "goldfish", "format": "standard", "budget": 300,
              "deck": {"cards": {"U-1": {"type": "unit", "vitality": 2, "name": "Tiny"}}, "list": ["U-1"] * 4}}
    result = {"swaps": [], "baseline": {"games": 45, "value": 55.0}, "stages": 1, "games": 45}
    report = present(result, params)
    assert "8 vitality in all, less than the 40" in report["beyond_notice"]
    page = render_to_string("playtest/reports/tuning.html", {"report": report})
    assert "Can't reach the Beyond total." in page and "counts as its turns plus 5" in page



def test_a_plan_taking_out_more_copies_than_the_deck_now_holds_says_how_many(client, alice, tuned):
    deck, run = tuned
    first = run.params["candidates"][0]
    figures = {"stage": 3, "games": 40, "mean": 0.5, "low": 0.1, "high": 0.9, "value": 6.0}
    run.result = {**run.result, "plan": [{"arm": 1, **first, **figures}, {"arm": 1, **first, **figures}]}
    run.save(update_fields=["result"])
    entries = [Entry(e.card, 1) if e.card.collector_number == first["cut"] else e for e in deck_entries(deck)]
    deck = deck_update(deck=deck, actor=alice, expected_version=deck.version, entries=entries)
    client.force_login(alice)
    error = refusal(post(client, {"plan": True}, f"/api/tunings/{run.pk}/apply/"), 409)
    assert error["code"] == "swap_stale"
    assert error["message"].startswith("These swaps take 2 copies of ") and "holds 1 now" in error["message"]
