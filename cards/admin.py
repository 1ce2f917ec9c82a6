"""Admin for curating the catalog. Generated unit stats are read-only (the generator owns them), and
cards are never deleted here: decks may use them (the loader never deletes either)."""

from __future__ import annotations

from django.contrib import admin

from .models import Card, CardType, CatalogRelease, Keyword

UNIT_GENERATED_FIELDS = (
    "collector_number", "type", "vitality", "attack", "defense", "range", "maneuver",
    "flying_maneuver", "attack_directions", "maneuver_directions",
)  # fmt: skip


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ("collector_number", "name", "craft", "type", "subtype", "vitality", "attack", "defense",
                    "range", "maneuver", "is_unique", "catalog_version")  # fmt: skip
    list_filter = ("craft", "type", "subtype", "keywords", "is_unique", "is_instant", "is_consumable",
                   "catalog_version")  # fmt: skip
    search_fields = ("name", "collector_number", "text")
    ordering = ("collector_number",)
    filter_horizontal = ("keywords",)
    list_per_page = 100
    show_full_result_count = False  # no COUNT(*) over 8,000+ rows on every filtered page
    fieldsets = (
        (None, {"fields": ("collector_number", "name", "craft", "type", "subtype", "catalog_version")}),
        (
            "Stats",
            {
                "fields": (
                    ("vitality", "attack", "defense", "range", "maneuver", "flying_maneuver"),
                    ("attack_directions", "maneuver_directions"),
                )
            },
        ),
        ("Play", {"fields": ("cost", "influence", "is_unique", "is_instant", "is_consumable", "keywords")}),
        ("Text", {"fields": ("text", "flavor", "abilities")}),
    )

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.type == CardType.UNIT:
            return (*UNIT_GENERATED_FIELDS, "catalog_version")
        return ("catalog_version",)

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Keyword)
class KeywordAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "reminder")
    search_fields = ("name", "slug", "reminder")

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(CatalogRelease)
class CatalogReleaseAdmin(admin.ModelAdmin):
    """Releases are a record of what was loaded: read-only."""

    list_display = ("version", "card_count", "loaded_at", "digest")
    search_fields = ("version", "digest")
    readonly_fields = ("version", "digest", "card_count", "loaded_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
