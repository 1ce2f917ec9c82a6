"""Health of the two things the app cannot work without: its database and its job broker."""

from __future__ import annotations

from django.db import connection
from kombu import Connection

from playtest.jobs.broker import ensure_broker_folders

from .celery import app


def database_status() -> dict[str, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return {"status": "ok", "vendor": connection.vendor}
    except Exception as exc:  # a health check reports, it does not raise
        return {"status": "error", "vendor": connection.vendor, "error": str(exc)[:200]}


def broker_status() -> dict[str, str]:
    url = app.conf.broker_url
    transport = url.split("://", 1)[0]
    try:
        ensure_broker_folders()
        with Connection(url, transport_options=app.conf.broker_transport_options,
                        connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"status": "ok", "transport": transport}
    except Exception as exc:
        return {"status": "error", "transport": transport, "error": str(exc)[:200]}
