"""Whether the embedded default's worker is down: `make run` (config/devrun.py) marks it while it restarts the
worker, and every page says so (a context processor), so that nobody waits on a run that is not moving."""

from __future__ import annotations

from pathlib import Path

MARK_NAME = "jobs-paused"  # in the var folder, beside the embedded database and broker


def mark(var_dir: Path, reason: str) -> None:
    (var_dir / MARK_NAME).write_text(reason)


def clear(var_dir: Path) -> None:
    (var_dir / MARK_NAME).unlink(missing_ok=True)


def reason(var_dir: Path) -> str | None:
    try:
        return (var_dir / MARK_NAME).read_text() or "The background worker is restarting."
    except OSError:
        return None


def context(request) -> dict:
    """Template context: `jobs_paused`, the reason background jobs are paused, or None."""
    from django.conf import settings

    return {"jobs_paused": reason(settings.VAR_DIR)}
