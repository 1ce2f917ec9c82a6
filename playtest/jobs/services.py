"""Submitting, dispatching, executing, cancelling and reaping runs.

Dispatch: a run's chunks are stored at submission and sent to the broker a window at a time, at most
PLAYTEST_DISPATCH_WINDOW of them in flight (sent and not done), the next one sent as each is done. The queue so
holds a few chunks of each active run, in turns: runs of different users share the workers, a submission sends a
few messages whatever its size, and a stopped run's few are taken off the queue. The window is read from the
database (RunChunk.sent_at) under the run's lock, so concurrent senders never overfill it and none sends for a
finished run.

Guarantees: a chunk's result counts once (a conditional update on its pending row); a chunk whose worker dies is
redelivered (Redis: acks late, reject on worker lost) or sent again by the reaper (the embedded default:
playtest/jobs/leases.py), and retried up to PLAYTEST_MAX_CHUNK_ATTEMPTS times before the run fails with the reason;
a chunk is marked sent in the transaction that sends it, so one the broker did not take (down) waits in the outbox
and the reaper sends it; one sent but taken by no worker for half of PLAYTEST_STALE_SECONDS (its message lost) is
sent again; a run with no progress for PLAYTEST_STALE_SECONDS is failed by the reaper, so none stays running forever.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from cards.selectors import catalog_version_recent
from core import interrupt
from core.errors import DomainError, ErrorCode
from core.intbounds import MAX_SEED, seed_problem

from ..models import Run, RunChunk, RunStage, RunStatus
from ..models.runs import FINISHED_STATUSES, ChunkStatus
from . import leases, shutdown
from .broker import RUN_CHUNK_TASK, ensure_broker_folders, remove_queued_chunks, restore_dead_workers_messages
from .progress import ChunkProgress
from .registry import PREPARE_PLAN, get_kind, is_preparation

log = logging.getLogger(__name__)

ACTIVE_STATUSES = (RunStatus.QUEUED, RunStatus.RUNNING)


# When to look again after a refusal for too many active runs: a run's end can't be foretold, and most small runs
# end within this; the runs page shows their progress meanwhile.
RUN_LIMIT_RETRY_SECONDS = 30


class RunLimitError(DomainError):
    status_code = 429
    default_code = ErrorCode.TOO_MANY_RUNS


def _error_paths(errors, prefix: str = "") -> list[tuple[str, str]]:
    """A serializer's nested errors as (field path, message) pairs: lineup[1], policies[0]."""
    if isinstance(errors, dict):
        pairs = []
        for key, value in errors.items():
            if isinstance(key, int):
                path = f"{prefix}[{key}]"
            elif key == "non_field_errors":
                path = prefix or "params"
            else:
                path = f"{prefix}.{key}" if prefix else str(key)
            pairs += _error_paths(value, path)
        return pairs
    if isinstance(errors, list):
        if all(isinstance(e, str) for e in errors):
            return [(prefix or "params", str(e)) for e in errors]
        pairs = []
        for i, value in enumerate(errors):
            if value:
                pairs += _error_paths(value, f"{prefix}[{i}]")
        return pairs
    return [(prefix or "params", str(errors))]


def typed_params(serializer_class: type, params) -> dict:
    """Check the parameters against the kind's declared types; a DomainError names the first field at fault."""
    if not isinstance(params, dict):
        raise DomainError("params: must be an object.", code=ErrorCode.INVALID_PARAMS, details={"field": "params"})
    form = serializer_class(data=params)
    if form.is_valid():
        return {key: value for key, value in form.validated_data.items()}
    problems = _error_paths(form.errors)
    field, message = problems[0]
    raise DomainError(f"{field}: {message}", code=ErrorCode.INVALID_PARAMS,
                      details={"field": field, "fields": dict(problems)})


def _check_games(games: int) -> None:
    maximum = settings.PLAYTEST_MAX_GAMES
    if not 1 <= games <= maximum:
        raise DomainError(f"games must be between 1 and {maximum}.", code=ErrorCode.GAMES_OUT_OF_RANGE,
                          details={"field": "games", "maximum": maximum})


def check_run_room(*, owner) -> None:
    """RunLimitError (429) when `owner` has PLAYTEST_MAX_ACTIVE_RUNS runs queued or running already."""
    active = Run.objects.filter(owner=owner, status__in=ACTIVE_STATUSES).count()
    if active >= settings.PLAYTEST_MAX_ACTIVE_RUNS:
        raise RunLimitError(
            f"You already have {active} runs queued or running; the limit is {settings.PLAYTEST_MAX_ACTIVE_RUNS}."
            " Wait for one to finish or cancel one.",
            details={"limit": settings.PLAYTEST_MAX_ACTIVE_RUNS, "retry_after_seconds": RUN_LIMIT_RETRY_SECONDS},
        )


def run_room_left(user) -> bool:
    """Whether a submission by `user` would be taken rather than refused for too many active runs: a refused one
    uses up none of the hourly submissions (THROTTLE_RUNS), which a client retrying as Retry-After says had spent
    in a quarter of an hour. Anonymous: True (the forms send them to log in, the API refuses them)."""
    if not user.is_authenticated:
        return True
    try:
        check_run_room(owner=user)
    except RunLimitError:
        return False
    return True


def run_submit(*, owner, kind: str, params: dict, games: int | None = None, seed: int | None = None,
               title: str = "", room_checked: bool = False) -> Run:
    """Queue a run. `games` may be left out only for a kind whose parameters fix it (JobKind.games_of).
    `room_checked`: the caller has just checked that the owner has room for one more active run (check_run_room), as
    the API does before its rate limit, so the count is not read again."""
    job_kind = get_kind(kind)
    if games is not None:
        _check_games(games)
    elif job_kind.games_of is None:
        raise DomainError("games: required for this kind of run.",
                          code=ErrorCode.INVALID_PARAMS, details={"field": "games"})
    if not room_checked:
        check_run_room(owner=owner)
    if job_kind.params_serializer is not None:
        params = typed_params(job_kind.params_serializer, params)
    if job_kind.validate_params:
        params = job_kind.validate_params(params, owner)
    if job_kind.games_of is not None:
        fixed = job_kind.games_of(params)
        if games is not None and games != fixed:
            raise DomainError(f"games: these parameters play {fixed} games, not {games}; leave games out or give "
                              f"{fixed}.", code=ErrorCode.INVALID_PARAMS, details={"field": "games", "games": fixed})
        games = fixed
        _check_games(games)
    if not title and job_kind.default_title is not None:
        title = job_kind.default_title(params)
    if seed is None:
        seed = random.SystemRandom().randrange(MAX_SEED)
    elif seed_problem(seed):
        raise DomainError(seed_problem(seed), code=ErrorCode.INVALID_PARAMS, details={"field": "seed"})
    size = job_kind.chunk_size_of(params, job_kind.chunk_size) if job_kind.chunk_size_of else job_kind.chunk_size
    plan = PREPARE_PLAN if job_kind.prepare else _first_plan(job_kind, params, games) if job_kind.staged else None
    window = settings.PLAYTEST_DISPATCH_WINDOW
    # Within a caller's transaction (a view's), no savepoint of its own: nothing here is retried after a failure.
    with transaction.atomic(savepoint=False):
        run = Run.objects.create(
            owner=owner, kind=kind, title=title, params=params, summary=run_summary(kind, params), games=games,
            chunk_size=size, seed=seed,
            # The catalog the snapshots' cards were read from (remembered two seconds a process, as they are).
            engine_version=job_kind.engine_version, catalog_version=catalog_version_recent(),
            dispatched_at=timezone.now() if window > 0 else None,
        )
        if plan is None:
            count = _create_chunks(run, games, stage=0, first_index=0)
        else:
            count = _create_stage(run, plan, index=0, first_index=0)
        first = list(range(min(window, count)))
        transaction.on_commit(lambda: _send_first_window(run.pk, first))
    return run


def _create_chunks(run: Run, games: int, *, stage: int, first_index: int) -> int:
    """Store the chunks of `games` games; returns how many."""
    size = run.chunk_size
    return len(RunChunk.objects.bulk_create(
        RunChunk(run=run, index=first_index + i, stage=stage, first_game=first, games=min(size, games - first))
        for i, first in enumerate(range(0, games, size))
    ))


def _create_stage(run: Run, plan: dict, *, index: int, first_index: int) -> int:
    """Store the stage's plan, then its chunks (numbered on from the stages before); a preparation has one chunk.
    Returns how many chunks."""
    RunStage.objects.create(run=run, index=index, plan=plan, games=plan["games"])
    if is_preparation(plan):
        RunChunk.objects.create(run=run, index=first_index, stage=index, first_game=0, games=0)
        return 1
    return _create_chunks(run, plan["games"], stage=index, first_index=first_index)


def stages_of_games(stages: list[dict]) -> list[dict]:
    """A staged run's stages as its kind sees them: without the preparation."""
    return [stage for stage in stages if not is_preparation(stage["plan"])]


class StagePlanError(Exception):
    """A staged kind planned a stage the run cannot play (a bug of the kind, not of the submission)."""


def _checked_plan(plan, games_left: int) -> dict:
    if not isinstance(plan, dict) or not isinstance(plan.get("games"), int) or plan["games"] < 1:
        raise StagePlanError(f"a stage plan needs a positive number of games, got {plan!r:.200}")
    if plan["games"] > games_left:
        raise StagePlanError(f"the stage plans {plan['games']} games with {games_left} left of the budget")
    return plan


def _first_plan(job_kind, params: dict, games: int) -> dict:
    plan = job_kind.next_stage(params, [])
    if plan is None:
        raise DomainError("params: these parameters leave nothing to play.", code=ErrorCode.INVALID_PARAMS,
                          details={"field": "params"})
    if isinstance(plan.get("games"), int) and plan["games"] > games:
        raise DomainError(f"games: the first stage of these parameters plays {plan['games']} games; give at least "
                          "that many.",
                          code=ErrorCode.GAMES_OUT_OF_RANGE, details={"field": "games", "minimum": plan["games"]})
    return _checked_plan(plan, games)


def stage_params(params: dict, plan: dict | None) -> dict:
    """What a staged run's chunks (and merge) are given: the run's parameters and their stage's plan."""
    return params if plan is None else {**params, "stage": plan}


def run_dispatch(*, run_id) -> int:
    """Top up the run's window: send its next chunks, in order, until PLAYTEST_DISPATCH_WINDOW are in flight. Called
    once the run is stored, as each chunk is done, when a stage is planned, and by the reaper. Returns how many
    were sent (none on a broker failure: the chunks wait in the outbox, and the reaper sends them)."""

    def next_chunks(run: Run) -> list[int]:
        pending = RunChunk.objects.filter(run=run, status=ChunkStatus.PENDING)
        room = settings.PLAYTEST_DISPATCH_WINDOW - pending.filter(sent_at__isnull=False).count()
        indexes = _claim(pending.filter(sent_at__isnull=True), room) if room > 0 else []
        if indexes and run.dispatched_at is None:
            Run.objects.filter(pk=run.pk).update(dispatched_at=timezone.now())
        return indexes

    return _send(run_id, next_chunks)


class _BrokerDown(Exception):
    """The broker did not take a message."""


def _send_first_window(run_id, indexes: list[int]) -> int:
    """Send a submission's first chunks once it is committed: as run_dispatch does, but without reading the window,
    which these chunks are (nothing else sends a run's chunks before PLAYTEST_OUTBOX_GRACE_SECONDS), and with the
    run's dispatch time stored with the run. If the broker fails, that time is taken back: the run waits in the
    outbox, unsent, for the reaper."""

    def claim(run: Run) -> list[int]:
        RunChunk.objects.filter(run_id=run_id, index__in=indexes, sent_at__isnull=True).update(sent_at=timezone.now())
        return indexes

    def broker_down() -> None:
        Run.objects.filter(pk=run_id).update(dispatched_at=None)

    return _send(run_id, claim, on_broker_down=broker_down) if indexes else 0


def _send(run_id, claim: Callable[[Run], list[int]], *, on_broker_down: Callable[[], None] | None = None) -> int:
    """Send the chunks that `claim` marks as sent, if the run is still active; returns how many. The run's lock
    (on SQLite, the IMMEDIATE transaction) serialises its senders, so each reads the window as the last one left it,
    and a cancel waits for the messages to be on the queue, where it finds them. Chunks are marked before they are
    sent: a worker that takes one at once waits for this commit to store its result rather than lock against it. If
    the broker fails, the marks roll back: the chunks are as they were, for the reaper to send."""
    ensure_broker_folders()  # the embedded (filesystem) broker needs its folders
    try:
        with transaction.atomic():
            # Only what a claim reads: the params (whole deck lists) and the result are for the workers and the report.
            run = (Run.objects.select_for_update().filter(pk=run_id, status__in=ACTIVE_STATUSES)
                   .only("pk", "dispatched_at").first())
            if run is None:
                return 0
            indexes = claim(run)
            for index in indexes:
                _publish(run_id, index)
    except _BrokerDown as exc:
        log.warning("Chunks of run %s were not sent (the reaper sends them later): %s", run_id, exc.__cause__)
        if on_broker_down is not None:
            on_broker_down()
        return 0
    return len(indexes)


def _claim(chunks, limit: int) -> list[int]:
    """Mark the first `limit` of `chunks` sent; returns their indexes. Under the run's lock, chunks that another
    transaction holds are skipped rather than waited for: a worker storing a chunk's result holds the chunk, then
    waits for the run."""
    claimed = list(chunks.select_for_update(skip_locked=True).order_by("index").values_list("pk", "index")[:limit])
    RunChunk.objects.filter(pk__in=[pk for pk, _ in claimed]).update(sent_at=timezone.now(), taken_by="")
    return [index for _, index in claimed]


def _publish(run_id, index: int) -> None:
    try:
        current_app.send_task(RUN_CHUNK_TASK, args=[str(run_id), index], queue=settings.PLAYTEST_QUEUE, retry=False)
    except Exception as exc:  # whatever the transport raises when its broker is unreachable
        raise _BrokerDown from exc


def _send_again(pk, run_id, **unchanged) -> int:
    """Send a pending chunk again if it is still as the reaper saw it (`unchanged`): of two reapers, one sends it."""
    return _send(run_id, lambda run: _claim(RunChunk.objects.filter(pk=pk, status=ChunkStatus.PENDING, **unchanged), 1))


def chunks_resend_orphaned() -> int:
    """Send again the pending chunks whose worker process died while playing them (the embedded default's
    broker does not redeliver them: playtest/jobs/leases.py). Returns how many were sent."""
    taken = RunChunk.objects.filter(status=ChunkStatus.PENDING, run__status__in=ACTIVE_STATUSES
                                    ).exclude(taken_by="").values_list("pk", "run_id", "taken_by")
    return sum(_send_again(pk, run_id, taken_by=lease) for pk, run_id, lease in taken if leases.lapsed(lease))


def chunks_resend_lost(*, now=None) -> int:
    """Send again the chunks sent but taken by no worker for half of PLAYTEST_STALE_SECONDS: their messages were
    lost (a broker restarted without its data, a message set aside as unreadable). Half, so that the run goes on
    before the reaper would fail it as stale; a chunk that was only waiting its turn is delivered twice and counts
    once. Returns how many were sent."""
    sent_before = (now or timezone.now()) - timedelta(seconds=settings.PLAYTEST_STALE_SECONDS / 2)
    lost = RunChunk.objects.filter(status=ChunkStatus.PENDING, run__status__in=ACTIVE_STATUSES, taken_by="",
                                   sent_at__lt=sent_before).values_list("pk", "run_id", "sent_at")
    return sum(_send_again(pk, run_id, taken_by="", sent_at=sent_at) for pk, run_id, sent_at in lost)


def chunk_execute(*, run_id, index: int) -> None:
    """Play one chunk. Safe to call any number of times for the same chunk."""
    run = Run.objects.filter(pk=run_id).first()
    if run is None or run.status in FINISHED_STATUSES:
        return
    chunk = RunChunk.objects.get(run=run, index=index)
    if chunk.status == ChunkStatus.DONE:
        return
    RunChunk.objects.filter(pk=chunk.pk).update(attempts=F("attempts") + 1, taken_by=leases.current())
    chunk.refresh_from_db(fields=["attempts"])
    if chunk.attempts > settings.PLAYTEST_MAX_CHUNK_ATTEMPTS:
        ChunkProgress(chunk).end()  # what its attempts played is no progress of a run that fails
        run_fail(run_id=run.pk, reason=(
            f"Chunk {index} failed {chunk.attempts - 1} times"
            + (f": {chunk.last_error}" if chunk.last_error else " (its worker died)")
        ))
        return
    now = timezone.now()
    Run.objects.filter(pk=run.pk, status=RunStatus.QUEUED).update(status=RunStatus.RUNNING, started_at=now)
    kind = get_kind(run.kind)
    plan = RunStage.objects.get(run=run, index=chunk.stage).plan if kind.staged else None
    prepared = None  # a preparation's completed parameters, stored with its chunk's end (once, however often it runs)
    progress = ChunkProgress(chunk)
    try:
        if is_preparation(plan):
            prepared = _prepared_params(run, kind)
            if prepared is None:
                return
            result: dict = {}
        else:
            # A run cancelled (or failed) while its chunk plays stops it at its next game, not at its end; so does a
            # worker asked to stop (playtest/jobs/shutdown.py).
            with interrupt.stop_when(lambda: shutdown.asked() or _run_stopped(run.pk), progress=progress,
                                     every_seconds=settings.PLAYTEST_STOP_CHECK_SECONDS):
                result = kind.play_chunk(stage_params(run.params, plan), run.seed, chunk.first_game, chunk.games)
    except interrupt.Interrupted:
        if shutdown.asked() and not _run_stopped(run.pk):
            _hand_back(chunk, run.pk)  # its games stay in the progress, the mark the next attempt passes
        else:
            progress.end()
        return
    except Exception as exc:  # tried again: its games stay in the progress, as a dead worker's do
        RunChunk.objects.filter(pk=chunk.pk).update(last_error=f"{type(exc).__name__}: {exc}"[:1000])
        raise
    with transaction.atomic():
        # Under the run's lock (taken first, as its senders take it), so that a cancel that came after the chunk's
        # last check for one, while its result was on its way here, keeps it out: a stopped run's games never grow.
        running = Run.objects.select_for_update().filter(pk=run.pk).exclude(status__in=FINISHED_STATUSES).exists()
        progress.end()  # with the result that counts its games, so the progress never dips between the two
        counted = running and RunChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.PENDING).update(
            status=ChunkStatus.DONE, result=result, finished_at=timezone.now()
        )
        if counted:
            Run.objects.filter(pk=run.pk).update(games_done=F("games_done") + chunk.games, heartbeat_at=timezone.now(),
                                                 **({"params": prepared, "summary": run_summary(run.kind, prepared)}
                                                    if prepared is not None else {}))
    if not counted:
        return
    if RunChunk.objects.filter(run=run, status=ChunkStatus.PENDING).exists():
        # The chunk has left the run's window: the next one takes its place, at the queue's tail, behind the chunks
        # of the other runs. Sent once the result is committed.
        transaction.on_commit(lambda: run_dispatch(run_id=run.pk))
    else:
        run_advance(run_id=run.pk)


def _hand_back(chunk: RunChunk, run_id) -> None:
    """A chunk its worker stopped playing because it was asked to stop: its attempt given back, and sent again."""
    RunChunk.objects.filter(pk=chunk.pk).update(attempts=F("attempts") - 1)
    _send_again(chunk.pk, run_id, taken_by=leases.current())


def _run_stopped(run_id) -> bool:
    return Run.objects.filter(pk=run_id, status__in=FINISHED_STATUSES).exists()


def _prepared_params(run: Run, kind) -> dict | None:
    """The preparation stage's work: the parameters the kind completes; None when it refuses (the run failed)."""
    try:
        return kind.prepare(run.params)
    except DomainError as refusal:
        run_fail(run_id=run.pk, reason=refusal.message)
        return None


def run_advance(*, run_id) -> None:
    """Every chunk sent is done: finish the run, or, for a staged kind, the stage, planning the next one."""
    run = Run.objects.filter(pk=run_id).only("kind").first()
    if run is None:
        return
    if not get_kind(run.kind).staged:
        run_finalize(run_id=run_id)
        return
    try:
        _advance_stage(run_id)
    except StagePlanError as exc:
        run_fail(run_id=run_id, reason=f"The run could not plan its next stage: {exc}")


def _advance_stage(run_id) -> None:
    with transaction.atomic():
        run = Run.objects.select_for_update().get(pk=run_id)
        if run.status != RunStatus.RUNNING or run.chunks.filter(status=ChunkStatus.PENDING).exists():
            return
        # Claiming the stage's result is the one write that lets a single caller advance (two workers may both
        # see the last chunk done; on SQLite, select_for_update is a no-op but IMMEDIATE transactions serialise).
        now = timezone.now()
        if not RunStage.objects.filter(run=run, index=run.stage, finished_at__isnull=True).update(finished_at=now):
            return
        kind = get_kind(run.kind)
        stage = RunStage.objects.get(run=run, index=run.stage)
        partials = list(run.chunks.filter(stage=stage.index).order_by("index").values_list("result", flat=True))
        stage.result = {} if is_preparation(stage.plan) else kind.merge(partials, stage_params(run.params, stage.plan))
        stage.save(update_fields=["result"])
        done = stages_of_games([{"plan": plan, "result": result}
                                for plan, result in run.stages.order_by("index").values_list("plan", "result")])
        plan = kind.next_stage(run.params, done)
        if plan is None:
            run.result = kind.conclude(run.params, done)
            run.status, run.finished_at = RunStatus.DONE, now
            run.save(update_fields=["result", "status", "finished_at"])
            return
        planned = sum(s["plan"]["games"] for s in done)
        _checked_plan(plan, run.games - planned)
        first_index = run.chunks.count()
        run.stage += 1
        run.dispatched_at = None  # back in the outbox until the new stage's chunks are sent
        run.save(update_fields=["stage", "dispatched_at"])
        _create_stage(run, plan, index=run.stage, first_index=first_index)
        transaction.on_commit(lambda: run_dispatch(run_id=run_id))


def run_finalize(*, run_id) -> None:
    with transaction.atomic():
        run = Run.objects.select_for_update().get(pk=run_id)
        if run.status != RunStatus.RUNNING:
            return
        partials = list(run.chunks.order_by("index").values_list("result", flat=True))
        run.result = get_kind(run.kind).merge(partials, run.params)
        run.status = RunStatus.DONE
        run.finished_at = timezone.now()
        run.save(update_fields=["result", "status", "finished_at"])


def run_partial_result(*, run: Run) -> dict | None:
    """What a cancelled or failed run played before it stopped: its finished chunks merged, as its result would have
    merged them. None for a staged kind (each stage plans on the whole of the ones before), or when no finished chunk
    is kept. A chunk counts whole or not at all: the games of one stopped part-way are not in it."""
    if not _stopped_part_way(run):
        return None
    kind = get_kind(run.kind)
    partials = list(run.chunks.filter(status=ChunkStatus.DONE, result__isnull=False).order_by("index")
                    .values_list("result", flat=True))
    return kind.merge(partials, run.params) if partials else None


def _stopped_part_way(run: Run) -> bool:
    """Cancelled or failed, of a kind whose finished chunks stand on their own (not staged, nothing prepared)."""
    kind = get_kind(run.kind)
    return run.status in (RunStatus.CANCELLED, RunStatus.FAILED) and not kind.staged and not kind.prepare


def run_sample(*, run: Run, game: int) -> dict | None:
    """A sample game the run kept (its record and frames): from its result, or, for a run stopped part-way (as
    run_partial_result), from the finished chunk that played it: one chunk read, where the partial result merges
    them all, and a replay asks again at each step. None when no such game was kept."""
    if run.status == RunStatus.DONE:
        samples = (run.result or {}).get("samples", [])
    elif _stopped_part_way(run):
        chunk = run.chunks.filter(status=ChunkStatus.DONE, result__isnull=False, first_game__lte=game).order_by(
            "-first_game").values_list("result", flat=True).first()
        samples = (chunk or {}).get("samples", [])
    else:
        samples = []
    return next((sample for sample in samples if sample.get("game") == game), None)


def run_fail(*, run_id, reason: str) -> None:
    if Run.objects.filter(pk=run_id).exclude(status__in=FINISHED_STATUSES).update(
        status=RunStatus.FAILED, error=reason[:2000], finished_at=timezone.now()
    ):
        _stopped(run_id)


def run_cancel(*, run: Run) -> bool:
    """Cancel the run unless it has finished; True if it was cancelled, `run` then showing it so."""
    now = timezone.now()
    cancelled = bool(
        Run.objects.filter(pk=run.pk).exclude(status__in=FINISHED_STATUSES).update(
            status=RunStatus.CANCELLED, finished_at=now
        )
    )
    if cancelled:
        run.status, run.finished_at = RunStatus.CANCELLED, now
        _stopped(run.pk)
    return cancelled


def _stopped(run_id) -> None:
    """No chunk of a stopped run is sent any more (senders check it under the run's lock); its chunks still on the
    queue are taken off, so that no worker spends a delivery on them."""
    transaction.on_commit(lambda: remove_queued_chunks(run_id))


def run_requeue(*, run: Run) -> Run:
    """Staff action: put a failed or cancelled run back on the queue; done chunks are kept."""
    if run.status not in (RunStatus.FAILED, RunStatus.CANCELLED):
        raise DomainError("Only a failed or cancelled run can be requeued.",
                          code=ErrorCode.NOT_REQUEUEABLE, status_code=409)
    # Its chunks in flight were taken off the queue or played as nothing: all that are pending are sent again.
    RunChunk.objects.filter(run=run, status=ChunkStatus.PENDING).update(attempts=0, last_error="", sent_at=None,
                                                                        taken_by="")
    # A staged run stopped between two stages has nothing pending: it is running, and plans its next stage.
    pending = RunChunk.objects.filter(run=run, status=ChunkStatus.PENDING).exists()
    status = RunStatus.QUEUED if pending else RunStatus.RUNNING
    Run.objects.filter(pk=run.pk).update(status=status, error="", finished_at=None, dispatched_at=None)
    transaction.on_commit(lambda: _resume(run.pk))
    run.refresh_from_db()
    return run


def _resume(run_id) -> None:
    """Send what is pending; a run stopped between two stages (nothing pending) plans its next one."""
    if RunChunk.objects.filter(run_id=run_id, status=ChunkStatus.PENDING).exists():
        run_dispatch(run_id=run_id)
    else:
        run_advance(run_id=run_id)


def runs_reap(*, now=None) -> dict[str, int]:
    """Advance runs whose chunks are all done but that never advanced (their worker stopped in between); top up the
    windows of runs with chunks waiting (the outbox: a broker that was down, a worker that stopped before sending
    the next); send again the chunks whose messages were lost and, on the embedded default, those of workers that
    died; fail runs that made no progress for too long."""
    now = now or timezone.now()
    grace_before = now - timedelta(seconds=settings.PLAYTEST_OUTBOX_GRACE_SECONDS)
    settled = Run.objects.filter(status=RunStatus.RUNNING, heartbeat_at__lt=grace_before).exclude(
        chunks__status=ChunkStatus.PENDING)
    for pk in settled.values_list("pk", flat=True):
        run_advance(run_id=pk)
    # A run younger than the grace is left to its submission, which is sending it.
    waiting = Run.objects.filter(status__in=ACTIVE_STATUSES, created_at__lt=grace_before).filter(Exists(
        RunChunk.objects.filter(run=OuterRef("pk"), status=ChunkStatus.PENDING, sent_at__isnull=True)))
    sent = sum(run_dispatch(run_id=pk) for pk in waiting.values_list("pk", flat=True))
    resent = chunks_resend_lost(now=now)
    if settings.PLAYTEST_RESEND_ORPHANED_CHUNKS:
        # The messages a dead worker had taken, started or not, go back to the broker's queue; a chunk it was
        # playing is sent again as well (whichever copy is played first counts).
        restore_dead_workers_messages()
        resent += chunks_resend_orphaned()
    stale_before = now - timedelta(seconds=settings.PLAYTEST_STALE_SECONDS)
    stale = Run.objects.filter(status__in=ACTIVE_STATUSES, dispatched_at__lt=stale_before).filter(
        heartbeat_at__lt=stale_before
    ) | Run.objects.filter(
        status__in=ACTIVE_STATUSES, dispatched_at__lt=stale_before, heartbeat_at__isnull=True
    )
    failed = 0
    for pk in stale.values_list("pk", flat=True):
        run_fail(run_id=pk, reason=f"No progress for {settings.PLAYTEST_STALE_SECONDS} seconds; the run was stopped.")
        failed += 1
    return {"sent": sent, "resent": resent, "failed": failed, "summarised": runs_summarise()}


def run_summary(kind: str, params: dict) -> dict:
    """What pages and the API show of a run's parameters (Run.summary): its kind's summary, or, for a kind no longer
    installed or parameters of an older shape, the parameters whole (as the API showed them before summaries)."""
    try:
        return get_kind(kind).public_params(params)
    except (LookupError, KeyError, TypeError, AttributeError):
        return params


SUMMARISED_PER_REAP = 200  # runs summarised by one pass of the reaper: 50 KB of parameters read for each


def runs_summarise(limit: int = SUMMARISED_PER_REAP) -> int:
    """Store the summary of runs stored without one (by the code before summaries, while a new release starts), so
    that lists read no deck lists for them either. Returns how many."""
    missing = list(Run.objects.filter(summary__isnull=True).only("pk", "kind", "params")[:limit])
    for run in missing:
        Run.objects.filter(pk=run.pk, summary__isnull=True).update(summary=run_summary(run.kind, run.params))
    return len(missing)


def runs_prune_details(*, now=None) -> int:
    """Drop per-chunk details of old runs; the run's merged result (its aggregates) stays."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.PLAYTEST_DETAILS_RETENTION_DAYS)
    old = Run.objects.filter(status__in=FINISHED_STATUSES, finished_at__lt=cutoff, details_pruned_at__isnull=True)
    ids = list(old.values_list("pk", flat=True))
    RunChunk.objects.filter(run_id__in=ids).update(result=None)
    for run in Run.objects.filter(pk__in=ids).only("pk", "result"):
        if isinstance(run.result, dict) and "samples" in run.result:  # by convention, the per-game records
            run.result = {**run.result, "samples": []}
            run.save(update_fields=["result"])
    Run.objects.filter(pk__in=ids).update(details_pruned_at=now)
    return len(ids)
