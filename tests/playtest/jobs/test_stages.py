"""Staged runs (a tuning race's machinery), driven through the services with the `test_race` kind."""

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import timezone

from core.errors import DomainError
from playtest.jobs import services
from playtest.models import Run, RunChunk, RunStage, RunStatus

pytestmark = pytest.mark.django_db

# 8 arms of 2 games, then 4 of 2, 2 of 2, 1 of 2... until one is left: 16 + 8 + 4 = 28 games in 3 stages.
PARAMS = {"arms": 8, "per_arm": 2}


@pytest.fixture
def user():
    return get_user_model().objects.create_user("racer", password="x" * 12)


def play_pending(run):
    """Play every pending chunk, stage after stage, as the workers would (each stage's chunks are created when
    the stage before it is done)."""
    while True:
        pending = list(RunChunk.objects.filter(run=run, status="pending").values_list("index", flat=True))
        if not pending:
            break
        for index in pending:
            services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    return run


def test_a_staged_run_plans_each_stage_from_the_last_and_stores_the_plan_before_its_chunks(user):
    run = services.run_submit(owner=user, kind="test_race", params=PARAMS, games=100, seed=4)
    assert list(run.stages.values_list("index", "games")) == [(0, 16)]  # only the first stage so far
    assert run.chunks.count() == 2
    for index in (0, 1):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    second = run.stages.get(index=1)
    assert run.stage == 1 and second.games == 8 and len(second.plan["arms"]) == 4
    assert run.stages.get(index=0).result["games"] == 16
    assert list(run.chunks.filter(stage=1).values_list("index", "first_game", "games")) == [(2, 0, 8)]
    run = play_pending(run)
    assert run.status == RunStatus.DONE
    assert run.result == {"winner": run.stages.last().plan["arms"][0], "stages": 4, "games": 30}
    assert run.games_done == 30 and run.progress_percent == 100  # under the budget of 100: complete all the same


def test_progress_counts_games_across_stages(user):
    run = services.run_submit(owner=user, kind="test_race", params=PARAMS, games=100, seed=4)
    for index in (0, 1, 2):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert run.games_done == 24 and run.progress_percent == 24


def test_stages_are_the_same_whatever_the_chunking(user):
    plans = []
    for size in (3, 10, 40):
        with override_settings(PLAYTEST_MAX_ACTIVE_RUNS=10):
            run = services.run_submit(owner=user, kind="test_race", params=PARAMS, games=100, seed=11)
        Run.objects.filter(pk=run.pk).update(chunk_size=size)
        run.chunks.all().delete()
        run.refresh_from_db()
        services._create_chunks(run, 16, stage=0, first_index=0)
        run = play_pending(run)
        plans.append([stage.plan for stage in run.stages.order_by("index")])
        assert run.result["games"] == 30
    assert plans[0] == plans[1] == plans[2]


def test_a_redelivered_chunk_of_a_later_stage_counts_once(user):
    run = services.run_submit(owner=user, kind="test_race", params=PARAMS, games=100, seed=4)
    for index in (0, 1, 2, 2, 0):  # chunk 2 (stage 1) and chunk 0 (stage 0) delivered twice
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert run.games_done == 24
    assert run.stages.count() == 3  # stage 1 finished once, so exactly one stage 2
    run = play_pending(run)
    assert run.games_done == 30 and run.result["games"] == 30


def test_a_run_cancelled_within_a_stage_plays_no_more_and_plans_nothing(user):
    run = services.run_submit(owner=user, kind="test_race", params=PARAMS, games=100, seed=4)
    services.chunk_execute(run_id=run.pk, index=0)
    services.run_cancel(run=run)
    services.chunk_execute(run_id=run.pk, index=1)
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED and run.games_done == 10 and run.stages.count() == 1


def test_a_run_cancelled_between_stages_resumes_with_its_next_stage_when_requeued(
        user, django_capture_on_commit_callbacks, monkeypatch):
    run = services.run_submit(owner=user, kind="test_race", params=PARAMS, games=100, seed=4)
    for index in (0, 1):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    # Stage 1 planned; cancel it before any of its chunks is played, then finish its one chunk as a late worker
    # would: nothing is played, nothing planned.
    services.run_cancel(run=run)
    services.chunk_execute(run_id=run.pk, index=2)
    assert RunStage.objects.filter(run=run).count() == 2
    monkeypatch.setattr(services, "run_dispatch", lambda run_id: True)
    run.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.run_requeue(run=run)
    run = play_pending(run)
    assert run.status == RunStatus.DONE and run.games_done == 30


def test_the_reaper_advances_a_run_whose_worker_stopped_between_the_last_chunk_and_the_next_stage(user, settings):
    run = services.run_submit(owner=user, kind="test_race", params=PARAMS, games=100, seed=4)
    for index in (0, 1):
        services.chunk_execute(run_id=run.pk, index=index)
    # As if the worker died after storing stage 1's last chunk and before planning stage 2.
    services.chunk_execute(run_id=run.pk, index=2)
    run.refresh_from_db()
    RunStage.objects.filter(run=run, index=2).delete()
    RunChunk.objects.filter(run=run, stage=2).delete()
    RunStage.objects.filter(run=run, index=1).update(finished_at=None, result=None)
    Run.objects.filter(pk=run.pk).update(stage=1, heartbeat_at=timezone.now() - timezone.timedelta(minutes=5))
    services.runs_reap()
    run.refresh_from_db()
    assert run.stage == 2 and run.stages.get(index=2).games == 4


def test_a_stage_beyond_the_budget_fails_the_run_with_the_reason(user):
    run = services.run_submit(owner=user, kind="test_race", params={**PARAMS, "over_budget": 40}, games=60, seed=4)
    run = play_pending(run)
    assert run.status == RunStatus.FAILED
    assert "the stage plans 168 games with 44 left of the budget" in run.error
    assert run.games_done == 16


def test_a_budget_smaller_than_the_first_stage_is_refused_naming_the_games(user):
    with pytest.raises(DomainError) as refused:
        services.run_submit(owner=user, kind="test_race", params=PARAMS, games=1)
    assert refused.value.status_code == 400 and refused.value.details["field"] == "games"
    assert "plays 16 games" in refused.value.message and not Run.objects.exists()


def test_a_prepared_kind_opens_with_a_stage_of_no_games_whose_worker_completes_the_parameters(user):
    run = services.run_submit(owner=user, kind="test_prepared_race", params={"prepared_arms": 8, "per_arm": 2},
                              games=100, seed=4)
    assert list(run.stages.values_list("index", "games", "plan")) == [(0, 0, {"games": 0, "prepare": True})]
    assert list(run.chunks.values_list("index", "games")) == [(0, 0)]
    services.chunk_execute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert run.params["arms"] == 8 and run.stage == 1 and run.games_done == 0
    assert run.stages.get(index=1).plan["arms"] == list(range(8))  # planned from the completed parameters
    run = play_pending(run)
    # The race as test_race runs it: 16 + 8 + 4 + 2 games in 4 stages; the preparation is none of them.
    assert run.status == RunStatus.DONE and run.result["stages"] == 4 and run.games_done == run.result["games"] == 30


def test_a_preparation_that_refuses_fails_the_run_with_its_words(user):
    run = services.run_submit(owner=user, kind="test_prepared_race", params={"prepared_arms": 0}, games=100, seed=4)
    services.chunk_execute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and run.error == "prepared_arms: nothing to race"
    assert run.stages.count() == 1 and run.games_done == 0
