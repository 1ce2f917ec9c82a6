"""A run's progress moves while a chunk plays, not only when the chunk is done (playtest/jobs/progress.py)."""

import pytest
from django.contrib.auth import get_user_model

from core import interrupt
from playtest.jobs import progress, services
from playtest.jobs.tally import run_tally
from playtest.models import Run, RunStatus
from tests import jobkinds

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return get_user_model().objects.create_user("watcher", password="x" * 12)


@pytest.fixture
def reported_at_each_game(settings, monkeypatch):
    settings.PLAYTEST_STOP_CHECK_SECONDS = 0
    monkeypatch.setattr(progress, "REPORT_SECONDS", 0)
    jobkinds.SHOWN_WHILE_PLAYING.clear()


def test_a_run_of_one_chunk_shows_its_games_as_they_are_played(user, reported_at_each_game):
    run = services.run_submit(owner=user, kind="test_watched", params={}, games=10)
    services.chunk_execute(run_id=run.pk, index=0)
    assert jobkinds.SHOWN_WHILE_PLAYING == list(range(10))  # before game n, n games played
    run.refresh_from_db()
    assert (run.status, run.games_done, run.games_playing, run.games_played) == (RunStatus.DONE, 10, 0, 10)


def test_a_chunk_stopped_by_a_cancel_takes_back_what_it_reported(user, reported_at_each_game):
    run = services.run_submit(owner=user, kind="test_cancelled_midway", params={}, games=10)
    services.chunk_execute(run_id=run.pk, index=0)
    run.refresh_from_db()
    assert (run.status, run.games_done, run.games_playing) == (RunStatus.CANCELLED, 0, 0)


def test_a_dead_workers_games_stay_in_the_progress_and_the_next_attempt_counts_only_those_past_them(
        user, reported_at_each_game):
    """The next attempt plays the chunk again from its first game: its progress went back to 0 (taken back as it
    began), then up again; it now stays at what the dead attempt had reached until the new one passes it, and never
    counts a game twice."""
    run = services.run_submit(owner=user, kind="test_watched", params={}, games=10)
    chunk = run.chunks.get()
    attempt = progress.ChunkProgress(chunk)
    with interrupt.stop_when(lambda: False, every_seconds=0, progress=attempt):
        for _ in range(5):  # four games played, then the worker dies: end() never runs
            interrupt.checkpoint()
    assert Run.objects.get(pk=run.pk).games_played == 4
    services.chunk_execute(run_id=run.pk, index=0)  # the chunk sent again
    shown = jobkinds.SHOWN_WHILE_PLAYING
    assert shown == [4, 4, 4, 4, 4, 5, 6, 7, 8, 9]  # never back, never past the games played
    run.refresh_from_db()
    assert (run.games_done, run.games_playing) == (10, 0)


def test_a_finished_run_shows_the_games_it_has_results_for():
    run = Run(status=RunStatus.CANCELLED, games=100, games_done=30, games_playing=12)
    assert run.games_played == 30 and run.progress_percent == 30
    run.status = RunStatus.RUNNING
    assert run.games_played == 42 and run.progress_percent == 42


def test_the_run_pages_bar_moves_while_its_chunk_plays(client, user, reported_at_each_game):
    run = services.run_submit(owner=user, kind="test_watched", params={}, games=10)
    client.force_login(user)
    path = f"/playtest/runs/{run.pk}/progress/"
    assert "0 of 10 games (0%)" in client.get(path, HTTP_HX_REQUEST="true").content.decode()
    attempt = progress.ChunkProgress(run.chunks.get())
    with interrupt.stop_when(lambda: False, every_seconds=0, progress=attempt):
        for _ in range(5):
            interrupt.checkpoint()
    assert "4 of 10 games (40%)" in client.get(path, HTTP_HX_REQUEST="true").content.decode()
    assert "4 of 10" in client.get("/playtest/").content.decode()  # the run list says the same


def test_the_runs_api_says_the_games_played_while_a_chunk_plays(client, user, reported_at_each_game):
    run = services.run_submit(owner=user, kind="test_watched", params={}, games=10)
    attempt = progress.ChunkProgress(run.chunks.get())
    with interrupt.stop_when(lambda: False, every_seconds=0, progress=attempt):
        for _ in range(4):
            interrupt.checkpoint()
    client.force_login(user)
    answer = client.get(f"/api/runs/{run.pk}/").json()
    assert (answer["games_done"], answer["games_played"], answer["progress_percent"]) == (0, 3, 30)


def test_a_cancelled_run_says_the_games_shown_while_it_played_and_not_kept_are_not_kept():
    run = Run(status=RunStatus.CANCELLED, games=100, games_done=30, games_playing=12)
    assert run_tally(run=run)["note"] == "cancelled; 70 games not played or, in a part the cancel cut short, not kept"
