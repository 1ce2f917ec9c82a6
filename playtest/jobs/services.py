"""Submitting, executing, cancelling and reaping runs.

Guarantees: a chunk's result counts once (a conditional update on its pending row); a chunk
whose worker dies is redelivered (acks late, reject on worker lost) and retried up to
PLAYTEST_MAX_CHUNK_ATTEMPTS times before the run fails with the reason; a run whose
dispatch failed (broker down) stays in the outbox and is dispatched by the reaper; a run with
no progress for PLAYTEST_STALE_SECONDS is failed by the reaper, so none stays running forever.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cards.selectors import catalog_version
from core.errors import DomainError

from ..models import Run, RunChunk, RunStage, RunStatus
from ..models.runs import FINISHED_STATUSES, ChunkStatus
from . import leases
from .broker import RUN_CHUNK_TASK, ensure_broker_folders
from .registry import get_kind

log = logging.getLogger(__name__)


class RunLimitError(DomainError):
    status_code = 429
    default_code = "too_many_runs"


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
        raise DomainError("params: must be an object.", code="invalid_params", details={"field": "params"})
    form = serializer_class(data=params)
    if form.is_valid():
        return {key: value for key, value in form.validated_data.items()}
    problems = _error_paths(form.errors)
    field, message = problems[0]
    raise DomainError(f"{field}: {message}", code="invalid_params",
                      details={"field": field, "fields": dict(problems)})


def _check_games(games: int) -> None:
    maximum = settings.PLAYTEST_MAX_GAMES
    if not 1 <= games <= maximum:
        raise DomainError(f"games must be between 1 and {maximum}.", code="games_out_of_range",
                          details={"field": "games", "maximum": maximum})


def run_submit(*, owner, kind: str, params: dict, games: int | None = None, seed: int | None = None,
               title: str = "") -> Run:
    """Queue a run. `games` may be left out only for a kind whose parameters fix it (JobKind.games_of)."""
    job_kind = get_kind(kind)
    if games is not None:
        _check_games(games)
    elif job_kind.games_of is None:
        raise DomainError("games: required for this kind of run.", code="invalid_params", details={"field": "games"})
    active = Run.objects.filter(owner=owner, status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).count()
    if active >= settings.PLAYTEST_MAX_ACTIVE_RUNS:
        raise RunLimitError(
            f"You already have {active} runs queued or running; the limit is {settings.PLAYTEST_MAX_ACTIVE_RUNS}."
            " Wait for one to finish or cancel one.",
            details={"limit": settings.PLAYTEST_MAX_ACTIVE_RUNS},
        )
    if job_kind.params_serializer is not None:
        params = typed_params(job_kind.params_serializer, params)
    if job_kind.validate_params:
        params = job_kind.validate_params(params, owner)
    if job_kind.games_of is not None:
        fixed = job_kind.games_of(params)
        if games is not None and games != fixed:
            raise DomainError(f"games: these parameters play {fixed} games, not {games}; leave games out or give "
                              f"{fixed}.", code="invalid_params", details={"field": "games", "games": fixed})
        games = fixed
        _check_games(games)
    if not title and job_kind.default_title is not None:
        title = job_kind.default_title(params)
    if seed is None:
        seed = random.SystemRandom().randrange(2**62)
    size = job_kind.chunk_size
    plan = _first_plan(job_kind, params, games) if job_kind.staged else None
    with transaction.atomic():
        run = Run.objects.create(
            owner=owner, kind=kind, title=title, params=params, games=games, chunk_size=size, seed=seed,
            engine_version=job_kind.engine_version, catalog_version=catalog_version(),
        )
        if plan is None:
            _create_chunks(run, games, stage=0, first_index=0)
        else:
            _create_stage(run, plan, index=0, first_index=0)
        transaction.on_commit(lambda: run_dispatch(run_id=run.pk))
    return run


def _create_chunks(run: Run, games: int, *, stage: int, first_index: int) -> None:
    size = run.chunk_size
    RunChunk.objects.bulk_create(
        RunChunk(run=run, index=first_index + i, stage=stage, first_game=first, games=min(size, games - first))
        for i, first in enumerate(range(0, games, size))
    )


def _create_stage(run: Run, plan: dict, *, index: int, first_index: int) -> None:
    """Store the stage's plan, then its chunks (numbered on from the stages before)."""
    RunStage.objects.create(run=run, index=index, plan=plan, games=plan["games"])
    _create_chunks(run, plan["games"], stage=index, first_index=first_index)


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
        raise DomainError("params: these parameters leave nothing to play.", code="invalid_params",
                          details={"field": "params"})
    if isinstance(plan.get("games"), int) and plan["games"] > games:
        raise DomainError(f"games: the first stage of these parameters plays {plan['games']} games; give at least "
                          "that many.", code="games_out_of_range", details={"field": "games", "minimum": plan["games"]})
    return _checked_plan(plan, games)


def stage_params(params: dict, plan: dict | None) -> dict:
    """What a staged run's chunks (and merge) are given: the run's parameters and their stage's plan."""
    return params if plan is None else {**params, "stage": plan}


def run_dispatch(*, run_id) -> bool:
    """Send the run's pending chunks to the broker. On a broker failure the run stays in the
    outbox (dispatched_at null) and the reaper tries again; nothing is lost."""
    pending = list(RunChunk.objects.filter(run_id=run_id, status=ChunkStatus.PENDING).values_list("index", flat=True))
    if not _send_chunks(run_id, pending):
        return False
    Run.objects.filter(pk=run_id, dispatched_at__isnull=True).update(dispatched_at=timezone.now())
    return True


def _send_chunks(run_id, indexes) -> bool:
    ensure_broker_folders()  # the embedded (filesystem) broker needs its folders
    try:
        for index in indexes:
            current_app.send_task(RUN_CHUNK_TASK, args=[str(run_id), index], queue=settings.PLAYTEST_QUEUE,
                                  retry=False)
    except Exception as exc:  # the broker is down: keep the run in the outbox
        log.warning("Dispatch of run %s failed, kept in the outbox: %s", run_id, exc)
        return False
    return True


def chunks_resend_orphaned() -> int:
    """Send again the pending chunks whose worker process died while playing them (the embedded default's
    broker does not redeliver them: playtest/jobs/leases.py). Returns how many were sent."""
    taken = RunChunk.objects.filter(status=ChunkStatus.PENDING, run__status__in=[RunStatus.QUEUED, RunStatus.RUNNING]
                                    ).exclude(taken_by="").values_list("pk", "run_id", "index", "taken_by")
    sent = 0
    for pk, run_id, index, lease in taken:
        # Releasing the lease first makes the resend happen once, whoever else reaps at the same time.
        if leases.lapsed(lease) and RunChunk.objects.filter(pk=pk, taken_by=lease).update(taken_by=""):
            sent += _send_chunks(run_id, [index])
    return sent


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
        run_fail(run_id=run.pk, reason=(
            f"Chunk {index} failed {chunk.attempts - 1} times"
            + (f": {chunk.last_error}" if chunk.last_error else " (its worker died)")
        ))
        return
    now = timezone.now()
    Run.objects.filter(pk=run.pk, status=RunStatus.QUEUED).update(status=RunStatus.RUNNING, started_at=now)
    kind = get_kind(run.kind)
    plan = RunStage.objects.get(run=run, index=chunk.stage).plan if kind.staged else None
    try:
        result = kind.play_chunk(stage_params(run.params, plan), run.seed, chunk.first_game, chunk.games)
    except Exception as exc:
        RunChunk.objects.filter(pk=chunk.pk).update(last_error=f"{type(exc).__name__}: {exc}"[:1000])
        raise
    with transaction.atomic():
        counted = RunChunk.objects.filter(pk=chunk.pk, status=ChunkStatus.PENDING).update(
            status=ChunkStatus.DONE, result=result, finished_at=timezone.now()
        )
        if counted:
            Run.objects.filter(pk=run.pk).update(games_done=F("games_done") + chunk.games, heartbeat_at=timezone.now())
    if counted and not RunChunk.objects.filter(run=run, status=ChunkStatus.PENDING).exists():
        run_advance(run_id=run.pk)


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
        stage.result = kind.merge(partials, stage_params(run.params, stage.plan))
        stage.save(update_fields=["result"])
        done = [{"plan": plan, "result": result}
                for plan, result in run.stages.order_by("index").values_list("plan", "result")]
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


def run_fail(*, run_id, reason: str) -> None:
    Run.objects.filter(pk=run_id).exclude(status__in=FINISHED_STATUSES).update(
        status=RunStatus.FAILED, error=reason[:2000], finished_at=timezone.now()
    )


def run_cancel(*, run: Run) -> bool:
    return bool(
        Run.objects.filter(pk=run.pk).exclude(status__in=FINISHED_STATUSES).update(
            status=RunStatus.CANCELLED, finished_at=timezone.now()
        )
    )


def run_requeue(*, run: Run) -> Run:
    """Staff action: put a failed or cancelled run back on the queue; done chunks are kept."""
    if run.status not in (RunStatus.FAILED, RunStatus.CANCELLED):
        raise DomainError("Only a failed or cancelled run can be requeued.", code="not_requeueable", status_code=409)
    RunChunk.objects.filter(run=run, status=ChunkStatus.PENDING).update(attempts=0, last_error="")
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
    """Advance runs whose chunks are all done but that never advanced (their worker stopped in between);
    dispatch runs left in the outbox; on the embedded default, send again the chunks of workers that died; fail
    runs that made no progress for too long."""
    now = now or timezone.now()
    settled = Run.objects.filter(status=RunStatus.RUNNING, heartbeat_at__lt=now - timedelta(
        seconds=settings.PLAYTEST_OUTBOX_GRACE_SECONDS)).exclude(chunks__status=ChunkStatus.PENDING)
    for pk in settled.values_list("pk", flat=True):
        run_advance(run_id=pk)
    outbox = Run.objects.filter(status__in=[RunStatus.QUEUED, RunStatus.RUNNING], dispatched_at__isnull=True,
                                created_at__lt=now - timedelta(seconds=settings.PLAYTEST_OUTBOX_GRACE_SECONDS))
    dispatched = sum(run_dispatch(run_id=pk) for pk in outbox.values_list("pk", flat=True))
    resent = chunks_resend_orphaned() if settings.PLAYTEST_RESEND_ORPHANED_CHUNKS else 0
    stale_before = now - timedelta(seconds=settings.PLAYTEST_STALE_SECONDS)
    stale = Run.objects.filter(status__in=[RunStatus.QUEUED, RunStatus.RUNNING], dispatched_at__lt=stale_before).filter(
        heartbeat_at__lt=stale_before
    ) | Run.objects.filter(
        status__in=[RunStatus.QUEUED, RunStatus.RUNNING], dispatched_at__lt=stale_before, heartbeat_at__isnull=True
    )
    failed = 0
    for pk in stale.values_list("pk", flat=True):
        run_fail(run_id=pk, reason=f"No progress for {settings.PLAYTEST_STALE_SECONDS} seconds; the run was stopped.")
        failed += 1
    return {"dispatched": dispatched, "resent": resent, "failed": failed}


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
