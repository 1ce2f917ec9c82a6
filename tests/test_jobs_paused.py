"""The embedded default's "background jobs are paused" notice (config/jobs_paused.py): `make run` marks it when its
worker exits, and the worker that follows clears it once it takes tasks, however long its start took."""

import pytest
from celery.signals import worker_ready
from django.conf import settings

from config import jobs_paused


@pytest.fixture
def var_dir(tmp_path, settings):
    settings.VAR_DIR = tmp_path
    return tmp_path


def test_a_worker_ready_to_take_tasks_clears_the_notice(var_dir):
    jobs_paused.mark(settings.VAR_DIR, "The background worker stopped and is restarting (in 1 s).")
    assert jobs_paused.reason(var_dir) == "The background worker stopped and is restarting (in 1 s)."
    worker_ready.send(sender=None)
    assert jobs_paused.reason(var_dir) is None


def test_every_page_says_so_while_it_is_marked(var_dir, client, db):
    jobs_paused.mark(var_dir, "The background worker stopped and is restarting (in 2 s).")
    assert "The background worker stopped and is restarting (in 2 s)." in client.get("/").content.decode()
    worker_ready.send(sender=None)
    assert "restarting" not in client.get("/").content.decode()
