"""What the card preview (templates/cards/_card_preview.html) shows of a catalog card."""

from __future__ import annotations

from .models import Card
from .svg import type_line

STATS = (("vitality", "Vitality"), ("attack", "Attack"), ("defense", "Defense"), ("range", "Range"),
         ("maneuver", "Maneuver"))


def card_preview(card: Card) -> dict[str, object]:
    stats = " · ".join(f"{label} {getattr(card, field)}" for field, label in STATS if getattr(card, field) is not None)
    return {"code": card.collector_number, "name": card.name, "face": True, "type_line": type_line(card),
            "stats": stats, "text": card.text}
