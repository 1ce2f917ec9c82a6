"""Runs through the API and the pages: owner only, limits, cancel."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from playtest.jobs import services
from playtest.models import Run, RunStatus
from playtest.web.serializers import RunSerializer

pytestmark = pytest.mark.django_db




def test_submit_answers_202_with_the_queued_run(client, alice):
    client.force_login(alice)
    response = client.post("/api/runs/", {"kind": "test_sum", "games": 30, "seed": 4}, content_type="application/json")
    assert response.status_code == 202, response.json()
    body = response.json()
    assert body["status"] == "queued" and body["games"] == 30
    assert Run.objects.get(pk=body["id"]).owner == alice


def test_submit_over_the_maximum_is_a_422_naming_it(client, alice, settings):
    settings.PLAYTEST_MAX_GAMES = 1000
    client.force_login(alice)
    response = client.post("/api/runs/", {"kind": "test_sum", "games": 1001}, content_type="application/json")
    assert response.status_code == 422
    assert "1000" in response.json()["error"]["message"]
    assert not Run.objects.exists()


@pytest.mark.parametrize("state", ["queued", "running", "done", "failed"])
def test_a_run_is_answered_as_its_declared_fields_write_it(alice, state):
    """RunSerializer writes a run without building its fields; the fields the schema reads must give the same
    answer, in every state a run can be in (times unset or set, a result, an error)."""
    run = services.run_submit(owner=alice, kind="test_sum", params={}, games=25, seed=9, title="Sums")
    now = timezone.now()
    changes = {"running": {"status": RunStatus.RUNNING, "started_at": now, "games_done": 7},
               "done": {"status": RunStatus.DONE, "started_at": now, "finished_at": now + timedelta(seconds=3.25),
                        "games_done": 25, "result": {"values": [1, 2], "mean": 1.5}},
               "failed": {"status": RunStatus.FAILED, "started_at": now, "finished_at": now, "error": "It broke."},
               }.get(state, {})
    Run.objects.filter(pk=run.pk).update(**changes)
    for field, value in changes.items():
        setattr(run, field, value)
    for read in (run, Run.objects.get(pk=run.pk)):  # as the services left it (a submission's answer) and as read
        serializer = RunSerializer(read)
        by_fields = serializers.ModelSerializer.to_representation(serializer, read)
        assert json.loads(JSONRenderer().render(serializer.data)) == json.loads(JSONRenderer().render(by_fields))
        assert list(serializer.data) == list(by_fields)


def test_anonymous_cannot_submit(client):
    response = client.post("/api/runs/", {"kind": "test_sum", "games": 3}, content_type="application/json")
    assert response.status_code in (401, 403)
    assert not Run.objects.exists()


def test_someone_elses_run_is_invisible(client, alice, bob):
    run = services.run_submit(owner=alice, kind="test_sum", params={}, games=5)
    client.force_login(bob)
    assert client.get(f"/api/runs/{run.pk}/").status_code == 404
    assert client.get("/api/runs/").json()["count"] == 0
    assert client.post(f"/api/runs/{run.pk}/cancel/").status_code == 404
    assert client.get(f"/playtest/runs/{run.pk}/").status_code == 404
    assert client.get(f"/playtest/runs/{run.pk}/progress/", HTTP_HX_REQUEST="true").status_code == 404
    assert client.post(f"/playtest/runs/{run.pk}/cancel/").status_code == 404
    run.refresh_from_db()
    assert run.status == RunStatus.QUEUED


def test_owner_cancels_through_the_api(client, alice):
    run = services.run_submit(owner=alice, kind="test_sum", params={}, games=5)
    client.force_login(alice)
    response = client.post(f"/api/runs/{run.pk}/cancel/")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"


def test_run_page_polls_progress_until_finished(client, alice):
    run = services.run_submit(owner=alice, kind="test_sum", params={}, games=25)
    client.force_login(alice)
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    assert f"/playtest/runs/{run.pk}/progress/" in page and 'hx-trigger="every 1s"' in page
    for index in range(3):
        services.chunk_execute(run_id=run.pk, index=index)
    progress = client.get(f"/playtest/runs/{run.pk}/progress/", HTTP_HX_REQUEST="true")
    assert progress["HX-Refresh"] == "true"
    assert "25 of 25 games" in progress.content.decode()
    assert "Report" in client.get(f"/playtest/runs/{run.pk}/").content.decode()


def test_each_poll_shows_the_games_played_so_far(client, alice):
    """The bar of a run under way is rendered once per state it shows, so the next chunk's games must change it."""
    run = services.run_submit(owner=alice, kind="test_sum", params={}, games=25)
    client.force_login(alice)
    path = f"/playtest/runs/{run.pk}/progress/"
    seen = []
    for index in range(2):
        seen.append(client.get(path, HTTP_HX_REQUEST="true").content.decode())
        services.chunk_execute(run_id=run.pk, index=index)
    seen.append(client.get(path, HTTP_HX_REQUEST="true").content.decode())
    run.refresh_from_db()
    assert 0 < run.games_done < 25
    assert "0 of 25 games" in seen[0] and 'value="0"' in seen[0]
    assert f"{run.games_done} of 25 games" in seen[2] and f'value="{run.games_done}"' in seen[2]
    assert 'hx-trigger="every 1s"' in seen[2]


def test_a_staged_runs_progress_says_its_stage_and_another_runs_does_not(client, alice):
    """Whether a run is staged is its kind's: the poll reads no stage of it."""
    staged = services.run_submit(owner=alice, kind="test_race", params={"arms": 4, "per_arm": 2}, games=100, seed=4)
    plain = services.run_submit(owner=alice, kind="test_sum", params={}, games=25)
    client.force_login(alice)
    for run, shown in ((staged, True), (plain, False)):
        for path in (f"/playtest/runs/{run.pk}/progress/", f"/playtest/runs/{run.pk}/"):
            page = client.get(path).content.decode()
            assert ("stage 1 (each stage is planned from the results of the one before)" in page) is shown, path


def test_a_cancelled_run_read_alone_shows_what_its_finished_chunks_played(client, alice):
    run = services.run_submit(owner=alice, kind="test_sum", params={}, games=30, seed=5)
    services.chunk_execute(run_id=run.pk, index=1)
    services.run_cancel(run=run)
    client.force_login(alice)
    alone = client.get(f"/api/runs/{run.pk}/").json()
    assert alone["status"] == "cancelled" and alone["result"]["games"] == 10
    listed = next(r for r in client.get("/api/runs/").json()["results"] if r["id"] == str(run.pk))
    assert listed["result"] is None  # a list reads no chunks
