"""What the job framework needs of the broker: its folders on the embedded default, the chunk task's name,
taking a stopped run's chunks off the queue, and giving back what a dead worker had taken on the embedded default.

The chunk task is sent by name so that the services never import the tasks module that calls them
(tasks → services only; no import circle).
"""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path

from celery import current_app
from django.conf import settings
from kombu.transport import redis as redis_transport

from . import filesystem_transport

log = logging.getLogger(__name__)

# The registered name of playtest.tasks.run_chunk; kept when modules move, so queued chunks still run.
RUN_CHUNK_TASK = "playtest.tasks.run_chunk"


def ensure_broker_folders() -> None:
    """The filesystem transport needs its folders to exist before either side connects."""
    for key in ("data_folder_in", "data_folder_out", "control_folder"):
        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get(key)
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)


def restore_dead_workers_messages() -> int:
    """On the embedded default, put back in the queue the messages taken by worker processes that have died (Redis
    redelivers them itself, after its visibility timeout). Returns how many."""
    folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in")
    return filesystem_transport.restore_lapsed_claims(folder) if folder else 0


def _chunk_run(message: dict) -> str | None:
    """The run a queued message plays a chunk of (None for any other message)."""
    if (message.get("headers") or {}).get("task") != RUN_CHUNK_TASK:
        return None
    body = message.get("body") or ""
    if (message.get("properties") or {}).get("body_encoding") == "base64":
        body = base64.b64decode(body)
    args, _kwargs, _embed = json.loads(body)
    return str(args[0])


def remove_queued_chunks(run_id) -> int:
    """Take the run's chunks off the queue (those workers have taken are played as nothing: the run is finished).
    The window keeps the queue short, so it is read whole. Returns how many were removed; a broker that cannot be
    reached, or one that cannot remove, leaves them, logged."""

    def of_the_run(message: dict) -> bool:
        return _chunk_run(message) == str(run_id)

    queue = settings.PLAYTEST_QUEUE
    ensure_broker_folders()
    try:
        # From the app's pool: a connection of its own would cost a Redis handshake (7 round trips) per cancel.
        with current_app.pool.acquire(block=True) as connection:
            channel = connection.default_channel
            if isinstance(channel, filesystem_transport.Channel):
                return channel.remove(queue, of_the_run)
            if isinstance(channel, redis_transport.Channel):
                return _remove_from_redis(channel, queue, of_the_run)
            log.warning("The %s broker cannot take run %s's chunks off the queue.", type(channel).__module__, run_id)
    except Exception as exc:  # the broker is down: what is left on the queue is played as nothing
        log.warning("Run %s's chunks could not be taken off the queue: %s", run_id, exc)
    return 0


def _remove_from_redis(channel: redis_transport.Channel, queue: str, unwanted) -> int:
    removed = 0
    keys = [channel._q_for_pri(queue, priority) for priority in channel.priority_steps]
    with channel.conn_or_acquire() as client:
        with client.pipeline(transaction=False) as pipe:  # every priority's list in one round trip
            for key in keys:
                pipe.lrange(key, 0, -1)
            queued = pipe.execute()
        for key, messages in zip(keys, queued, strict=True):
            for raw in messages:
                if unwanted(json.loads(raw)):
                    removed += client.lrem(key, 1, raw)  # 0 if a worker took it meanwhile
    return removed
