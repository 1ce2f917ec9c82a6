from rest_framework import serializers

from .jobs.registry import kinds
from .models import Run


class RunSerializer(serializers.ModelSerializer):
    progress_percent = serializers.IntegerField(read_only=True)
    duration_seconds = serializers.FloatField(read_only=True, allow_null=True)

    class Meta:
        model = Run
        fields = [
            "id", "kind", "title", "params", "games", "seed", "status", "games_done", "progress_percent",
            "result", "error", "engine_version", "catalog_version", "chunk_size",
            "created_at", "started_at", "finished_at", "duration_seconds",
        ]
        read_only_fields = fields


class RunSubmitSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[])
    params = serializers.DictField(required=False, default=dict)
    games = serializers.IntegerField(min_value=1)
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=2**62)
    title = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = sorted(kinds())
