from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import Direction, PolymorphicProxySerializer
from rest_framework import serializers

from core.intbounds import MAX_INTEGER, MAX_SEED

from .engine.game import MAX_PLAYERS, MIN_PLAYERS
from .models import BotLevel, DreadDrawCard, DreadDrawTable, SeatKind, TableStatus


class DreadDrawCardSerializer(serializers.ModelSerializer[DreadDrawCard]):
    fortune = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = DreadDrawCard
        fields = ["number", "name", "strength", "damage", "keyword", "effect", "text", "fortune", "catalog_version",
                  "url"]

    def get_fortune(self, card: DreadDrawCard) -> dict[str, str]:
        return {"present": card.fortune_present, "near": card.fortune_near, "far": card.fortune_far}

    def get_url(self, card: DreadDrawCard) -> str:
        return reverse("dreaddraw:card", args=[card.number])


def _seat_name() -> serializers.CharField:
    return serializers.CharField(required=False, allow_blank=True, max_length=40)


class SeatSpecSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField(choices=SeatKind.choices)
    bot = serializers.ChoiceField(choices=BotLevel.choices, required=False, allow_blank=True)
    name = _seat_name()


class TableCreateSerializer(serializers.Serializer[dict[str, Any]]):
    seats = serializers.ListField(child=SeatSpecSerializer(), min_length=MIN_PLAYERS, max_length=MAX_PLAYERS,
                                  help_text=f"{MIN_PLAYERS} to {MAX_PLAYERS} seats, at least one of them a person.")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED)


# The schema states what services.table_create checks of the seats: a bot's seat names its bot (a person's may
# leave it out), and not every seat is a bot's.

class BotSeatSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField(choices=[SeatKind.BOT.value])
    bot = serializers.ChoiceField(choices=BotLevel.choices)
    name = _seat_name()


# A form of its own for each value of `kind`, so that the discriminator maps each value to one form (a form shared
# by two values reads, to a schema tool, as refusing the other value).
class LocalSeatSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.ChoiceField(choices=[SeatKind.LOCAL.value])
    bot = serializers.ChoiceField(choices=BotLevel.choices, required=False, allow_blank=True,
                                  help_text="Ignored: a person plays this seat.")
    name = _seat_name()


class InviteSeatSerializer(LocalSeatSerializer):
    kind = serializers.ChoiceField(choices=[SeatKind.INVITE.value])


# drf-spectacular's extension API is untyped (its class hook and its mapping), hence the ignores below.
class SeatSpecSchema(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    target_class = SeatSpecSerializer

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        proxy = PolymorphicProxySerializer(
            component_name="SeatSpec", resource_type_field_name="kind",
            serializers={SeatKind.BOT.value: BotSeatSerializer, SeatKind.LOCAL.value: LocalSeatSerializer,
                         SeatKind.INVITE.value: InviteSeatSerializer})
        schema: dict[str, Any] = auto_schema._map_serializer(proxy, direction)  # type: ignore[no-untyped-call]
        schema["description"] = "a seat is a bot's (kind bot, naming its bot) or a person's (kind local or invite)."
        return schema


class TableCreateSchema(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    target_class = TableCreateSerializer

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer(  # type: ignore[no-untyped-call]
            self.target, direction, bypass_extensions=True)
        schema["properties"]["seats"]["not"] = {"items": {"type": "object", "properties": {
            "kind": {"type": "string", "enum": [SeatKind.BOT.value]}}}}
        return schema


class DecisionSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField(min_value=0, max_value=MAX_PLAYERS - 1, help_text="Your seat (0-based).")
    decision = serializers.CharField(max_length=40, help_text="Notation: D, R<n>, K<n>, U, U<seat>, S, O<n>.<n>, B.")
    turn = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_INTEGER,
                                    help_text="Number of decisions you saw; refused with 409 if the game moved on.")


class SeatSerializer(serializers.Serializer[dict[str, Any]]):
    index = serializers.IntegerField()
    kind = serializers.CharField()
    bot = serializers.CharField()
    name = serializers.CharField()
    user = serializers.CharField(source="user.username", allow_null=True, default=None)


class TableSerializer(serializers.Serializer[DreadDrawTable]):
    """A table. While its game runs, nothing that determines the hidden cards is shown: the seed, the
    nonce and the decisions (which hold the orders players chose for cards only they saw) come with the
    result; the commitment is shown from the start, so the revealed values can be checked against it."""

    id = serializers.UUIDField()
    players = serializers.IntegerField()
    status = serializers.CharField()
    commitment = serializers.CharField(
        help_text="SHA-256 (hex) of 'dreaddraw-commit:<seed>:<nonce>', fixed when the table was created.")
    seed = serializers.SerializerMethodField()
    nonce = serializers.SerializerMethodField()
    set_version = serializers.CharField()
    engine_version = serializers.CharField(help_text="The rules version of the game (docs/rules.md, RV-1).")
    closed_step = serializers.IntegerField(
        allow_null=True, help_text="Set when a change of rules closed the table: the first step the current rules "
                                   "would show otherwise (RV-5). The observation is then the one stored.")
    turn = serializers.SerializerMethodField()
    decisions = serializers.SerializerMethodField()
    winner_seat = serializers.IntegerField(allow_null=True)
    seats = SeatSerializer(many=True, source="seats.all")
    your_seats = serializers.SerializerMethodField()
    observation = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    def get_turn(self, table: DreadDrawTable) -> int:
        return len(table.decisions)

    @staticmethod
    def _over(table: DreadDrawTable) -> bool:
        """Over, or closed by a change of rules: nothing more can be played in it (docs/rules.md, RV-5)."""
        return table.status == TableStatus.OVER or bool(table.closed_under)

    def get_seed(self, table: DreadDrawTable) -> int | None:
        """Revealed when the game is over (null before)."""
        return table.seed if self._over(table) else None

    def get_nonce(self, table: DreadDrawTable) -> str | None:
        """The server's nonce, revealed when the game is over (null before; empty for old tables)."""
        return table.nonce if self._over(table) else None

    def get_decisions(self, table: DreadDrawTable) -> list[str] | None:
        """Every decision in notation, revealed when the game is over (null before)."""
        return list(table.decisions) if self._over(table) else None

    def get_your_seats(self, table: DreadDrawTable) -> list[int]:
        return sorted(self.context.get("seats", []))

    def get_observation(self, table: DreadDrawTable) -> dict[str, Any]:
        """What the viewer's seat may see (DD-1.2, DD-16); the public table for a spectator."""
        observation: dict[str, Any] = self.context.get("observation", {})
        return observation

    def get_url(self, table: DreadDrawTable) -> str:
        return reverse("dreaddraw:table", args=[table.pk])
