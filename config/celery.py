import os
from pathlib import Path

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("dreadgate")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _create_broker_folders(**kwargs) -> None:
    ensure_broker_folders()


def ensure_broker_folders() -> None:
    """The filesystem transport needs its folders to exist before either side connects."""
    from django.conf import settings

    for key in ("data_folder_in", "data_folder_out", "control_folder"):
        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get(key)
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
