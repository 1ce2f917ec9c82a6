"""What the job framework needs of the broker: its folders on the embedded default, and the chunk task's name.

The chunk task is sent by name so that the services never import the tasks module that calls them
(tasks → services only; no import circle).
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

# The registered name of playtest.tasks.run_chunk; kept when modules move, so queued chunks still run.
RUN_CHUNK_TASK = "playtest.tasks.run_chunk"


def ensure_broker_folders() -> None:
    """The filesystem transport needs its folders to exist before either side connects."""
    for key in ("data_folder_in", "data_folder_out", "control_folder"):
        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get(key)
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
