from __future__ import annotations

from django.db import models

from core.cardtypes import ITEM_SUBTYPES, SUBTYPE_ORDER, TALENT_SUBTYPES, TYPE_LABELS, TYPE_ORDER

from .crafts import Craft

# Model choices built from the card-type facts of core.cardtypes (members such as CardType.UNIT, Subtype.RELIC).
CardType = models.TextChoices("CardType", [(t.upper(), (t, TYPE_LABELS[t])) for t in TYPE_ORDER])
Subtype = models.TextChoices("Subtype", [(s.upper().replace(" ", "_"), (s, s.title())) for s in SUBTYPE_ORDER])

__all__ = ["ITEM_SUBTYPES", "TALENT_SUBTYPES", "CardType", "Craft", "Subtype"]

# Direction bits of the direction indicator, relative to the card's owner (N is forward).
DIRECTIONS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
DIRECTION_BITS = {name: 1 << i for i, name in enumerate(DIRECTIONS)}


class Keyword(models.Model):
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=40, unique=True)
    reminder = models.TextField(help_text="Reminder text shown on the card and the help page.")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Card(models.Model):
    """One Dreadgate card. Stats are null for card types that have none."""

    collector_number = models.CharField(max_length=16, unique=True)
    name = models.CharField(max_length=80, unique=True)
    craft = models.CharField(max_length=12, choices=Craft.choices, db_index=True)
    type = models.CharField(max_length=8, choices=CardType.choices, db_index=True)
    subtype = models.CharField(max_length=20, choices=Subtype.choices, blank=True, db_index=True)
    text = models.TextField(blank=True, help_text="Rules text.")
    flavor = models.TextField(blank=True)

    vitality = models.PositiveSmallIntegerField(null=True, blank=True)
    attack = models.PositiveSmallIntegerField(null=True, blank=True)
    defense = models.PositiveSmallIntegerField(null=True, blank=True)
    range = models.PositiveSmallIntegerField(null=True, blank=True)
    maneuver = models.PositiveSmallIntegerField(null=True, blank=True)
    flying_maneuver = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Aviation units only: maneuver range while flying."
    )
    attack_directions = models.PositiveSmallIntegerField(default=0, help_text="Bit set of DIRECTIONS (outer ring).")
    maneuver_directions = models.PositiveSmallIntegerField(default=0, help_text="Bit set of DIRECTIONS (inner ring).")

    is_unique = models.BooleanField(default=False)
    is_instant = models.BooleanField(default=False)
    is_consumable = models.BooleanField(default=False)
    cost = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Action points to play (non-units).")
    influence = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Legends: influence provided.")
    keywords = models.ManyToManyField(Keyword, blank=True, related_name="cards")
    abilities = models.JSONField(default=list, blank=True, help_text="Abilities with structured effects.")

    catalog_version = models.CharField(max_length=32, help_text="Catalog version that last changed this card.")

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["vitality", "attack", "defense", "range", "maneuver"],
                condition=models.Q(type="unit"),
                name="unit_stats_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.collector_number})"


class CatalogRelease(models.Model):
    """A loaded catalog version; decks, runs and replays record the version they used."""

    version = models.CharField(max_length=32, unique=True)
    digest = models.CharField(max_length=64)
    card_count = models.PositiveIntegerField()
    loaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-loaded_at"]

    def __str__(self) -> str:
        return self.version
