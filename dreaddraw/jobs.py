"""The Dread Draw tournament job kind: bots against bots, seats rotated, in chunks on the workers."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from core.errors import DomainError, ErrorCode
from decks.charts import bar_chart
from dreaddraw.engine import ENGINE_VERSION, load_cardset
from dreaddraw.engine.bots import BOTS
from dreaddraw.engine.game import MAX_PLAYERS, MIN_PLAYERS
from dreaddraw.engine.tournament import merge, play_chunk
from dreaddraw.models import bot_name
from playtest.jobs.registry import JobKind, register


class TournamentParams(serializers.Serializer[dict[str, Any]]):
    """The declared types of a tournament's parameters (checked before validate_params)."""

    lineup = serializers.ListField(child=serializers.ChoiceField(choices=list(BOTS)), min_length=MIN_PLAYERS,
                                   max_length=MAX_PLAYERS,
                                   help_text=f"One bot per seat, {MIN_PLAYERS} to {MAX_PLAYERS} seats.")


def validate_params(params: dict[str, Any], owner: object) -> dict[str, Any]:
    """{"lineup": ["probability", "heuristic", ...]}: one bot per seat, 2 to 6 seats."""
    lineup = params.get("lineup")
    if not isinstance(lineup, list) or not MIN_PLAYERS <= len(lineup) <= MAX_PLAYERS:
        raise DomainError(f"lineup: a list of {MIN_PLAYERS} to {MAX_PLAYERS} bots, one per seat.",
                          code=ErrorCode.INVALID,
                          details={"field": "lineup"})
    for i, bot in enumerate(lineup):
        if bot not in BOTS:
            raise DomainError(f"lineup[{i}]: {bot!r} is not a bot (one of {', '.join(BOTS)}).", code=ErrorCode.INVALID,
                              details={"field": f"lineup[{i}]"})
    return {"lineup": list(lineup), "set": load_cardset().version}


def present(result: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    histogram = result.get("rounds_histogram", {})
    bots = [{**b, "name": bot_name(b["bot"])} for b in result.get("bots", [])]  # named as the form named them
    chart = bar_chart("Games by length in rounds", [(k, v) for k, v in histogram.items()])
    return {**result, "bots": bots, "rounds_chart": chart}


DREADDRAW_TOURNAMENT = register(JobKind(
    name="dreaddraw_tournament",
    label="Dread Draw bot tournament",
    play_chunk=play_chunk,
    merge=merge,
    engine_version=ENGINE_VERSION,
    chunk_size=500,
    params_serializer=TournamentParams,
    validate_params=validate_params,
    report_template="dreaddraw/tournament_report.html",
    present=present,
))
