"""A run's parameters hold whole deck lists (some 50 KB a run), for the workers; what pages and the API show of them is
its kind's summary, stored with the run (Run.summary), so that a list of runs and a cancel read no deck lists."""

import pytest
from django.test import Client

from decks.models import Deck
from playtest.jobs import services
from playtest.jobs.registry import get_kind
from playtest.models import Run
from tests.roundtrips import counted
from tests.support import migrate_to, without_tokens

PLAYTEST = "dreadgate_playtest"


def submitted(owner, mode="goldfish") -> Run:
    decks = list(Deck.objects.filter(is_starter=True).order_by("pk")[:2])
    params = {"deck": decks[0].pk, "mode": mode, **({"opponent": decks[1].pk} if mode == "matchup" else {})}
    return services.run_submit(owner=owner, kind=PLAYTEST, params=params, games=10, seed=3)


def run_sql(trips) -> list[str]:
    return [sql for sql in trips.sql if 'FROM "playtest_run"' in sql]


# What a list reads of a run stored without a summary, in the same query (run_rows_for): the database reads a run's
# parameters there only when its summary is null.
LISTED = 'COALESCE("playtest_run"."summary", "playtest_run"."params")'


def reads_params(sql: str) -> bool:
    return '"params"' in sql.replace(LISTED, "")


@pytest.mark.django_db
def test_a_submission_stores_its_kinds_summary_of_the_parameters(alice):
    run = Run.objects.get(pk=submitted(alice, "matchup").pk)
    assert run.summary == get_kind(PLAYTEST).public_params(run.params)
    assert [deck["name"] for deck in run.summary["decks"]] == [deck["name"] for deck in run.params["decks"]]
    # The deck's card count, as its page says it: the snapshot's list holds its gateway card too.
    assert run.summary["decks"][0]["cards"] == Deck.objects.get(pk=run.params["decks"][0]["id"]).card_count
    assert run.summary["decks"][0]["cards"] == len(run.params["decks"][0]["list"]) - 1


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/playtest/", "/api/runs/"])
def test_a_list_of_runs_shows_their_decks_without_reading_the_deck_lists(alice, path):
    run = submitted(alice, "matchup")
    client = Client()
    client.force_login(alice)
    with counted() as trips:
        answer = client.get(path)
    assert answer.status_code == 200
    assert run_sql(trips) and not [sql for sql in run_sql(trips) if reads_params(sql)], run_sql(trips)
    names = [deck["name"] for deck in run.params["decks"]]
    if path == "/api/runs/":
        assert answer.json()["results"][0]["params"] == client.get(f"/api/runs/{run.pk}/").json()["params"]
    else:
        page = answer.content.decode()
        assert all(name in page for name in names) and f"({run.params['policies'][1]})" in page


@pytest.mark.django_db
def test_a_cancel_answers_the_runs_summary_without_reading_its_deck_lists(alice):
    run = submitted(alice)
    client = Client()
    client.force_login(alice)
    with counted() as trips:
        answer = client.post(f"/api/runs/{run.pk}/cancel/")
    assert answer.status_code == 200 and answer.json()["status"] == "cancelled"
    assert answer.json()["params"] == run.summary
    assert not [sql for sql in run_sql(trips) if reads_params(sql)], run_sql(trips)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_runs_stored_before_summaries_are_summarised_by_the_migration(alice):
    params = Run.objects.get(pk=submitted(alice, "matchup").pk).params
    Run.objects.all().delete()
    old = migrate_to([("playtest", "0015_chunk_progress")])
    fields = {"owner_id": alice.pk, "games": 10, "chunk_size": 10, "seed": 1, "engine_version": "1",
              "catalog_version": "x"}
    old_runs = old.get_model("playtest", "Run").objects
    before = old_runs.create(kind=PLAYTEST, params=params, **fields)
    unknown = old_runs.create(kind="retired_kind", params={"n": 1}, **fields)
    migrate_to(None)
    assert Run.objects.get(pk=before.pk).summary == get_kind(PLAYTEST).public_params(params)
    assert Run.objects.get(pk=unknown.pk).summary == {"n": 1}  # a kind no longer installed: shown whole, as before


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/playtest/", "/api/runs/"])
def test_runs_stored_without_a_summary_are_listed_in_one_query_and_summarised_by_the_reaper(alice, path):
    """Runs stored by the code before summaries, while a new release starts: the list reads their parameters with
    them (not one query a run), shows them as the others, and the reaper's next pass stores their summaries."""
    runs = [submitted(alice, mode) for mode in ("goldfish", "matchup", "goldfish")]
    client = Client()
    client.force_login(alice)
    def shown():
        answer = client.get(path)
        return answer.json() if path == "/api/runs/" else without_tokens(answer.content.decode())

    summarised = shown()
    Run.objects.update(summary=None)
    with counted() as trips:
        assert shown() == summarised
    assert len(run_sql(trips)) == 2, run_sql(trips)  # the page's runs, and their count
    assert services.runs_reap()["summarised"] == len(runs)
    assert [run.summary for run in Run.objects.order_by("created_at")] == [run.summary for run in runs]
    assert services.runs_reap()["summarised"] == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_runs_summarised_with_the_gateway_counted_are_summarised_again_by_the_migration(alice):
    run = Run.objects.get(pk=submitted(alice, "matchup").pk)
    params, right = run.params, run.summary
    Run.objects.all().delete()
    old = migrate_to([("playtest", "0016_run_summary")])
    counted_over = {**right, "decks": [{**deck, "cards": len(snapshot["list"])}
                                       for deck, snapshot in zip(right["decks"], params["decks"], strict=True)]}
    assert counted_over != right
    stored = old.get_model("playtest", "Run").objects.create(
        kind=PLAYTEST, params=params, summary=counted_over, owner_id=alice.pk, games=10, chunk_size=10, seed=1,
        engine_version="1", catalog_version="x")
    migrate_to(None)
    assert Run.objects.get(pk=stored.pk).summary == right
