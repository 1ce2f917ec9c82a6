from django.conf import settings
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from core.intbounds import MAX_INTEGER, MAX_SEED
from playtest.jobs.registry import JobKind, kinds
from playtest.jobs.services import run_summary
from playtest.models import Run
from playtest.policies import POLICIES
from playtest.simulation.metagame_kind import (
    DEFAULT_GAMES_PER_PAIR,
    DEFAULT_POLICY,
    MAX_DECKS,
    METAGAME_FORMATS,
    MIN_DECKS,
    MetagameParams,
    summarize_params,
)
from playtest.simulation.metagame_report import table
from playtest.simulation.tuning_kind import DEFAULT_BUDGET, GOALS, MIN_BUDGET, TUNING_FORMATS, TuningParams
from playtest.simulation.tuning_kind import present as tuning_present
from playtest.simulation.tuning_kind import summarize_params as tuning_summary

# The run limit as the schema states it, read once as RunSubmitSerializer's bound is (the schema is built once per
# process; the services check the setting as it stands).
MAX_GAMES = settings.PLAYTEST_MAX_GAMES


GAMES_PLAYED_HELP = ("The games played so far: games_done (those whose results the run has) and, while it runs, those "
                     "of its chunks still playing; what progress_percent counts.")


class RunSerializer(serializers.ModelSerializer):
    games_played = serializers.IntegerField(read_only=True, help_text=GAMES_PLAYED_HELP)
    progress_percent = serializers.IntegerField(read_only=True)
    duration_seconds = serializers.FloatField(read_only=True, allow_null=True)
    params = serializers.SerializerMethodField(
        help_text="The run's parameters; deck snapshots are summarised (id, name, version, legality, card count)."
    )
    result = serializers.JSONField(
        read_only=True, allow_null=True,
        help_text="The merged result of a finished run. Read alone (GET /api/runs/{id}/), a run cancelled or failed "
                  "part-way shows here what its finished chunks played (its `games` says how many); null in lists, "
                  "and for a staged run stopped part-way.")

    class Meta:
        model = Run
        fields = [
            "id", "kind", "title", "params", "games", "seed", "status", "games_done", "games_played",
            "progress_percent", "result", "error", "engine_version", "catalog_version", "chunk_size",
            "created_at", "started_at", "finished_at", "duration_seconds",
        ]
        read_only_fields = fields

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_params(self, run: Run) -> dict:
        # Stored with the run: its deck lists are not read (a run stored without one is summarised here).
        return run.summary if run.summary is not None else run_summary(run.kind, run.shown_params)

    def to_representation(self, run: Run) -> dict:
        """The fields read straight from the run, as the declared fields would write them: a submission and its
        cancel each answer a run, and building a ModelSerializer's fields from the model took two thirds of that
        answer's time. The schema still reads the declared fields; a test holds the two to the same answer."""
        return {
            "id": str(run.pk), "kind": run.kind, "title": run.title, "params": self.get_params(run),
            "games": run.games, "seed": run.seed, "status": run.status, "games_done": run.games_done,
            "games_played": run.games_played, "progress_percent": run.progress_percent, "result": run.result,
            "error": run.error, "engine_version": run.engine_version, "catalog_version": run.catalog_version,
            "chunk_size": run.chunk_size, "created_at": _moment(run.created_at),
            "started_at": _moment(run.started_at), "finished_at": _moment(run.finished_at),
            "duration_seconds": run.duration_seconds,
        }


_MOMENT = serializers.DateTimeField()  # writes a time as every other date-time field of the API does


def _moment(value) -> str | None:
    return _MOMENT.to_representation(value)


class RunSubmitSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[])
    params = serializers.DictField(required=False, default=dict)
    games = serializers.IntegerField(
        min_value=1, max_value=MAX_GAMES, required=False, allow_null=True,
        help_text="Games to play, from 1 to PLAYTEST_MAX_GAMES. A kind whose parameters fix it (dreadgate_metagame: "
                  "pairs x games_per_pair) may leave it out; a number given anyway must agree.")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED)
    title = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = sorted(kinds())


def kind_submit_serializer(kind: JobKind) -> serializers.Serializer:
    """A run of one kind as the schema states it: its name, its parameters' declared types (the kind's own
    params_serializer, which run_submit checks) and the run's options; `games` only where the parameters do not fix
    it (JobKind.games_of), and then required."""
    base = RunSubmitSerializer()
    fields: dict = {"kind": serializers.ChoiceField(choices=[kind.name])}
    if kind.params_serializer is not None:
        params = kind.params_serializer()
        fields["params"] = kind.params_serializer(required=any(f.required for f in params.fields.values()))
    if kind.games_of is None:
        games = base.fields["games"]
        fields["games"] = serializers.IntegerField(min_value=games.min_value, max_value=games.max_value,
                                                   help_text=f"Games to play, from 1 to {games.max_value}.")
    fields |= {"seed": base.fields["seed"].__class__(**base.fields["seed"]._kwargs),
               "title": base.fields["title"].__class__(**base.fields["title"]._kwargs)}
    name = "".join(part.title() for part in kind.name.split("_")) + "RunSubmit"
    return type(name, (serializers.Serializer,), fields)()


class MetagameParamsSchema(OpenApiSerializerExtension):
    """What metagame_kind.validate_params checks beyond the declared types: each deck once, 2 to 12 decks with the
    starters (there are STARTERS of them), and an even number of games a pair (each seed from both seats), at
    most the run limit (a pair's games; the table's, pairs x games a pair, is checked on submission)."""

    target_class = MetagameParams
    match_subclasses = True
    STARTERS = 6

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        decks, per_pair = schema["properties"]["decks"], schema["properties"]["games_per_pair"]
        decks["uniqueItems"] = True
        per_pair |= {"multipleOf": 2, "maximum": MAX_GAMES}
        schema["description"] = (f"a table holds {MIN_DECKS} to {MAX_DECKS} decks, at most {MAX_DECKS}: with "
                                 f"starters, the {self.STARTERS} starters and at most {MAX_DECKS - self.STARTERS} "
                                 "more in decks; without, the decks listed.")
        # Two forms that exclude each other; `not` keeps the enums of `starters` inline (the enum hook would make
        # components of them).
        true, false = ({"properties": {"starters": {"enum": [value]}}} for value in (True, False))
        schema["anyOf"] = [
            {"properties": {"decks": {"type": "array", "minItems": MIN_DECKS}}, "required": ["decks"],
             "not": {"required": ["starters"], **true}},
            {"properties": {"decks": {"type": "array", "maxItems": MAX_DECKS - self.STARTERS}},
             "required": ["starters"], "not": false},
        ]
        return schema


class TuningParamsSchema(OpenApiSerializerExtension):
    """The budget tuning_kind.validate_params allows: MIN_BUDGET games to the run limit."""

    target_class = TuningParams
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        schema["properties"]["budget"] |= {"minimum": MIN_BUDGET, "maximum": MAX_GAMES}
        return schema


class GoldfishActionSchema(OpenApiSerializerExtension):
    """A goldfish table's action as api._action_from reads it: [kind, a, b] (three whole numbers) or its notation."""

    target_class = "playtest.web.api.GoldfishActionSerializer"

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        number = {"type": "integer", "minimum": -MAX_INTEGER - 1, "maximum": MAX_INTEGER}
        schema["properties"]["action"] |= {"oneOf": [
            {"type": "array", "items": number, "minItems": 3, "maxItems": 3},
            {"type": "string", "minLength": 1},
        ]}
        return schema


class RunSubmitSchema(OpenApiSerializerExtension):
    """POST /api/runs/ in the schema: one body per kind (oneOf, told apart by `kind`), each with the fields that
    kind requires."""

    target_class = RunSubmitSerializer

    def map_serializer(self, auto_schema, direction):
        by_kind = {name: kind_submit_serializer(kind) for name, kind in sorted(kinds().items())}
        proxy = PolymorphicProxySerializer(component_name="RunSubmit", serializers=by_kind,
                                           resource_type_field_name="kind")
        schema = auto_schema._map_serializer(proxy, direction)
        schema["description"] = (f"kind: one of {', '.join(by_kind)}, with that kind's params (and games where its "
                                 "params do not fix them).")
        return schema


# --- Metagame tables -----------------------------------------------------------------------------------------


class MetagameSubmitSerializer(MetagameParams):
    """A metagame table to play: its decks and how (the run's parameters), and optionally its seed and title."""

    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED,
                                    help_text="The same seed plays the same table, however it is chunked.")
    title = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


@extend_schema_field({"type": "integer", "minimum": 2, "maximum": MAX_GAMES, "multipleOf": 2})
class GamesPerPairField(serializers.IntegerField):
    """A table's games a pair, declared as the submission declares it (even, at most the run limit): the schema's
    check refuses the same values in both with the same 400."""


class MetagameBudgetQuerySerializer(serializers.Serializer):
    decks = serializers.IntegerField(min_value=MIN_DECKS, max_value=MAX_DECKS, default=6,
                                     help_text="How many decks the table holds.")
    games_per_pair = GamesPerPairField(min_value=2, max_value=MAX_GAMES, default=DEFAULT_GAMES_PER_PAIR)
    # `format` in a query string is the API's own (the response's format), hence deck_format, as in the decks API.
    deck_format = serializers.ChoiceField(choices=list(METAGAME_FORMATS), default="standard",
                                          help_text="The table's format.")
    policy = serializers.ChoiceField(choices=list(POLICIES), default=DEFAULT_POLICY)


SPEED_HELP = "The speed the estimate assumes; null while a worker times the AI for the first time (source: timing)."
SPEED_SOURCES = ["measured", "calibrated", "timing"]
GAMES_AHEAD_HELP = ("Games of other runs played while this one plays: the workers are shared, so each run queued or "
                    "running plays as many games as this one, or what it has left.")


class MetagameBudgetSerializer(serializers.Serializer):
    decks = serializers.IntegerField()
    pairs = serializers.IntegerField()
    games_per_pair = serializers.IntegerField()
    games = serializers.IntegerField(help_text="pairs x games_per_pair")
    maximum = serializers.IntegerField(help_text="The most games one run may play (PLAYTEST_MAX_GAMES).")
    within_limit = serializers.BooleanField()
    games_per_second = serializers.FloatField(allow_null=True, help_text=SPEED_HELP)
    seconds = serializers.FloatField(allow_null=True, help_text="Estimated time from submission to the table, the "
                                                                "queue ahead counted; null while timing.")
    seconds_text = serializers.CharField(help_text="The estimate for people: 3 min 20 s, or not known yet.")
    games_ahead = serializers.IntegerField(help_text=GAMES_AHEAD_HELP)
    source = serializers.ChoiceField(choices=SPEED_SOURCES,
                                     help_text="measured: over the last finished tables of the same format and "
                                               "policy; calibrated: before any has finished, starter decks timed "
                                               "with the same policy on one worker process; timing: that timing "
                                               "is under way on a worker (ask again in a few seconds).")
    runs = serializers.IntegerField(help_text="How many finished tables the measured speed is over.")
    source_text = serializers.CharField()


class MetagameRateSerializer(serializers.Serializer):
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    games = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True, help_text="wins / games (a draw is not a win); null: no games")
    low = serializers.FloatField(help_text="95% Wilson interval, low end")
    high = serializers.FloatField(help_text="95% Wilson interval, high end")


class MetagameMatchupSerializer(MetagameRateSerializer):
    deck = serializers.IntegerField(help_text="The deck's index in the table's decks (as submitted).")
    opponent = serializers.IntegerField(help_text="The opponent's index.")
    opponent_name = serializers.CharField()
    verdict = serializers.ChoiceField(choices=["favoured", "even", "unfavoured", "unplayed"],
                                      help_text="favoured: the whole interval above 50%; unfavoured: below.")
    mean_turns = serializers.FloatField(allow_null=True)
    sample_game = serializers.IntegerField(allow_null=True,
                                           help_text="A kept game of the pair where this deck moved first: "
                                                     "/playtest/runs/{id}/games/{sample_game}/")


class MetagameStandingSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    legal = serializers.BooleanField()
    version = serializers.IntegerField(allow_null=True)
    overall = MetagameRateSerializer()
    verdict = serializers.ChoiceField(choices=["favoured", "even", "unfavoured", "unplayed"])
    best = MetagameMatchupSerializer(allow_null=True)
    worst = MetagameMatchupSerializer(allow_null=True)


class MetagameTableSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    draws = serializers.IntegerField()
    pairs = serializers.IntegerField()
    games_per_pair = serializers.IntegerField()
    format = serializers.CharField()
    policy = serializers.CharField()
    decks = MetagameStandingSerializer(many=True, help_text="Best overall rate first.")
    matchups = MetagameMatchupSerializer(many=True, help_text="Every ordered pair: the deck's rate against the "
                                                              "opponent.")


class MetagameDeckSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    legal = serializers.BooleanField()
    cards = serializers.IntegerField(help_text="The deck's card count, as its page gives it (the snapshot played "
                                               "also holds its gateway card).")


class MetagameSerializer(serializers.ModelSerializer):
    games_played = serializers.IntegerField(read_only=True, help_text=GAMES_PLAYED_HELP)
    progress_percent = serializers.IntegerField(read_only=True)
    duration_seconds = serializers.FloatField(read_only=True, allow_null=True)
    format = serializers.SerializerMethodField()
    policy = serializers.SerializerMethodField()
    games_per_pair = serializers.SerializerMethodField()
    decks = serializers.SerializerMethodField()
    games_per_second = serializers.SerializerMethodField(help_text="Measured: games over the run's time, once done.")
    table = serializers.SerializerMethodField(help_text="The win-rate table, once the run is done.")

    class Meta:
        model = Run
        fields = [
            "id", "title", "status", "games", "games_done", "games_played", "progress_percent", "seed", "format",
            "policy", "games_per_pair", "decks", "error", "engine_version", "catalog_version", "created_at",
            "started_at", "finished_at", "duration_seconds", "games_per_second", "table",
        ]
        read_only_fields = fields

    def get_format(self, run: Run) -> str:
        return run.params.get("format", "")

    def get_policy(self, run: Run) -> str:
        return run.params.get("policy", "")

    def get_games_per_pair(self, run: Run) -> int:
        return int(run.params.get("games_per_pair", 0))

    @extend_schema_field(MetagameDeckSummarySerializer(many=True))
    def get_decks(self, run: Run) -> list[dict]:
        return summarize_params(run.params)["decks"]

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_games_per_second(self, run: Run) -> float | None:
        return run.games_per_second if run.status == "done" else None

    @extend_schema_field(MetagameTableSerializer(allow_null=True))
    def get_table(self, run: Run) -> dict | None:
        if run.status != "done" or not isinstance(run.result, dict):
            return None
        return MetagameTableSerializer(table(run.result, run.params)).data


# --- Deck tuning ---------------------------------------------------------------------------------------------


class TuningSubmitSerializer(TuningParams):
    """A deck to tune: the run's parameters, and optionally its seed and title."""

    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED,
                                    help_text="The same seed races the same way, however it is chunked.")
    title = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class TuningBudgetQuerySerializer(serializers.Serializer):
    budget = serializers.IntegerField(min_value=MIN_BUDGET, max_value=MAX_GAMES, default=DEFAULT_BUDGET,
                                      help_text="Games, as a tuning run takes them.")
    goal = serializers.ChoiceField(choices=list(GOALS), default="goldfish")
    deck_format = serializers.ChoiceField(choices=list(TUNING_FORMATS), default="standard",
                                          help_text="The format the games are played in.")


class TuningBudgetSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    maximum = serializers.IntegerField(help_text="The most games one run may play (PLAYTEST_MAX_GAMES).")
    games_per_second = serializers.FloatField(allow_null=True, help_text=SPEED_HELP)
    seconds = serializers.FloatField(allow_null=True, help_text="Estimated time from submission to the report, the "
                                                                "queue ahead counted; null while timing.")
    seconds_text = serializers.CharField()
    games_ahead = serializers.IntegerField(help_text=GAMES_AHEAD_HELP)
    source = serializers.ChoiceField(choices=SPEED_SOURCES, help_text="measured, calibrated or timing, as for "
                                                                      "metagame tables.")
    source_text = serializers.CharField()


class TuningSwapSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The swap's number, for POST /api/tunings/{id}/apply/.")
    cut = serializers.CharField(help_text="Collector number of the card one copy of which goes out.")
    cut_name = serializers.CharField()
    add = serializers.CharField(help_text="Collector number of the card one copy of which comes in.")
    add_name = serializers.CharField()
    stage = serializers.IntegerField(help_text="The last stage of the race it played (0 first).")
    games = serializers.IntegerField()
    mean = serializers.FloatField(help_text="Mean paired improvement: turns saved (goldfish) or win-rate share "
                                            "gained (matchup) against the unchanged deck.")
    low = serializers.FloatField(help_text="95% interval, low end")
    high = serializers.FloatField(help_text="95% interval, high end")
    verdict = serializers.CharField(required=False, help_text="What the race and its check say of the swap, as the "
                                                              "report page says it (finalists and cuts only).")
    rank = serializers.IntegerField(required=False, help_text="Cheapest cuts only: its rank, shared with the cuts "
                                                              "the games played cannot tell it from (`tied`).")
    tied = serializers.BooleanField(required=False, help_text="Cheapest cuts only: whether another cut has its rank.")
    new_deals = serializers.DictField(required=False, allow_null=True,
                                      help_text="Its improvement on new deals (mean, low, high, as `mean`), when a "
                                                "stage after the race tried it again; else null (finalists and cuts "
                                                "only).")


class TuningReportSerializer(serializers.Serializer):
    goal = serializers.CharField()
    games = serializers.IntegerField()
    budget = serializers.IntegerField()
    stages = serializers.IntegerField()
    raced = serializers.IntegerField(help_text="Swaps in the shortlist.")
    considered = serializers.IntegerField(help_text="Swaps the shortlist was taken from.")
    shortlist_rule = serializers.CharField()
    caveat = serializers.CharField()
    beyond_notice = serializers.CharField(
        required=False, help_text="Why the deck can't reach the Beyond total, when it can't; else empty.")
    baseline = serializers.DictField(help_text="The unchanged deck: games and mean value (turns, or win share).")
    best = TuningSwapSerializer(many=True, help_text="The race's finalists, best first.")
    cheapest_cuts = TuningSwapSerializer(many=True, help_text="For each card out, its best replacement.")
    chained_stages = serializers.IntegerField(help_text="Stages after the race that tried its best swaps again on "
                                                        "new deals, on the deck with those already confirmed.")
    plan = TuningSwapSerializer(many=True, help_text="The swaps those stages confirmed, in order, each measured "
                                                     "against the deck with the ones before it; apply them all "
                                                     "with {\"plan\": true}.")


class TuningSerializer(serializers.ModelSerializer):
    games_played = serializers.IntegerField(read_only=True, help_text=GAMES_PLAYED_HELP)
    progress_percent = serializers.IntegerField(read_only=True)
    goal = serializers.SerializerMethodField()
    format = serializers.SerializerMethodField()
    deck = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField(help_text="The suggestions, once the run is done.")

    class Meta:
        model = Run
        fields = ["id", "title", "status", "games", "games_done", "games_played", "progress_percent", "stage", "seed",
                  "goal", "format", "deck", "error", "engine_version", "catalog_version", "created_at", "started_at",
                  "finished_at", "report"]
        read_only_fields = fields

    def get_goal(self, run: Run) -> str:
        return run.params.get("goal", "")

    def get_format(self, run: Run) -> str:
        return run.params.get("format", "")

    @extend_schema_field(MetagameDeckSummarySerializer)
    def get_deck(self, run: Run) -> dict:
        return tuning_summary(run.params)["deck"]

    @extend_schema_field(TuningReportSerializer(allow_null=True))
    def get_report(self, run: Run) -> dict | None:
        if run.status != "done" or not isinstance(run.result, dict):
            return None
        return TuningReportSerializer(tuning_present(run.result, run.params)).data


class TuningApplySerializer(serializers.Serializer):
    swap = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False,
                                    help_text="One swap: its index in the report.")
    plan = serializers.BooleanField(required=False, help_text="true: the run's whole plan, its confirmed swaps in "
                                                              "order, as one new version.")
