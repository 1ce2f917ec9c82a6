"""Celery tasks: thin wrappers that pass ids and call the services."""

from celery import shared_task
from django.conf import settings

from playtest.goldfish import services as tables
from playtest.goldfish.services import TABLE_THINK_TASK
from playtest.jobs import services
from playtest.jobs.broker import RUN_CHUNK_TASK
from playtest.simulation import run_speed
from playtest.simulation.run_speed import CALIBRATE_TASK


@shared_task(name=RUN_CHUNK_TASK, bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def run_chunk(self, run_id: str, index: int) -> None:
    try:
        services.chunk_execute(run_id=run_id, index=index)
    except Exception as exc:
        # Retried until chunk_execute sees too many attempts and fails the run with the reason.
        raise self.retry(exc=exc, countdown=settings.PLAYTEST_RETRY_DELAY_SECONDS) from exc


@shared_task
def reap_runs() -> dict:
    return services.runs_reap()


@shared_task
def prune_run_details() -> int:
    return services.runs_prune_details()


@shared_task(name=TABLE_THINK_TASK, acks_late=True, reject_on_worker_lost=True)
def table_think(table_id: str) -> int:
    return tables.table_think(table_id=table_id)


@shared_task(name=CALIBRATE_TASK)
def calibrate_speed(policies: list[str], fmt: str) -> float:
    return run_speed.speed_calibrate(policies=policies, fmt=fmt)
