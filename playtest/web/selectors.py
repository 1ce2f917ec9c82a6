from __future__ import annotations

from django.db.models import QuerySet

from playtest.models import Run


def run_list_for(*, user) -> QuerySet[Run]:
    """Runs a user may see: their own (staff see every run in the admin)."""
    if not user.is_authenticated:
        return Run.objects.none()
    return Run.objects.filter(owner=user)
