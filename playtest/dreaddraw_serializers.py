from rest_framework import serializers

from cards.models import DreadDrawCard


class DreadDrawCardSerializer(serializers.ModelSerializer):
    fortune = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = DreadDrawCard
        fields = ["number", "name", "strength", "damage", "keyword", "effect", "text", "fortune", "catalog_version",
                  "url"]

    def get_fortune(self, card: DreadDrawCard) -> dict[str, str]:
        return {"present": card.fortune_present, "near": card.fortune_near, "far": card.fortune_far}

    def get_url(self, card: DreadDrawCard) -> str:
        return f"/dread-draw/cards/{card.number}/"
