"""API for the Dread Draw card set (/api/dreaddraw/...), apart from the Dreadgate /api/cards/."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import DomainError, ErrorCode
from dreaddraw.engine.observation import observe

from .engine.game import MAX_PLAYERS, Game
from .models import DreadDrawCard, DreadDrawTable, seat_names
from .selectors import (
    KEYWORD_VALUES,
    dreaddraw_card_filters,
    dreaddraw_card_get,
    dreaddraw_card_list,
    dreaddraw_table_get,
    dreaddraw_tables_for,
    stored_observation,
)
from .serializers import DecisionSerializer, DreadDrawCardSerializer, TableCreateSerializer, TableSerializer
from .services import seats_of, table_act, table_create, table_join, table_rematch, table_shown, viewer_seat


@extend_schema(parameters=[
    OpenApiParameter("q", {"type": "string", "maxLength": 100},
                     description="Words in the name, rules text or fortune meanings (up to 100 characters)."),
    OpenApiParameter("strength", {"type": "integer", "minimum": 0, "maximum": 99}),
    OpenApiParameter("damage", {"type": "integer", "minimum": 0, "maximum": 99}),
    OpenApiParameter("keyword", OpenApiTypes.STR, enum=KEYWORD_VALUES),
])
class DreadDrawCardListView(generics.ListAPIView[DreadDrawCard]):
    """The 100 cards of the Dread Draw set, filtered."""

    serializer_class = DreadDrawCardSerializer
    permission_classes = [AllowAny]
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[DreadDrawCard]:
        return dreaddraw_card_list(**dreaddraw_card_filters(self.request.query_params))


class DreadDrawCardDetailView(generics.RetrieveAPIView[DreadDrawCard]):
    serializer_class = DreadDrawCardSerializer
    permission_classes = [AllowAny]

    def get_object(self) -> DreadDrawCard:
        card = dreaddraw_card_get(number=self.kwargs["number"])
        if card is None:
            raise NotFound(f"There is no Dread Draw card number {self.kwargs['number']}.")
        return card


# --- tables ---------------------------------------------------------------------------------

class SignedInRequest(Request):
    """A request of a view that lets only signed-in users in (IsAuthenticated)."""

    user: User


def _table_response(request: Request, table: DreadDrawTable, status_code: int = 200,
                    game: Game | None = None) -> Response:
    game = game or table_shown(table)  # None: shown from its stored frames, under rules since changed (RV-5)
    seats = seats_of(table, request.user)
    viewer = viewer_seat(game, seats) if game is not None else (min(seats) if seats else -1)
    if "seat" in request.query_params:
        try:
            wanted = int(request.query_params["seat"])
        except ValueError:
            wanted = -2
        if wanted not in seats:
            raise DomainError("seat: you do not play that seat.", code=ErrorCode.NOT_YOUR_SEAT, status_code=403,
                              details={"field": "seat"})
        viewer = wanted
    names = seat_names(table.seats.all())
    seen = observe(game, viewer, names) if game is not None else stored_observation(table, viewer)
    data = TableSerializer(table, context={"seats": seats, "observation": seen}).data
    return Response(data, status=status_code)


def _get_table(table_id: UUID) -> DreadDrawTable:
    table = dreaddraw_table_get(table_id=table_id)
    if table is None:
        raise NotFound("No such table.")
    return table


class TableListView(APIView):
    """Your Dread Draw tables, and starting a new one (2 to 6 seats: bots, people at your screen, invited)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: TableSerializer(many=True)})
    def get(self, request: SignedInRequest) -> Response:
        tables = dreaddraw_tables_for(user=request.user)[:100]
        data = [TableSerializer(t, context={"seats": seats_of(t, request.user)}).data for t in tables]
        return Response(data)

    @extend_schema(request=TableCreateSerializer, responses={201: TableSerializer})
    def post(self, request: SignedInRequest) -> Response:
        form = TableCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table = table_create(owner=request.user, seats=form.validated_data["seats"],
                             seed=form.validated_data.get("seed"))
        return _table_response(request, table, status.HTTP_201_CREATED)


class TableDetailView(APIView):
    """A table with the observation of your seat (the public table if you do not play it)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: TableSerializer},
                   parameters=[OpenApiParameter("seat", {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1},
                                                description="Which of your seats to see (0-based).")])
    def get(self, request: SignedInRequest, table_id: UUID) -> Response:
        return _table_response(request, _get_table(table_id))


class TableDecisionView(APIView):
    """Play a decision for one of your seats. An illegal one is refused with its DD rule number (400),
    acting for a seat you do not play with 403; the game is unchanged either way."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=DecisionSerializer, responses={
        200: TableSerializer,
        403: OpenApiResponse(description="A seat you do not play (not_your_seat)"),
        409: OpenApiResponse(description="The table waits for players (table_waiting), or the game moved on since "
                                         "`turn` (stale_turn)")})
    def post(self, request: SignedInRequest, table_id: UUID) -> Response:
        _get_table(table_id)
        form = DecisionSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table, game = table_act(table_id=table_id, user=request.user, **form.validated_data)
        return _table_response(request, table, game=game)


class TableJoinView(APIView):
    """Take a free invited seat at someone else's table."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={
        200: TableSerializer,
        409: OpenApiResponse(description="Your own table (owner_cannot_join), or no free seat (table_full)")})
    def post(self, request: SignedInRequest, table_id: UUID) -> Response:
        _get_table(table_id)
        return _table_response(request, table_join(table_id=table_id, user=request.user))


class TableAgainView(APIView):
    """Play again: a new table with this finished table's seats and a new seed (the table's creator only; invited
    seats open again, for the new table's link)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={
        201: TableSerializer,
        403: OpenApiResponse(description="Not the table's creator (not_table_owner)"),
        409: OpenApiResponse(description="The game is not over (table_not_over)")})
    def post(self, request: SignedInRequest, table_id: UUID) -> Response:
        _get_table(table_id)
        return _table_response(request, table_rematch(table_id=table_id, user=request.user), status.HTTP_201_CREATED)
