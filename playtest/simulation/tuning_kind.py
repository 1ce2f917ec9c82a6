"""The deck-tuning job kind: which swaps would make a deck better, with evidence (a staged run).

Submission checks the deck and the budget and snapshots the deck (and, for a matchup goal, the gauntlet): it stays
cheap. The run's first stage, on a worker (`prepare`), builds the legal swaps of the snapshot and their shortlist
(tuning_candidates); the race (tuning_race) plays it out in the stages after, and the chain (tuning_chain) applies
its clear gains one after another, each confirmed on new deals. `swaps_apply` turns a suggestion, or the whole
plan, into a new version of the deck, as any edit does (history, undo).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from rest_framework import serializers

from core.errors import DomainError, ErrorCode
from core.intbounds import MAX_BIG_INTEGER
from decks.cardinfo import Entry
from decks.errors import DeckNotFound
from decks.models import Deck
from decks.selectors import (
    can_edit,
    can_view,
    card_index,
    deck_entries,
    deck_for_viewer,
    deck_gateway_info,
    deck_report,
    starter_deck_list,
)
from decks.services import deck_copy, deck_update, words_within
from decks.validation import validate_deck
from playtest.dreadgate import ENGINE_VERSION
from playtest.jobs.registry import JobKind, register
from playtest.models import Run, RunStatus
from playtest.simulation import tuning_chain, tuning_race
from playtest.simulation.job_kind import card_definitions, check_deck_format, deck_snapshot, deck_summary
from playtest.simulation.report import beyond_notice
from playtest.simulation.run_speed import measured_speed, time_estimate
from playtest.simulation.tuning_candidates import MAX_SHORTLIST, SHORTLIST_RULE, shortlist_of, swapped_entries

TUNING = "dreadgate_tuning"
GOALS = {"goldfish": "fewer turns to win against no opponent",
         "matchup": "a higher win rate against a gauntlet of decks"}
TUNING_FORMATS = ("standard", "quick")
DEFAULT_BUDGET = 20_000
MIN_BUDGET = 200
MAX_GAUNTLET = 12
# Games per second before any tuning run of the same goal and format has finished: the AI bench's slower end on
# one worker process (docs/ai.md).
CAVEAT = ("A suggestion is as good as the AI that measured it: these swaps win more (or sooner) when the playtest AI "
          "plays both decks, which is not the same as when you do.")


class TuningParams(serializers.Serializer):
    """The declared types of a tuning run's parameters (checked before validate_params)."""

    deck = serializers.IntegerField(min_value=1, max_value=MAX_BIG_INTEGER, help_text="The deck to tune.")
    key = serializers.CharField(max_length=64, required=False, allow_blank=True, allow_null=True,
                                help_text="The share key of an unlisted deck.")
    goal = serializers.ChoiceField(choices=list(GOALS), default="goldfish")
    format = serializers.ChoiceField(choices=list(TUNING_FORMATS), required=False,
                                     help_text="Standard or Quick; by default the deck's own.")
    budget = serializers.IntegerField(min_value=1, max_value=2**31 - 1, default=DEFAULT_BUDGET,
                                      help_text="Games the race may play in all (at most the run limit).")
    gauntlet = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=MAX_BIG_INTEGER),
                                     required=False, default=list, max_length=MAX_GAUNTLET,
                                     help_text="Matchup goal: the opposing decks (yours or public); by default the "
                                               "six starter decks.")


def _field_error(field: str, message: str, code: str = "invalid_params", **details: Any) -> DomainError:
    return DomainError(f"{field}: {message}", code=code, details={"field": field, **details})


def _gauntlet(params: dict[str, Any], owner, fmt: str) -> list[dict[str, Any]]:
    ids = params.get("gauntlet") or list(starter_deck_list(format="standard").values_list("pk", flat=True))
    snapshots = []
    for k, deck_id in enumerate(ids):
        field = f"gauntlet[{k}]" if params.get("gauntlet") else "gauntlet"
        try:
            deck = deck_for_viewer(deck_id=deck_id, user=owner)
        except DeckNotFound:
            raise DeckNotFound(f"{field}: no deck {deck_id} that you may see (your decks and public decks only)",
                               details={"field": field}) from None
        check_deck_format(deck, fmt, field)
        if not deck_report(deck).legal:
            raise _field_error(field, f"“{deck.name}” is not a legal deck; a gauntlet plays legal decks only",
                               code=ErrorCode.DECK_ILLEGAL)
        snapshots.append(deck_snapshot(deck))
    if not snapshots:
        raise _field_error("gauntlet", "a matchup goal needs at least one opposing deck")
    return snapshots


def validate_params(params: dict[str, Any], owner) -> dict[str, Any]:
    """{"deck", "key", "goal", "format", "budget", "gauntlet"} -> the race's parameters before its shortlist: the
    deck's snapshot, its entries and gateway (what `prepare` builds the shortlist from) and the shortlist's size."""
    deck = deck_for_viewer(deck_id=params["deck"], user=owner, key=params.get("key"))
    fmt = params.get("format") or deck.format
    if fmt not in TUNING_FORMATS:
        raise _field_error("format", f"tuning plays Standard and Quick; “{deck.name}” is a "
                                     f"{deck.get_format_display()} deck, so choose one of them")
    check_deck_format(deck, fmt, "deck")
    report = deck_report(deck)
    if not report.legal:
        raise _field_error("deck", f"“{deck.name}” is not legal ({report.errors[0].message}); fix it first, then "
                                   "tune it", code=ErrorCode.DECK_ILLEGAL)
    goal = params.get("goal", "goldfish")
    budget = params.get("budget", DEFAULT_BUDGET)
    maximum = settings.PLAYTEST_MAX_GAMES
    if not MIN_BUDGET <= budget <= maximum:
        raise _field_error("budget", f"{budget:,} games: a tuning run plays {MIN_BUDGET:,} to {maximum:,}",
                           code=ErrorCode.GAMES_OUT_OF_RANGE, minimum=MIN_BUDGET, maximum=maximum)
    gauntlet = _gauntlet(params, owner, fmt) if goal == "matchup" else []
    unit = 1 if goal == "goldfish" else 2 * len(gauntlet)
    wanted = tuning_race.fitting_shortlist(tuning_race.race_budget(budget), MAX_SHORTLIST, unit)
    if not wanted:
        raise _field_error("budget", f"{budget:,} games are too few to race even one swap (the race plays "
                                     f"{tuning_race.race_budget(budget):,} of them, the rest confirm its gains; one "
                                     f"swap needs {max(tuning_race.MIN_GAMES_PER_ARM, unit)} games and as many for "
                                     "the unchanged deck); give a larger budget", code=ErrorCode.GAMES_OUT_OF_RANGE)
    entries = [[entry.card.collector_number, entry.count] for entry in deck_entries(deck)]
    gateway = deck.gateway.collector_number if deck.gateway_id else None
    return {"goal": goal, "format": fmt, "budget": budget, "deck": deck_snapshot(deck), "gauntlet": gauntlet,
            "entries": entries, "gateway": gateway, "shortlist_size": wanted, "shortlist_rule": SHORTLIST_RULE}


def prepare(params: dict[str, Any]) -> dict[str, Any]:
    """The run's first stage, on a worker: the shortlist of the deck as submitted (its snapshot's entries), with the
    definitions of the cards the swaps bring in. A deck with no legal single swap fails the run, saying so."""
    index = card_index()
    cards = {code: index.resolve(code) for code in [code for code, _ in params["entries"]] + [params.get("gateway")]
             if code}
    gone = sorted(code for code, card in cards.items() if card is None)
    if gone:
        raise _field_error("deck", f"{', '.join(gone)} left the catalog since the run was submitted; submit it again",
                           code=ErrorCode.SWAP_STALE)
    entries = [Entry(cards[code], count) for code, count in params["entries"]]
    gateway = cards[params["gateway"]] if params.get("gateway") else None
    shortlist, legal = shortlist_of(entries, gateway, deck_id=params["deck"]["id"], fmt=params["format"],
                                    goal=params["goal"], limit=params["shortlist_size"])
    if not shortlist:
        raise _field_error("deck", f"“{params['deck']['name']}” has no legal single swap to try",
                           code=ErrorCode.NOTHING_TO_TUNE)
    return {**params, "candidates": [swap.as_dict() for swap in shortlist],
            "cards": card_definitions({swap.add.id for swap in shortlist}), "considered": legal}


def games_of(params: dict[str, Any]) -> int:
    return params["budget"]


def default_title(params: dict[str, Any]) -> str:
    return f"Tuning {params['deck']['name']}: {params['goal']}, {params['format'].title()}"


def summarize_params(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters without the card definitions (they are the workers' input)."""
    return {"goal": params["goal"], "format": params["format"], "budget": params["budget"],
            "deck": deck_summary(params["deck"]), "gauntlet": [deck_summary(d) for d in params.get("gauntlet", [])],
            "candidates": params.get("candidates", []), "considered": params.get("considered"),
            "shortlist_rule": params.get("shortlist_rule", "")}


def _name(params: dict[str, Any], code: str) -> str:
    card = params["cards"].get(code) or params["deck"]["cards"].get(code) or {}
    return card.get("name", code)


UNITS = {"goldfish": ("turns", "fewer turns to win"), "matchup": ("points", "win-rate points")}


def _verdict(swap: dict[str, Any], checked: dict[str, float] | None, step: int | None) -> str:
    """A swap's verdict: the race's, unless the run tried it again on new deals (`checked`) and did not confirm it
    (a swap can be clear over all its games and not on the new deals alone, and a plan is made of confirmed ones),
    or confirmed it and planned others; a swap of the plan (`step`, its place there) says so."""
    if swap["high"] < 0:
        return "Clear loss"
    if swap["low"] <= 0:
        return "Not clear"
    if step is not None:
        return f"Clear gain, confirmed on new deals: step {step} of the plan"
    if checked is None:
        return "Clear gain"
    if checked["low"] > 0:  # confirmed, and left out: a swap that gained more at its stage was kept
        return "Clear gain, confirmed on new deals; not in the plan, which kept other swaps"
    return "Clear in the race, not confirmed on new deals"


def _ranked(cuts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cuts ordered best first, each with its rank: a cut shares the rank of the first cut of its rank while its
    interval reaches that one's (the games played cannot tell them apart, so their order among them is noise), and
    starts a rank of its own, its place in the list, once its interval lies wholly below."""
    ranked: list[dict[str, Any]] = []
    for place, cut in enumerate(cuts, start=1):
        leader = ranked[-1]["leader"] if ranked else None
        if leader is None or cut["high"] < leader["low"]:
            leader = {**cut, "place": place}
        ranked.append({**cut, "rank": leader["place"], "leader": leader})
    tied = {cut["rank"] for cut in ranked if sum(other["rank"] == cut["rank"] for other in ranked) > 1}
    return [{**{k: v for k, v in cut.items() if k != "leader"}, "tied": cut["rank"] in tied} for cut in ranked]


def present(result: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The report: the best swaps (the last stage's, best first) and the cheapest cuts, each with its interval."""
    scale = 1.0 if params["goal"] == "goldfish" else 100.0
    # A swap of the plan shows the confirmation that put it there: against the deck with the plan's swaps before it,
    # on the deals of its own stage (the first stage's figure, against the unchanged deck, did not decide it).
    planned = {step["arm"]: (number, step) for number, step in enumerate(result.get("plan", []), start=1)}
    swaps = []
    for swap in result["swaps"]:
        number, checked = planned.get(swap["arm"], (None, result.get("confirmations", {}).get(str(swap["arm"]))))
        swaps.append({**swap, "cut_name": _name(params, swap["cut"]), "add_name": _name(params, swap["add"]),
                      "shown": {k: swap[k] * scale for k in ("mean", "low", "high")},
                      "clear": swap["low"] > 0, "index": swap["arm"] - 1,
                      "verdict": _verdict(swap, checked, number),
                      "checked": {k: checked[k] * scale for k in ("mean", "low", "high")} if checked else None,
                      "checked_after": (f", with the plan's step{'s' if number > 2 else ''} before it made"
                                        if number is not None and number > 1 else ""),
                      "new_deals": {k: checked[k] for k in ("mean", "low", "high")} if checked else None})
    last = max((s["stage"] for s in swaps), default=0)
    best = [s for s in swaps if s["stage"] == last]
    # Each card out with its best replacement (the estimate of the latest stage it reached: the most games), then
    # ordered by what giving the card up costs: the greater the improvement of its best swap, the cheaper the cut.
    cheapest: dict[str, dict[str, Any]] = {}
    for swap in sorted(swaps, key=lambda s: (-s["stage"], -s["mean"])):
        cheapest.setdefault(swap["cut"], swap)
    cuts = _ranked(sorted(cheapest.values(), key=lambda s: -s["mean"])[:8])
    baseline = result["baseline"]
    plan = [{**step, "cut_name": _name(params, step["cut"]), "add_name": _name(params, step["add"]),
             "shown": {k: step[k] * scale for k in ("mean", "low", "high")}, "index": step["arm"] - 1}
            for step in result.get("plan", [])]
    return {"goal": params["goal"], "goal_text": GOALS[params["goal"]], "unit": UNITS[params["goal"]],
            "baseline": {**baseline, "shown": baseline["value"] * scale}, "best": best, "plan": plan,
            "chained_stages": result.get("chained_stages", 0), "chains": "plan" in result,
            "cheapest_cuts": cuts, "raced": len(swaps), "considered": params.get("considered"),
            "stages": result["stages"], "games": result["games"], "budget": params["budget"],
            "shortlist_rule": params.get("shortlist_rule", SHORTLIST_RULE), "caveat": CAVEAT,
            "not_won_penalty": tuning_race.NOT_WON_PENALTY,
            "beyond_notice": beyond_notice(params["deck"], params["format"])}


def throughput(goal: str, fmt: str) -> dict[str, Any]:
    """Games per second to expect: measured over the last finished tuning runs of the same goal and format, or,
    before any has finished, calibrated on the starter decks (run_speed)."""
    policies = ("matchup", "matchup") if goal == "matchup" else ("goldfish", "passive")
    speed = measured_speed(kind=TUNING, policies=policies, fmt=fmt, goal=goal, format=fmt)
    if speed["source"] == "measured":
        runs = "finished tuning run" if speed["runs"] == 1 else f"{speed['runs']} finished tuning runs"
        return {**speed, "source_text": f"measured over the last {runs} like this one"}
    timed = "timed" if speed["games_per_second"] else "a worker is timing"
    return {**speed, "source_text": f"no tuning run like this one has finished yet: {timed} starter decks with the "
                                    "same AI, on one worker"}


def budget_estimate(*, budget: int, goal: str, fmt: str) -> dict[str, Any]:
    speed = throughput(goal, fmt)
    return {"games": budget, "minimum": MIN_BUDGET, "maximum": settings.PLAYTEST_MAX_GAMES,
            **time_estimate(budget, speed), **speed}


def plan_indexes(run: Run) -> list[int]:
    """The swaps of the run's plan (its chained gains, in order), as indexes of its candidates."""
    return [step["arm"] - 1 for step in (run.result or {}).get("plan", [])]


def swaps_apply(*, run: Run, indexes: list[int], actor) -> Deck:
    """Apply the run's swaps `indexes`, in order, to the deck it tuned, as one new version (the deck's history keeps
    the old); someone else's deck (a public deck tuned) is copied first, as the person's own, and the copy changed
    (the same copy for the run's later swaps).
    Refused, with nothing changed, when a card of a swap left the catalog or the deck, or when the swaps make the
    deck break a rule it kept (each swap was checked alone, against the deck as tuned: not against the deck as it
    is now, after other swaps of the run applied one at a time or other edits)."""
    if run.kind != TUNING or run.status != RunStatus.DONE:
        raise DomainError("Only a finished tuning run's swaps can be applied.", code=ErrorCode.NOT_APPLICABLE,
                          status_code=409)
    swaps = run.params["candidates"]
    for index in indexes:
        if not 0 <= index < len(swaps):
            raise _field_error("swap", f"no swap {index}; this run raced {len(swaps)}")
    if not indexes:
        raise DomainError("This run's plan holds no swap: no gain was confirmed.", code=ErrorCode.NOT_APPLICABLE,
                          status_code=409)
    deck = Deck.objects.filter(pk=run.params["deck"]["id"]).select_related("gateway").first()
    if deck is None or not can_view(deck, actor, run.params.get("key")):
        raise DeckNotFound("The tuned deck no longer exists, or is no longer yours to see.")
    _not_applied_yet(run, indexes)
    # Someone else's deck (a public one): the swaps go on the person's copy of it, made at the first of them.
    original, tuned_name = deck, f"{deck.name} (tuned)"[:100]
    if not can_edit(deck, actor):
        deck = (Deck.objects.filter(owner=actor, copied_from=original, name=tuned_name).select_related("gateway")
                .order_by("-pk").first() or original)
    entries, said = deck_entries(deck), []
    kept = entries
    for index in indexes:
        cut, add = (card_index().resolve(swaps[index][k]) for k in ("cut", "add"))
        if cut is None or add is None:
            raise DomainError("A card of this swap is no longer in the catalog.",
                              code=ErrorCode.SWAP_STALE, status_code=409)
        if not any(e.card.id == cut.id for e in entries):
            held = sum(e.count for e in kept if e.card.id == cut.id)
            wanted = held + 1  # the swaps before this one took the others
            raise DomainError(f"These swaps take {wanted} copies of {cut.name} out, and “{deck.name}” holds {held} "
                              "now; the deck changed since the run." if held else
                              f"{cut.name} is no longer in “{deck.name}”; the deck changed since the run.",
                              code=ErrorCode.SWAP_STALE, status_code=409)
        entries = swapped_entries(entries, cut, add)
        said.append(f"{cut.name} out, {add.name} in")
    broken = _rules_broken(kept, entries, run.params["format"], deck_gateway_info(deck))
    if broken:
        what = "Together these swaps make" if len(indexes) > 1 else "This swap makes"
        raise DomainError(f"{what} a deck that is not legal: {broken[0].message}", code=ErrorCode.SWAP_STALE,
                          status_code=409)
    with transaction.atomic():
        locked = Run.objects.select_for_update().get(pk=run.pk)
        _not_applied_yet(locked, indexes)  # again under the run's lock: two requests sent at once apply once
        if not can_edit(deck, actor):
            deck = deck_copy(deck=original, owner=actor, name=tuned_name)
        deck = deck_update(deck=deck, actor=actor, expected_version=deck.version, entries=entries,
                           message=words_within(said, lead="Tuning: "))
        result = locked.result or {}
        applied = {**result.get("applied", {}), **{str(i): deck.version for i in indexes}}
        Run.objects.filter(pk=run.pk).update(result={**result, "applied": applied})
        return deck


def _not_applied_yet(run: Run, indexes: list[int]) -> None:
    """Refuses a swap the run has applied already: each is one copy, and a retried request (its answer lost) would
    take a second copy out. The deck's history keeps what each application did."""
    applied = (run.result or {}).get("applied", {})
    again = [i for i in indexes if str(i) in applied]
    if again:
        raise DomainError(f"Swap {again[0]} of this run was applied already (deck version {applied[str(again[0])]}): "
                          "applying it again would take a second copy out. Change the deck by hand for that.",
                          code=ErrorCode.SWAP_STALE, status_code=409, details={"swap": again[0]})


def _rules_broken(before: list, after: list, fmt: str, gateway) -> list:
    """The rule errors of the deck `after` that the deck `before` did not have (by rule and card)."""
    had = {(issue.code, issue.card) for issue in validate_deck(before, fmt, gateway=gateway).errors}
    return [issue for issue in validate_deck(after, fmt, gateway=gateway).errors if (issue.code, issue.card) not in had]


DREADGATE_TUNING = register(JobKind(
    name=TUNING,
    label="Dreadgate deck tuning",
    play_chunk=tuning_race.play_chunk,
    merge=tuning_race.merge,
    next_stage=tuning_chain.next_stage,
    conclude=tuning_chain.conclude,
    shortfall=tuning_chain.shortfall,
    engine_version=ENGINE_VERSION,
    chunk_size=100,
    params_serializer=TuningParams,
    validate_params=validate_params,
    prepare=prepare,
    report_template="playtest/reports/tuning.html",
    present=present,
    summarize_params=summarize_params,
    games_of=games_of,
    default_title=default_title,
))
