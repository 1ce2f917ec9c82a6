from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from .models import Card, Keyword
from .svg import directions_of


class KeywordSerializer(serializers.ModelSerializer):
    class Meta:
        model = Keyword
        fields = ["slug", "name", "reminder"]


class CardSerializer(serializers.ModelSerializer):
    """A card in search results. Stats are null for card types that have none."""

    attack_directions = serializers.SerializerMethodField()
    maneuver_directions = serializers.SerializerMethodField()
    keywords = serializers.SerializerMethodField()
    image = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = [
            "collector_number", "name", "craft", "type", "subtype", "text",
            "vitality", "attack", "defense", "range", "maneuver", "flying_maneuver",
            "attack_directions", "maneuver_directions", "is_unique", "is_instant", "is_consumable",
            "cost", "influence", "keywords", "image", "catalog_version",
        ]

    def get_attack_directions(self, card: Card) -> list[str]:
        return directions_of(card.attack_directions)

    def get_maneuver_directions(self, card: Card) -> list[str]:
        return directions_of(card.maneuver_directions)

    def get_keywords(self, card: Card) -> list[str]:
        return [k.slug for k in card.keywords.all()]

    def get_image(self, card: Card) -> str:
        return reverse("cards:svg", args=[card.collector_number])


class CardDetailSerializer(CardSerializer):
    keywords = KeywordSerializer(many=True, read_only=True)

    class Meta(CardSerializer.Meta):
        fields = [*CardSerializer.Meta.fields, "flavor", "abilities"]


class CatalogExportCardSerializer(CardSerializer):
    """A card in the catalog export (schema only): the export's fields, keywords as slugs."""

    class Meta(CardSerializer.Meta):
        fields = [f for f in CardSerializer.Meta.fields if f != "image"] + ["flavor", "abilities"]


class CraftSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    colour = serializers.CharField()
    hex = serializers.CharField()
    icon = serializers.CharField()
    speciality = serializers.CharField()


class CardTypeSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    subtypes = serializers.ListField(child=serializers.CharField())

