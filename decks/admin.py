from django.contrib import admin

from .models import ConsideringEntry, Deck, DeckEntry, DeckRevision


class DeckEntryInline(admin.TabularInline):
    model = DeckEntry
    raw_id_fields = ["card"]
    extra = 0

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class ConsideringEntryInline(DeckEntryInline):
    model = ConsideringEntry
    verbose_name_plural = "considering"


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "format", "visibility", "card_count", "is_legal", "is_starter", "updated_at"]
    list_filter = ["format", "visibility", "is_legal", "is_starter"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner", "gateway", "copied_from"]
    readonly_fields = ["version", "share_token", "card_count", "is_legal", "crafts", "catalog_version"]
    inlines = [DeckEntryInline, ConsideringEntryInline]

    # Every change to a deck goes through decks.services (version check, revision); here staff only look.
    # To take a public deck down, use Unpublish on its page.
    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(DeckRevision)
class DeckRevisionAdmin(admin.ModelAdmin):
    """Revisions are history: readable here, never changed."""

    list_display = ["deck", "number", "author", "message", "created_at"]
    search_fields = ["deck__name"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_add_permission(self, request) -> bool:
        return False
