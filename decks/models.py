from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from cards.models import Card
from core.formats import FORMATS


def new_share_token() -> str:
    return secrets.token_urlsafe(16)


# The formats of core.formats as model choices (DeckFormat.STANDARD, ...).
DeckFormat = models.TextChoices("DeckFormat", [(f.slug.upper(), (f.slug, f.label)) for f in FORMATS.values()])


class Visibility(models.TextChoices):
    PRIVATE = "private", "Private"
    UNLISTED = "unlisted", "Unlisted (anyone with the link)"
    PUBLIC = "public", "Public"


# How public decks are listed (starters first, then the latest saved), and the index that walks them so: a page of
# them, or of those holding a staple card, reads its twenty decks from the index instead of sorting them all.
PUBLIC_ORDER = ("-is_starter", "-updated_at", "-id")


MAX_NAME_LENGTH = 100  # a deck's name
MAX_DESCRIPTION_LENGTH = 5000  # a deck's description
# For the forms' boxes, which take no more than a deck holds (and say so beside a description).
DECK_LIMITS = {"name": MAX_NAME_LENGTH, "description": MAX_DESCRIPTION_LENGTH}


class Deck(models.Model):
    """A deck: its main-deck entries, the gateway pair beside them (DC-7), and who may see it.

    `version` grows by one on every save; writes must name the version they started from
    (optimistic concurrency), so two editors never silently overwrite each other.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="decks",
        help_text="Empty for the starter decks that come with the catalog.",
    )
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    description = models.TextField(blank=True, max_length=MAX_DESCRIPTION_LENGTH)
    format = models.CharField(max_length=10, choices=DeckFormat.choices, default=DeckFormat.STANDARD)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE,
                                  db_index=True)
    share_token = models.CharField(max_length=32, unique=True, default=new_share_token, editable=False,
                                   help_text="The secret in an unlisted deck's link.")
    gateway = models.ForeignKey(Card, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                help_text="The gateway card; the deck carries 2 copies beside the main deck.")
    copied_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="copies")
    is_starter = models.BooleanField(default=False)
    starter_key = models.CharField(max_length=40, blank=True, help_text="Starter decks: the key in the data file.")
    version = models.PositiveIntegerField(default=1)
    # What the deck page's list, legality and statistics show (its cards, tags, considering list, format and
    # gateway) is rendered once per list version: a new name or description does not render the list again.
    list_version = models.PositiveIntegerField(
        default=1, help_text="The version at which the deck's cards, tags, considering list, format or gateway "
                             "last changed.")
    catalog_version = models.CharField(max_length=32, blank=True)
    # Derived on every save, for listing and searching without loading entries.
    card_count = models.PositiveSmallIntegerField(default=0)
    is_legal = models.BooleanField(default=False)
    crafts = models.CharField(max_length=120, blank=True, help_text="Crafts of the deck's cards, space-separated.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["starter_key"], condition=models.Q(is_starter=True),
                                    name="deck_starter_key_unique"),
        ]
        indexes = [models.Index(fields=list(PUBLIC_ORDER), condition=models.Q(visibility=Visibility.PUBLIC),
                                name="deck_public_order")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        url = reverse("decks:detail", args=[self.pk])
        return f"{url}?key={self.share_token}" if self.visibility == Visibility.UNLISTED else url

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


MAX_TAG_LENGTH = 30


class DeckEntry(models.Model):
    """A card of the main deck, its copies and the owner's tag for it (blank: untagged)."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="entries")
    # PROTECT: a card that any deck uses can never be deleted from the catalog.
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_entries")
    count = models.PositiveSmallIntegerField()
    tag = models.CharField(max_length=MAX_TAG_LENGTH, blank=True, default="",
                           help_text="The owner's label for the card (the editor's piles); blank when untagged.")

    class Meta:
        ordering = ["card__name"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card"], name="deck_entry_card_once"),
            models.CheckConstraint(condition=models.Q(count__gte=1), name="deck_entry_count_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.card.name}"


class ConsideringEntry(models.Model):
    """A card kept for later beside the deck (the considering list): not counted, not validated."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="considering")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="considering_entries")
    count = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["card__name"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "card"], name="considering_entry_card_once"),
            models.CheckConstraint(condition=models.Q(count__gte=1, count__lte=60),
                                   name="considering_entry_count_1_to_60"),
        ]

    def __str__(self) -> str:
        return f"{self.count} {self.card.name} (considering)"


class DeckRevision(models.Model):
    """An immutable snapshot of a deck, written on every save. Cards are kept by collector number,
    so a revision still reads after the catalog changes."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField(help_text="The deck version this snapshot is.")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    message = models.CharField(max_length=200, blank=True)
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    format = models.CharField(max_length=10, choices=DeckFormat.choices)
    gateway = models.CharField(max_length=16, blank=True, help_text="Collector number of the gateway card.")
    cards = models.JSONField(default=list, help_text="[[collector number, count], ...] sorted by collector number.")
    tags = models.JSONField(default=dict, blank=True,
                            help_text="{collector number: tag} of the tagged main-deck cards; {} before tags existed.")
    considering = models.JSONField(default=list, blank=True,
                                   help_text="The considering list, [[collector number, count], ...] sorted.")
    catalog_version = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [models.UniqueConstraint(fields=["deck", "number"], name="deck_revision_number_once")]

    def __str__(self) -> str:
        return f"{self.deck_id} v{self.number}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ValueError("A deck revision is immutable once written.")
        super().save(*args, **kwargs)

    @property
    def card_total(self) -> int:
        """The main deck's size at this version, every copy counted (DC-3)."""
        return sum(count for _, count in self.cards)


class EditorSave(models.Model):
    """A save of the deck editor, by the key its page gave it (static/decks/editor.js): a save sent again because
    its answer was lost is found here and not applied twice (decks/editor_saves.py)."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    undo = models.JSONField(default=list, help_text="What takes the save back, as the editor's answer gave it.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deck", "key"], name="editor_save_once")]

    def __str__(self) -> str:
        return f"{self.deck_id}:{self.key}"
