from __future__ import annotations

from django.db.models import Count

from .models import Card, CatalogRelease


def catalog_version() -> str:
    """The version of the loaded catalog ('unloaded' before the first load)."""
    release = CatalogRelease.objects.order_by("-loaded_at").first()
    return release.version if release else "unloaded"


def catalog_summary() -> dict[str, object]:
    counts = dict(Card.objects.values_list("type").annotate(n=Count("id")).order_by())
    return {"version": catalog_version(), "total": sum(counts.values()), "by_type": counts}
