import os
from pathlib import Path

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init, worker_process_init, worker_ready

import playtest.jobs.filesystem_transport  # noqa: F401  (registers the embedded default's broker by name)
import playtest.jobs.redis_transport  # noqa: F401  (registers the Redis broker that outlives a Redis restart)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("dreadgate")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _recycle_database_connections(task=None, **kwargs) -> None:
    """As around a request: drop a connection that failed, is past CONN_MAX_AGE or left a transaction."""
    if task is not None and getattr(task.request, "is_eager", False):
        return  # an eager task runs inside its caller's connection and transaction
    from django.db import close_old_connections

    close_old_connections()


@worker_process_init.connect
def _stop_a_chunk_when_asked(**kwargs) -> None:
    """A pool process asked to stop ends its chunk at the next game and hands it back (playtest/jobs/shutdown.py)."""
    from playtest.jobs.shutdown import heed_term

    heed_term()


@worker_init.connect
def _create_broker_folders(**kwargs) -> None:
    from playtest.jobs.broker import ensure_broker_folders

    ensure_broker_folders()


@worker_ready.connect
def _jobs_no_longer_paused(**kwargs) -> None:
    """The pages of the embedded default say jobs are paused from a worker's exit until its successor takes tasks
    (config/devrun.py marks it, this clears it): not a fixed time after its start, which a loaded machine outlasts."""
    from django.conf import settings

    from config import jobs_paused

    jobs_paused.clear(settings.VAR_DIR)




AUTOGROUP = Path("/proc/self/autogroup")


@worker_init.connect
def _yield_the_cpu_to_the_web(**kwargs) -> None:
    """Lower the worker's CPU priority by WORKER_NICE before its pool starts (the pool's processes inherit it)."""
    from django.conf import settings

    if not settings.WORKER_NICE:
        return
    os.nice(settings.WORKER_NICE)
    # With Linux's autogroups (processes outside any cgroup but the root one), a niceness counts only against the
    # processes of the same session: a worker started in a session of its own (`make run`, a service, the benches)
    # would still share the CPU half and half with the web server's session. Its session's group is given the same
    # niceness, which is safe only when the worker leads it (the group then holds the worker and its pool alone).
    if os.getsid(0) == os.getpid() and AUTOGROUP.exists():
        try:
            AUTOGROUP.write_text(str(settings.WORKER_NICE))
        except OSError:  # a kernel without autogroups (or one that refuses): the process's niceness stands alone
            pass
