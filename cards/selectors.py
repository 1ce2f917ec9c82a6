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


def card_get(*, collector_number: str) -> Card | None:
    """One card with its keywords, by collector number (case-insensitive)."""
    return (
        Card.objects.prefetch_related("keywords")
        .filter(collector_number__iexact=collector_number)
        .first()
    )


def card_face_svg(card: Card) -> str:
    """The card's SVG face, cached per card, catalog version and drawing version."""
    from django.core.cache import cache

    from .svg import RENDER_VERSION, render_card_svg

    key = f"card-svg:{RENDER_VERSION}:{card.collector_number}:{card.catalog_version}"
    svg = cache.get(key)
    if svg is None:
        svg = render_card_svg(card, [k.name for k in card.keywords.all()])
        cache.set(key, svg, 24 * 3600)
    return svg


def card_face_etag(card: Card) -> str:
    from .svg import RENDER_VERSION

    return f'"{card.collector_number}-{card.catalog_version}-r{RENDER_VERSION}"'
