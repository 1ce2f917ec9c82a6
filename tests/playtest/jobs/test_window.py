"""A run's chunks go to the broker a window at a time (PLAYTEST_DISPATCH_WINDOW), driven through the services on the
configuration's own broker (the worker tests drive it through Celery)."""

import pytest
from celery import current_app
from django.contrib.auth import get_user_model
from django.utils import timezone

from playtest.jobs import services
from playtest.models import Run, RunChunk, RunStatus

pytestmark = pytest.mark.django_db

WINDOW = 3


@pytest.fixture
def user():
    return get_user_model().objects.create_user("runner", password="x" * 12)


@pytest.fixture
def queue(settings):
    """A queue of the test's own, empty before and after it, and a window of 3 chunks."""
    from playtest.jobs.broker import ensure_broker_folders

    ensure_broker_folders()
    settings.PLAYTEST_QUEUE = "window-test"
    settings.PLAYTEST_DISPATCH_WINDOW = WINDOW
    purge(settings.PLAYTEST_QUEUE)
    yield settings.PLAYTEST_QUEUE
    purge(settings.PLAYTEST_QUEUE)


def purge(name: str) -> None:
    with current_app.connection_for_write() as connection:
        connection.default_channel._purge(name)


def queued(name: str) -> int:
    with current_app.connection_for_write() as connection:
        return connection.default_channel._size(name)


def sent(run) -> list[int]:
    return list(run.chunks.filter(sent_at__isnull=False).order_by("index").values_list("index", flat=True))


@pytest.fixture
def submit(user, django_capture_on_commit_callbacks):
    """Submit as a request does: the run is stored, then its first chunks are sent once that is committed."""
    def submit_run(games: int, seed: int = 7, owner=None):
        with django_capture_on_commit_callbacks(execute=True):
            return services.run_submit(owner=owner or user, kind="test_sum", params={}, games=games, seed=seed)

    return submit_run


def broker_down(*args, **kwargs):
    raise ConnectionError("the broker is down")


def aged(run):
    """The run as the reaper sees it once the outbox grace has passed (PLAYTEST_OUTBOX_GRACE_SECONDS)."""
    Run.objects.filter(pk=run.pk).update(created_at=timezone.now() - timezone.timedelta(minutes=1))
    return run


def play(run, index: int, django_capture_on_commit_callbacks) -> None:
    """Play a chunk as a worker does, the next chunk being sent once its result is committed."""
    with django_capture_on_commit_callbacks(execute=True):
        services.chunk_execute(run_id=run.pk, index=index)


def test_submission_sends_the_first_window_only_and_each_finished_chunk_sends_the_next(
        queue, submit, django_capture_on_commit_callbacks):
    run = submit(1000)  # 100 chunks of 10 games
    assert run.chunks.count() == 100
    assert queued(queue) == WINDOW and sent(run) == [0, 1, 2]
    run.refresh_from_db()
    assert run.dispatched_at is not None
    play(run, 1, django_capture_on_commit_callbacks)
    assert sent(run) == [0, 1, 2, 3]  # chunk 1 is done: chunks 0, 2 and 3 are in flight
    play(run, 1, django_capture_on_commit_callbacks)  # delivered twice: counted once, nothing more sent
    assert sent(run) == [0, 1, 2, 3]
    assert services.run_dispatch(run_id=run.pk) == 0  # the window is full, whoever tops it up


def test_the_window_is_read_from_the_database_whatever_sends_it(queue, submit):
    run = submit(1000)
    # A worker stopped between storing a chunk's result and sending the next: the reaper tops the window up.
    RunChunk.objects.filter(run=aged(run), index=0).update(status="done")
    assert services.runs_reap()["sent"] == 1
    assert sent(run) == [0, 1, 2, 3] and queued(queue) == WINDOW + 1
    assert services.runs_reap()["sent"] == 0


def test_a_run_submitted_while_the_broker_is_down_is_sent_by_the_reaper_once_it_is_back(
        queue, submit, monkeypatch):
    with monkeypatch.context() as patched:
        patched.setattr(current_app, "send_task", broker_down)
        run = submit(1000)
    run.refresh_from_db()
    assert run.dispatched_at is None and sent(run) == [] and queued(queue) == 0  # in the outbox
    assert services.runs_reap()["sent"] == 0  # within the grace, its submission may still be sending it
    aged(run)
    assert services.runs_reap()["sent"] == WINDOW
    assert sent(run) == [0, 1, 2] and queued(queue) == WINDOW


def test_a_submission_whose_process_stopped_before_sending_is_sent_by_the_reaper(queue, submit, monkeypatch):
    """The process stopped between the run's commit and its first message: nothing is marked sent that was not,
    so the outbox sends the window once the grace has passed (not as lost messages, half the stale time later)."""
    with monkeypatch.context() as patched:
        patched.setattr(services, "_send", lambda *args, **kwargs: 0)  # the commit hook never ran its send
        run = submit(1000)
    assert sent(run) == [] and queued(queue) == 0
    assert services.runs_reap()["sent"] == 0  # within the grace
    aged(run)
    assert services.runs_reap()["sent"] == WINDOW
    assert sent(run) == [0, 1, 2] and queued(queue) == WINDOW


def test_a_next_chunk_that_found_the_broker_down_is_sent_by_the_reaper(
        queue, submit, monkeypatch, django_capture_on_commit_callbacks):
    run = submit(1000)
    with monkeypatch.context() as patched:
        patched.setattr(current_app, "send_task", broker_down)
        play(run, 0, django_capture_on_commit_callbacks)
    assert sent(run) == [0, 1, 2]  # nothing is marked sent that was not
    aged(run)
    assert services.runs_reap()["sent"] == 1
    assert sent(run) == [0, 1, 2, 3]


def test_cancelling_a_run_takes_its_chunks_off_the_queue_and_sends_no_more(
        queue, submit, django_capture_on_commit_callbacks):
    other = get_user_model().objects.create_user("other", password="x" * 12)
    run, others = submit(1000, seed=1), submit(1000, seed=2, owner=other)
    assert queued(queue) == 2 * WINDOW
    with django_capture_on_commit_callbacks(execute=True):
        assert services.run_cancel(run=run)
    assert queued(queue) == WINDOW  # the other run's window only
    play(run, 0, django_capture_on_commit_callbacks)  # a chunk a worker had already taken: nothing played or sent
    assert sent(run) == [0, 1, 2] and queued(queue) == WINDOW
    assert services.run_dispatch(run_id=run.pk) == 0
    run.refresh_from_db()
    assert run.status == RunStatus.CANCELLED and run.games_done == 0
    assert sent(others) == [0, 1, 2]


def test_a_failed_run_leaves_nothing_on_the_queue(queue, submit, django_capture_on_commit_callbacks):
    run = submit(1000)
    with django_capture_on_commit_callbacks(execute=True):
        services.run_fail(run_id=run.pk, reason="test")
    assert queued(queue) == 0


def test_a_requeued_run_sends_its_window_again(queue, submit, django_capture_on_commit_callbacks):
    run = submit(1000)
    play(run, 0, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.run_cancel(run=run)
    assert queued(queue) == 0
    run.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.run_requeue(run=run)
    assert sent(run) == [0, 1, 2, 3] and queued(queue) == WINDOW  # chunk 0 done, 1 to 3 sent again


def test_a_chunk_sent_but_never_taken_for_half_the_stale_time_is_sent_again(queue, submit, settings):
    from playtest.jobs import leases

    settings.PLAYTEST_STALE_SECONDS = 600
    run = submit(1000)
    purge(queue)  # their messages are lost (a broker restarted without its data)
    long_ago = timezone.now() - timezone.timedelta(seconds=301)
    RunChunk.objects.filter(run=run, index__in=[0, 1, 2]).update(sent_at=long_ago)
    RunChunk.objects.filter(run=run, index=2).update(taken_by=leases.current(), attempts=1)  # being played
    assert services.runs_reap()["resent"] == 2
    assert queued(queue) == 2
    assert RunChunk.objects.get(run=run, index=0).sent_at > long_ago
    assert services.runs_reap()["resent"] == 0  # sent once, until it is lost again
