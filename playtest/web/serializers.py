from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from playtest.jobs.registry import get_kind, kinds
from playtest.models import Run


class RunSerializer(serializers.ModelSerializer):
    progress_percent = serializers.IntegerField(read_only=True)
    duration_seconds = serializers.FloatField(read_only=True, allow_null=True)
    params = serializers.SerializerMethodField(
        help_text="The run's parameters; deck snapshots are summarised (id, name, version, legality, card count)."
    )

    class Meta:
        model = Run
        fields = [
            "id", "kind", "title", "params", "games", "seed", "status", "games_done", "progress_percent",
            "result", "error", "engine_version", "catalog_version", "chunk_size",
            "created_at", "started_at", "finished_at", "duration_seconds",
        ]
        read_only_fields = fields

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_params(self, run: Run) -> dict:
        try:
            return get_kind(run.kind).public_params(run.params)
        except LookupError:  # a kind no longer installed: show what was stored
            return run.params


class RunSubmitSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[])
    params = serializers.DictField(required=False, default=dict)
    games = serializers.IntegerField(min_value=1, max_value=settings.PLAYTEST_MAX_GAMES,
                                     help_text="Games to play, from 1 to PLAYTEST_MAX_GAMES.")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=2**62)
    title = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = sorted(kinds())
