from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core.errors import DomainError, ErrorCode
from core.intbounds import MAX_BIG_INTEGER, MAX_SEED
from decks.models import DeckFormat
from playtest.dreadgate import NotationError, game_log, observation, parse_action
from playtest.dreadgate.notation import format_action
from playtest.goldfish import services as tables
from playtest.jobs import services
from playtest.models import GoldfishTable, Run
from playtest.simulation.metagame_kind import METAGAME, budget
from playtest.simulation.tuning_kind import TUNING, budget_estimate, plan_indexes, swaps_apply
from playtest.web.selectors import run_list_for, run_rows_for
from playtest.web.serializers import (
    MetagameBudgetQuerySerializer,
    MetagameBudgetSerializer,
    MetagameSerializer,
    MetagameSubmitSerializer,
    RunSerializer,
    RunSubmitSerializer,
    TuningApplySerializer,
    TuningBudgetQuerySerializer,
    TuningBudgetSerializer,
    TuningSerializer,
    TuningSubmitSerializer,
)


class SubmissionsThrottled:
    """The `runs` throttle scope counts submissions only: reading a run or a table is not throttled by it."""

    throttle_scope = "runs"

    def get_throttles(self):
        throttles = super().get_throttles()
        if self.action != "create":
            throttles = [t for t in throttles if getattr(t, "scope_attr", None) != "throttle_scope"]
        return throttles

    def check_throttles(self, request):
        # Refused for too many active runs before the hourly count: such a refusal uses up no submission. (The
        # submission, made next, is not checked again: room_checked.)
        if self.action == "create" and request.user.is_authenticated:
            services.check_run_room(owner=request.user)
        super().check_throttles(request)


class Cancellable:
    """POST .../{id}/cancel/ on a run of any kind: its queued chunks are taken off the queue at once."""

    @extend_schema(request=None)  # answers the run as its kind shows it (the view's serializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        run = self.get_object()
        if not services.run_cancel(run=run):  # it finished meanwhile: shown as it ended
            run.refresh_from_db(fields=["status", "finished_at"])
        return Response(self.get_serializer(run).data)


class RunViewSet(SubmissionsThrottled, Cancellable, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                 viewsets.GenericViewSet):
    """Background runs (playtests, tournaments) of the signed-in user."""

    serializer_class = RunSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        # A list and a cancel answer the runs' summaries: not their deck lists (some 50 KB a run).
        if self.action in ("list", "cancel"):
            return run_rows_for(user=self.request.user, with_result=True)
        return run_list_for(user=self.request.user)

    def retrieve(self, request, *args, **kwargs):
        """A run; one cancelled or failed part-way shows in `result` what its finished chunks played."""
        run = self.get_object()
        data = self.get_serializer(run).data
        if data["result"] is None:
            data["result"] = services.run_partial_result(run=run)
        return Response(data)

    @extend_schema(
        request=RunSubmitSerializer,
        responses={202: RunSerializer,
                   400: OpenApiResponse(description="Bad parameters, or more games than the maximum"),
                   404: OpenApiResponse(description="A deck of the parameters does not exist or is not yours to see"),
                   429: OpenApiResponse(description="Too many submissions or too many running runs")},
    )
    def create(self, request):
        form = RunSubmitSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        with transaction.atomic():
            run = services.run_submit(owner=request.user, room_checked=True, **form.validated_data)  # throttles
        return Response(RunSerializer(run).data, status=status.HTTP_202_ACCEPTED)



class KindRunViewSet(SubmissionsThrottled, Cancellable, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The runs of one kind, with typed parameters: `submit_serializer` declares them (plus seed and title), and
    `param_fields` are those the run is given."""

    permission_classes = [IsAuthenticated]
    run_kind: str
    submit_serializer: type[serializers.Serializer]
    param_fields: tuple[str, ...]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation has no user
            return Run.objects.none()
        return run_list_for(user=self.request.user).filter(kind=self.run_kind)

    def submit(self, request) -> Response:
        body = request.data if isinstance(request.data, dict) else None
        if body is None:
            raise DomainError("The body must be an object.", code=ErrorCode.INVALID, details={"field": "body"})
        options = services.typed_params(self.submit_serializer, body)
        params = {key: options[key] for key in self.param_fields if key in options}
        with transaction.atomic():
            run = services.run_submit(owner=request.user, kind=self.run_kind, params=params, room_checked=True,
                                      seed=options.get("seed"), title=options.get("title") or "")
        return Response(self.get_serializer(run).data, status=status.HTTP_202_ACCEPTED)


class MetagameViewSet(KindRunViewSet):
    """Metagame tables: every pair of 2 to 12 decks, seat-rotated; submit, follow the progress, read the table."""

    serializer_class = MetagameSerializer
    run_kind = METAGAME
    submit_serializer = MetagameSubmitSerializer
    param_fields = ("decks", "starters", "format", "policy", "games_per_pair")

    @extend_schema(
        request=MetagameSubmitSerializer,
        responses={202: MetagameSerializer,
                   400: OpenApiResponse(description="Bad parameters, naming the field: fewer than 2 or more than 12 "
                                                    "decks, an odd games_per_pair, more games than a run may play"),
                   404: OpenApiResponse(description="A deck that does not exist or is not yours to see (the field "
                                                    "names it: decks[2])"),
                   429: OpenApiResponse(description="Too many submissions or too many running runs")},
    )
    def create(self, request):
        """Queue a table. Its games are pairs x games_per_pair; progress counts games (GET the table's id)."""
        return self.submit(request)

    @extend_schema(parameters=[MetagameBudgetQuerySerializer], responses={200: MetagameBudgetSerializer})
    @action(detail=False, methods=["get"])
    def budget(self, request):
        """What a table would cost before it is submitted: its games, and an estimated time."""
        form = MetagameBudgetQuerySerializer(data=request.query_params)
        form.is_valid(raise_exception=True)
        query = form.validated_data
        figures = budget(decks=query["decks"], games_per_pair=query["games_per_pair"], fmt=query["deck_format"],
                         policy=query["policy"])
        return Response(MetagameBudgetSerializer(figures).data)


class TuningViewSet(KindRunViewSet):
    """Deck tuning: which single swap would make a deck better, raced on the playtest AI; submit, follow the
    progress (games across the race's stages), read the suggestions, apply one as a new deck version."""

    serializer_class = TuningSerializer
    run_kind = TUNING
    submit_serializer = TuningSubmitSerializer
    param_fields = ("deck", "key", "goal", "format", "budget", "gauntlet")

    @extend_schema(
        request=TuningSubmitSerializer,
        responses={202: TuningSerializer,
                   400: OpenApiResponse(description="Bad parameters, naming the field: an illegal deck, a budget "
                                                    "out of range or too small for one swap, a Tactical deck"),
                   404: OpenApiResponse(description="A deck that does not exist or is not yours to see"),
                   429: OpenApiResponse(description="Too many submissions or too many running runs")},
    )
    def create(self, request):
        """Queue a tuning race. Its games are the budget (or fewer); progress counts games across stages."""
        return self.submit(request)

    @extend_schema(parameters=[TuningBudgetQuerySerializer], responses={200: TuningBudgetSerializer})
    @action(detail=False, methods=["get"])
    def budget(self, request):
        """What a tuning run would cost before it is submitted: its games, and an estimated time."""
        form = TuningBudgetQuerySerializer(data=request.query_params)
        form.is_valid(raise_exception=True)
        query = form.validated_data
        figures = budget_estimate(budget=query["budget"], goal=query["goal"], fmt=query["deck_format"])
        return Response(TuningBudgetSerializer(figures).data)

    @extend_schema(request=TuningApplySerializer,
                   responses={200: OpenApiResponse(description="The deck, at its new version (a copy of your own, "
                                                               "made first, when the tuned deck is someone else's)"),
                              404: OpenApiResponse(description="The tuned deck is gone, or no longer yours to see"),
                              409: OpenApiResponse(description="The run is not done, its plan holds no swap, or the "
                                                               "deck changed since")})
    @action(detail=True, methods=["post"])
    def apply(self, request, pk=None):
        """Apply a suggested swap (`swap`) or the run's whole plan (`plan: true`) to the tuned deck: a new version,
        kept in the deck's history; someone else's deck (a public one) is copied first, as yours, and the copy
        changed."""
        run = self.get_object()
        form = TuningApplySerializer(data=request.data)
        form.is_valid(raise_exception=True)
        chosen = form.validated_data
        if ("swap" in chosen) == bool(chosen.get("plan")):
            raise DomainError("Give exactly one of swap or plan: true.", code=ErrorCode.EXACTLY_ONE_PARAMETER,
                              details={"allowed": ["swap", "plan"]})
        indexes = plan_indexes(run) if chosen.get("plan") else [chosen["swap"]]
        deck = swaps_apply(run=run, indexes=indexes, actor=request.user)
        return Response({"deck": deck.pk, "version": deck.version, "url": deck.get_absolute_url()})


class GoldfishTableCreateSerializer(serializers.Serializer):
    deck = serializers.IntegerField(min_value=1, max_value=MAX_BIG_INTEGER, help_text="The deck's id.")
    key = serializers.CharField(required=False, allow_blank=True, default="")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED,
                                    help_text="Optional. The server mixes its secret nonce into it (DG-4.6), so a "
                                              "seed alone tells nothing of the cards; it is revealed with the nonce "
                                              "when the game is over.")
    format = serializers.ChoiceField(choices=DeckFormat.choices, required=False, allow_null=True)
    opponent = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_BIG_INTEGER,
                                        help_text="Optional. The AI plays this deck against yours; without it the "
                                                  "opponent is a training dummy that does nothing.")
    opponent_key = serializers.CharField(required=False, allow_blank=True, default="", max_length=64,
                                         help_text="The secret of an unlisted opponent deck's link.")
    level = serializers.ChoiceField(choices=list(tables.LEVELS), required=False, allow_null=True,
                                    help_text="The AI's level, with an opponent only: quick (the default; it answers "
                                              "at once) or strong (a search of up to a second a move, on a worker: "
                                              "the table is `thinking` meanwhile and refuses moves with a 409).")


class GoldfishActionSerializer(serializers.Serializer):
    action = serializers.JSONField(help_text='An action as [kind, a, b], or its notation such as "draw".')


class DummySerializer(serializers.Serializer):
    cell = serializers.CharField(max_length=2, help_text="A cell on the opponent's back rank, such as c5.")


class GoldfishTableSerializer(serializers.Serializer):
    """A goldfish table, as its owner sees it. While its game runs nothing that determines the hidden cards is
    shown (DG-4.6): the seed and the server's nonce come once the game is over; the commitment is shown from the
    start, so the revealed values can be checked against it (playtest/dreadgate/fairness.py)."""

    id = serializers.UUIDField()
    deck = serializers.IntegerField(allow_null=True, help_text="The deck's id (null if it was deleted).")
    commitment = serializers.CharField(
        help_text="SHA-256 (hex) of 'dreadgate-commit:<seed>:<nonce>', fixed when the table was opened.")
    over = serializers.BooleanField(help_text="Whether the game is over (then seed and nonce are revealed).")
    seed = serializers.IntegerField(allow_null=True, help_text="Revealed when the game is over (null before).")
    nonce = serializers.CharField(
        allow_null=True, help_text="The server's nonce, revealed when the game is over (null before; empty for a "
                                   "table opened before nonces, whose games are set up from the seed alone).")
    format = serializers.CharField()
    engine_version = serializers.CharField()
    catalog_version = serializers.CharField()
    seat = serializers.IntegerField(help_text="Your seat: 0 (South) or 1 (North).")
    dummies = serializers.ListField(child=serializers.CharField(), help_text="Cells where training dummies wait.")
    observation = serializers.DictField(help_text="What your seat may see (DG-2.6): no deck order, no other hand.")
    legal_actions = serializers.ListField(child=serializers.DictField(),
                                          help_text="Your legal actions now: {action: [kind, a, b], notation}.")
    log = serializers.ListField(child=serializers.CharField(),
                                help_text="The actions so far, in notation: while the game runs, those your seat was "
                                          "shown (a pass in a window offered to the AI is not, DG-15.7); all of "
                                          "them once it is over.")
    level = serializers.CharField(allow_null=True, help_text="The AI's level (quick, strong); null against dummies.")
    thinking = serializers.BooleanField(help_text="The AI is choosing its move on a worker: poll until false; moves "
                                                  "are refused (409) meanwhile.")


def table_payload(table: GoldfishTable, state=None) -> dict:
    state = state or tables.table_state(table)
    me = tables.human_seat(state)
    secrets = tables.table_secrets(table, state)
    thinking = tables.table_thinking(table)
    yours = not secrets["over"] and state.current_player == me and not thinking  # over: ended, or conceded
    return GoldfishTableSerializer({
        "id": str(table.pk), "deck": table.deck_id, **secrets,
        "format": table.params["format"],
        "engine_version": table.engine_version, "catalog_version": table.catalog_version,
        "seat": me, "dummies": table.dummies, "observation": observation(state, me),
        "legal_actions": [{"action": list(a), "notation": format_action(state, a)}
                          for a in (state.legal_actions() if yours else [])],
        # every action once the game is over; while it runs, those the person was shown (DG-15.7)
        "log": game_log(state, -1 if secrets["over"] else me), "level": tables.table_level(table), "thinking": thinking,
    }).data


def _action_from(table, value):
    """[kind, a, b] as given, or the action's notation read against the table's game."""
    if isinstance(value, list) and len(value) == 3 and all(isinstance(n, int) for n in value):
        return tuple(value)
    if isinstance(value, str):
        try:
            return parse_action(tables.table_state(table), value)
        except NotationError as exc:
            raise DomainError(f"action: {exc.message}", code=ErrorCode.BAD_NOTATION,
                              details={"field": "action", "position": exc.position}) from exc
    raise DomainError("action: give [kind, a, b] or the action's notation",
                      code=ErrorCode.INVALID, details={"field": "action"})


# A goldfish table closed by a change of rules has no game to play on (goldfish.services.table_state).
RULES_CHANGED = OpenApiResponse(description="The table was closed by a change of rules; its replay shows it (RV-5). "
                                            "Or the AI is thinking (`ai_thinking`, the strong level): wait until "
                                            "the table's `thinking` is false.")


class GoldfishTableViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Goldfish tables: play a deck by hand against a passive opponent or the AI; the game lives on the server. Its
    seed and nonce stay hidden until the game is over (the commitment is shown from the start, DG-4.6)."""

    permission_classes = [IsAuthenticated]
    serializer_class = GoldfishActionSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation has no user
            return GoldfishTable.objects.none()
        return GoldfishTable.objects.filter(owner=self.request.user)

    @extend_schema(request=GoldfishTableCreateSerializer,
                   responses={201: OpenApiResponse(GoldfishTableSerializer, description="The table"),
                              404: OpenApiResponse(description="The deck does not exist or is not yours to see")})
    def create(self, request):
        form = GoldfishTableCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table = tables.table_create(owner=request.user, deck_id=form.validated_data["deck"],
                                    key=form.validated_data["key"] or None, seed=form.validated_data.get("seed"),
                                    format=form.validated_data.get("format"),
                                    opponent_deck_id=form.validated_data.get("opponent"),
                                    opponent_key=form.validated_data["opponent_key"] or None,
                                    level=form.validated_data.get("level"))
        return Response(table_payload(table), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: OpenApiResponse(GoldfishTableSerializer,
                                                   description="The table: observation, legal actions, log; the "
                                                               "seed and nonce once the game is over")})
    def retrieve(self, request, pk=None):
        table = self.get_object()
        tables.table_think_resend(table)  # a thinking table whose worker was lost is sent again
        return Response(table_payload(table))

    @extend_schema(request=GoldfishActionSerializer,
                   responses={200: OpenApiResponse(GoldfishTableSerializer, description="The table after the action"),
                              400: OpenApiResponse(description="Illegal action, with the rule it breaks"),
                              409: RULES_CHANGED})
    @action(detail=True, methods=["post"])
    def act(self, request, pk=None):
        table = self.get_object()
        form = GoldfishActionSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        action = _action_from(table, form.validated_data["action"])
        state = tables.table_act(table=table, action=action)
        table.refresh_from_db()
        return Response(table_payload(table, state))

    @extend_schema(request=None, responses={200: OpenApiResponse(GoldfishTableSerializer,
                                                                 description="The table after the undo"),
                                            400: OpenApiResponse(description="Nothing to undo, or the game is over "
                                                                             "(DG-4.6)"),
                                            409: RULES_CHANGED})
    @action(detail=True, methods=["post"])
    def undo(self, request, pk=None):
        table = self.get_object()
        state = tables.table_undo(table=table)
        table.refresh_from_db()
        return Response(table_payload(table, state))

    @extend_schema(request=None, responses={200: OpenApiResponse(GoldfishTableSerializer,
                                                                 description="The table after the AI's turn"),
                                            409: RULES_CHANGED})
    @action(detail=True, methods=["post"], url_path="ai-turn")
    def ai_turn(self, request, pk=None):
        table = self.get_object()
        state = tables.table_ai_turn(table=table)
        table.refresh_from_db()
        return Response(table_payload(table, state))

    @extend_schema(request=DummySerializer, responses={200: OpenApiResponse(GoldfishTableSerializer,
                                                                            description="The table"),
                                                       409: RULES_CHANGED})
    @action(detail=True, methods=["post"])
    def dummy(self, request, pk=None):
        table = self.get_object()
        form = DummySerializer(data=request.data)
        form.is_valid(raise_exception=True)
        state = tables.table_place_dummy(table=table, cell=form.validated_data["cell"])
        table.refresh_from_db()
        return Response(table_payload(table, state))
