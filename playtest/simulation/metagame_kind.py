"""The metagame table job kind: every pair of 2 to 12 decks, seat-rotated, one policy on every seat.

Submission snapshots every deck (as the playtest kind does), so the table says exactly what was played; the
number of games is fixed by the parameters (pairs x games a pair), and must stay within PLAYTEST_MAX_GAMES.
The budget of a table is shown before it is submitted, as games and as an estimated time (`budget`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from core.errors import DomainError, ErrorCode
from decks.errors import DeckNotFound
from decks.selectors import deck_for_viewer, starter_deck_list
from playtest.dreadgate import ENGINE_VERSION, GameSetupError, new_game
from playtest.jobs.registry import JobKind, register
from playtest.policies import POLICIES, chunk_games
from playtest.simulation import metagame
from playtest.simulation.games import deck_cards
from playtest.simulation.job_kind import check_deck_format, deck_snapshot, summarize_params
from playtest.simulation.metagame_report import table
from playtest.simulation.run_speed import measured_speed, time_estimate

METAGAME = "dreadgate_metagame"
MIN_DECKS, MAX_DECKS = 2, 12
METAGAME_FORMATS = ("standard", "quick")  # the starter decks serve both; Tactical decks are another game
DEFAULT_GAMES_PER_PAIR = 400
DEFAULT_POLICY = "matchup"


class MetagameParams(serializers.Serializer):
    """The declared types of a metagame table's parameters (checked before validate_params)."""

    decks = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=2**63 - 1), required=False,
                                  max_length=MAX_DECKS, default=list,
                                  help_text=f"Deck ids: your decks and public decks, {MIN_DECKS} to {MAX_DECKS} in all "
                                            "with the starters.")
    starters = serializers.BooleanField(required=False, default=False,
                                        help_text="Add the six starter decks to the table (before `decks`).")
    format = serializers.ChoiceField(choices=list(METAGAME_FORMATS), default="standard")
    policy = serializers.ChoiceField(choices=list(POLICIES), default=DEFAULT_POLICY,
                                     help_text="The policy that plays every deck.")
    games_per_pair = serializers.IntegerField(min_value=2, max_value=2**31 - 1, default=DEFAULT_GAMES_PER_PAIR,
                                              help_text="Games each pair plays, even: both seats of every seed.")


def _field_error(field: str, message: str, **details: Any) -> DomainError:
    code = details.pop("code", "invalid_params")
    return DomainError(f"{field}: {message}", code=code, details={"field": field, **details})


def pair_count(decks: int) -> int:
    return decks * (decks - 1) // 2


def check_size(decks: int, games_per_pair: int) -> int:
    """The table's games; a DomainError naming the field when they are not within the run limit."""
    games = pair_count(decks) * games_per_pair
    maximum = settings.PLAYTEST_MAX_GAMES
    if games > maximum:
        pairs, most = pair_count(decks), maximum // pair_count(decks) // 2 * 2
        raise _field_error("games_per_pair", f"{pairs} pairs of {games_per_pair:,} games make {games:,} games; a run "
                                             f"plays at most {maximum:,}, so at most {most:,} games a pair with "
                                             f"{decks} decks.", code=ErrorCode.GAMES_OUT_OF_RANGE, maximum=maximum,
                           games=games)
    return games


def _deck_ids(params: dict[str, Any]) -> list[int]:
    """The starters (if asked) then the listed decks; each deck once, 2 to 12 of them."""
    ids = list(starter_deck_list(format="standard").values_list("pk", flat=True)) if params.get("starters") else []
    starters = len(ids)
    for k, deck_id in enumerate(params.get("decks") or []):
        if deck_id in ids:
            raise _field_error(f"decks[{k}]", f"deck {deck_id} is already in the table"
                                              + (" (a starter deck)" if ids.index(deck_id) < starters else ""))
        ids.append(deck_id)
    if len(ids) < MIN_DECKS:
        raise _field_error("decks", f"a table needs {MIN_DECKS} to {MAX_DECKS} decks; {len(ids)} given",
                           minimum=MIN_DECKS)
    if len(ids) > MAX_DECKS:
        given = f"the {starters} starters and {len(ids) - starters} more" if starters else str(len(ids))
        raise _field_error("decks", f"a table holds at most {MAX_DECKS} decks; {given} make {len(ids)}",
                           maximum=MAX_DECKS)
    return ids


def validate_params(params: dict[str, Any], owner) -> dict[str, Any]:
    """{"decks": [id, ...], "starters", "format", "policy", "games_per_pair"} (types checked by MetagameParams)
    -> the parameters the workers play from, with every deck's snapshot."""
    ids = _deck_ids(params)
    starters = params.get("starters", False)
    offset = len(ids) - len(params.get("decks") or [])  # the starters come first
    fmt = params.get("format") or "standard"
    if fmt not in METAGAME_FORMATS:
        raise _field_error("format", f"must be one of {', '.join(METAGAME_FORMATS)}")
    policy = params.get("policy") or DEFAULT_POLICY
    if policy not in POLICIES:
        raise _field_error("policy", f"must be one of {', '.join(POLICIES)}")
    per_pair = params.get("games_per_pair", DEFAULT_GAMES_PER_PAIR)
    if problem := games_per_pair_problem(per_pair):
        raise _field_error("games_per_pair", problem)
    check_size(len(ids), per_pair)
    snapshots = []
    for k, deck_id in enumerate(ids):
        field = f"decks[{k - offset}]" if k >= offset else "starters"
        try:
            deck = deck_for_viewer(deck_id=deck_id, user=owner)
        except DeckNotFound:
            raise DeckNotFound(f"{field}: no deck {deck_id} that you may see (your decks and public decks only)",
                               details={"field": field}) from None
        check_deck_format(deck, fmt, field)
        snapshot = deck_snapshot(deck)
        try:
            cards = deck_cards(snapshot)
            new_game([cards, cards], 0, fmt)
        except GameSetupError as exc:
            raise DomainError(f"{field}: “{deck.name}” can't be played: {exc}", code=ErrorCode.DECK_UNPLAYABLE,
                              details={"field": field}) from exc
        snapshots.append(snapshot)
    return {"mode": "metagame", "format": fmt, "policy": policy, "games_per_pair": per_pair, "starters": starters,
            "decks": snapshots}


def games_of(params: dict[str, Any]) -> int:
    return pair_count(len(params["decks"])) * params["games_per_pair"]


def default_title(params: dict[str, Any]) -> str:
    return f"Metagame table: {len(params['decks'])} decks, {params['format'].title()}, {params['policy']}"


def present(result: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    return table(result, params)


def throughput(fmt: str, policy: str) -> dict[str, Any]:
    """Games per second to expect: measured over the last finished tables of the same format and policy, or,
    before any has finished, calibrated on the starter decks (run_speed)."""
    speed = measured_speed(kind=METAGAME, policies=(policy, policy), fmt=fmt, format=fmt, policy=policy)
    if speed["source"] == "measured":
        tables = f"finished {fmt} table" if speed["runs"] == 1 else f"{speed['runs']} finished {fmt} tables"
        text = f"measured over the last {tables} played by {policy}"
    else:
        text = (f"no {fmt} table played by {policy} has finished yet: "
                f"{'timed' if speed['games_per_second'] else 'a worker is timing'} starter decks playing each other "
                "with it, on one worker")
    return {**speed, "source_text": text}


def games_per_pair_problem(per_pair: int) -> str | None:
    """What is wrong with a table's games a pair, in the player's words; None when a table takes it."""
    if per_pair < 2:
        return f"{per_pair} is too few: a pair plays 2 games or more"
    if per_pair % 2:
        return f"{per_pair} is odd: each seed is played from both seats, so give an even number"
    return None


def budget(*, decks: int, games_per_pair: int, fmt: str = "standard", policy: str = DEFAULT_POLICY) -> dict[str, Any]:
    """What a table would cost: its pairs and games, whether that is within the run limit, and an estimated time."""
    games = pair_count(decks) * games_per_pair
    speed = throughput(fmt, policy)
    return {"decks": decks, "pairs": pair_count(decks), "games_per_pair": games_per_pair, "games": games,
            "maximum": settings.PLAYTEST_MAX_GAMES, "within_limit": games <= settings.PLAYTEST_MAX_GAMES,
            **time_estimate(games, speed), **speed}


DREADGATE_METAGAME = register(JobKind(
    name=METAGAME,
    label="Dreadgate metagame table",
    play_chunk=metagame.play_chunk,
    merge=metagame.merge,
    engine_version=ENGINE_VERSION,
    chunk_size=100,
    chunk_size_of=lambda params, usual: chunk_games([params["policy"]], usual),
    params_serializer=MetagameParams,
    validate_params=validate_params,
    report_template="playtest/reports/metagame.html",
    present=present,
    summarize_params=summarize_params,  # a table's decks summarised as a playtest's
    games_of=games_of,
    default_title=default_title,
))
