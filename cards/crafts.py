"""The crafts as a model field's choices; their facts (order, colours, icons) live in core.crafts."""

from __future__ import annotations

from django.db import models

from core.crafts import CRAFTS, CraftInfo

Craft = models.TextChoices("Craft", [(info.slug.upper(), (info.slug, info.label)) for info in CRAFTS.values()])

__all__ = ["CRAFTS", "Craft", "CraftInfo"]
