"""A tuning run's plan of several swaps (pure Python, no Django): after the race, its clear gains one after another.

The race (tuning_race) ranks single swaps against the unchanged deck. A deck with several weak cards needs several
swaps, and two swaps that each help alone need not help together, so the run goes on with the budget the race left
(tuning_race.CHAIN_SHARE), one chained stage after another, each on new deals (seed indices no stage played
before), so every gain is confirmed on games that did not choose it:

- the first chained stage plays the race's finalists and the unchanged deck again;
- the best swap of a chained stage is accepted when its whole 95% interval (widened for the swaps it was picked
  from: tuning_race.improvement) is an improvement over the stage's own deck; the next stage's deck holds every
  swap accepted so far (its plan's `base`), and races the swaps still compatible with it (their card out still in
  the deck, none taken back out or brought back, the copy limits kept: a second copy of a card brought in is
  fine);
- the chain stops at the first stage with no clear gain, when no swap is left, or when the budget is spent.

A chained stage's plan is the race's, {"games", "arms", "per_arm", "start"}, with "base": the accepted arms, in
order (arm 0 of the stage is the deck with them; arm k, that deck with swap k as well).
"""

from __future__ import annotations

from typing import Any

from core.formats import FORMATS

from . import tuning_race


def _improvements(params: dict[str, Any], stage: dict[str, Any]) -> dict[int, dict[str, float]]:
    values = {int(arm): vals for arm, vals in stage["result"]["values"].items()}
    compared = len(values) - 1  # the stage's best is accepted: judged beside every swap it raced
    return {arm: tuning_race.improvement(params, vals, values[0], compared) for arm, vals in values.items() if arm}


def _clear_best(gains: dict[int, dict[str, float]]) -> int | None:
    if not gains:
        return None
    best = min(gains, key=lambda arm: (-gains[arm]["mean"], arm))
    return best if gains[best]["low"] > 0 else None


def accepted_in(params: dict[str, Any], stage: dict[str, Any]) -> int | None:
    """The stage's best swap (by its mean improvement on the stage's own deals) if its gain is clear, else None."""
    return _clear_best(_improvements(params, stage))


def compatible(params: dict[str, Any], base: list[int], arm: int) -> bool:
    """Whether swap `arm` can follow the accepted swaps: its card out is still in the deck they make, it takes out
    no card they brought in nor brings back one they took out, and the deck keeps to its copy limits (DC-4, DC-5):
    each swap alone was checked legal with one more copy of its card in, and a copy limit is the one rule that two
    swaps together can break (both keep the deck's size, and each card's type and craft were checked alone)."""
    swaps = params["candidates"]
    swap = swaps[arm - 1]
    listing = tuning_race.arm_list(params["deck"], swaps, 0, base)
    if swap["cut"] not in listing:
        return False
    if swap["cut"] in {swaps[k - 1]["add"] for k in base} or swap["add"] in {swaps[k - 1]["cut"] for k in base}:
        return False
    rules = FORMATS[params["format"]]
    card = params.get("cards", {}).get(swap["add"]) or params["deck"].get("cards", {}).get(swap["add"]) or {}
    return listing.count(swap["add"]) < (rules.unique_limit if card.get("is_unique") else rules.copy_limit)


def _split(stages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    race = [s for s in stages if "base" not in s["plan"]]
    return race, stages[len(race):]


def _after(params: dict[str, Any], stage: dict[str, Any]) -> tuple[int | None, list[int], list[int]]:
    """What a chained stage leaves: its accepted swap (None: no clear gain, and the chain ends), the swaps accepted
    so far with it, and the swaps still to try on the deck they make."""
    accepted = accepted_in(params, stage)
    if accepted is None:
        return None, [], []
    base = [*stage["plan"]["base"], accepted]
    pool = [arm for arm in stage["plan"]["arms"][1:] if arm != accepted and compatible(params, base, arm)]
    return accepted, base, pool


def next_stage(params: dict[str, Any], stages: list[dict[str, Any]]) -> dict[str, Any] | None:
    race, chain = _split(stages)
    if not chain:
        plan = tuning_race.next_stage(params, race)
        if plan is not None or not race:
            return plan
        base: list[int] = []
        pool = list(race[-1]["plan"]["arms"][1:])
    else:
        accepted, base, pool = _after(params, chain[-1])
        if accepted is None:
            return None
    if not pool:
        return None
    unit = tuning_race.unit_of(params)
    left = params["budget"] - sum(stage["plan"]["games"] for stage in stages)
    arms = [0, *pool]
    # At most one stage per swap still in the pool: each takes its share of what is left, the last all of it.
    per_arm = left // len(pool) // len(arms) // unit * unit
    if per_arm < unit:
        return None
    last = stages[-1]["plan"]
    return {"games": per_arm * len(arms), "arms": arms, "per_arm": per_arm, "start": last["start"] + last["per_arm"],
            "base": base}


def conclude(params: dict[str, Any], stages: list[dict[str, Any]]) -> dict[str, Any]:
    """The race's conclusion (every swap against the unchanged deck, over the stages that played it), and the plan:
    the swaps accepted in order, each with its improvement over the deck with the swaps before it."""
    # The swaps' own figures: the stages against the unchanged deck (the race, then the first chained stage).
    result = tuning_race.conclude(params, [stage for stage in stages if not stage["plan"].get("base")])
    race, chain = _split(stages)
    plan = []
    # What the first chained stage (against the unchanged deck, on new deals) made of each swap it tried: the race's
    # "clear" is confirmed there or not, and the report says which.
    confirmations = {str(arm): gains for arm, gains in _improvements(params, chain[0]).items()} if chain else {}
    for index, stage in enumerate(chain, start=len(race)):
        gains = _improvements(params, stage)
        arm = _clear_best(gains)
        if arm is None:
            break
        swap = params["candidates"][arm - 1]
        plan.append({"arm": arm, "cut": swap["cut"], "add": swap["add"], "stage": index, **gains[arm]})
    return {**result, "games": sum(stage["result"]["games"] for stage in stages), "stages": len(stages),
            "chained_stages": len(chain), "plan": plan, "confirmations": confirmations}


def shortfall(params: dict[str, Any], stages: list[dict[str, Any]], short: int) -> str:
    """Why a finished run played `short` games fewer than its budget: the one reason that ended it."""
    plans = [stage["plan"] for stage in stages]
    if "base" not in plans[-1]:  # no chained stage ran: the race's own remainder, and the share kept for the chain
        race_short = max(tuning_race.race_budget(params["budget"]) - sum(plan["games"] for plan in plans), 0)
        kept = short - race_short
        if kept <= 0:
            return tuning_race.shortfall(params, plans, short)
        unit, finalists = tuning_race.unit_of(params), len(plans[-1]["arms"]) - 1
        games = "game" if unit == 1 else "games"
        race = (f"{tuning_race.shortfall(params, plans, race_short)}; and " if race_short else
                f"the run stopped {short} games short of its budget: ")
        need = finalists * (finalists + 1) * unit  # next_stage's least: a unit a deck, for each stage it may play
        return (f"{race}the {kept} games kept to confirm the race's best swaps on new deals were too few for that "
                f"check, which needs {need} or more here: its first stage plays the unchanged deck and the "
                f"{finalists} swaps {unit} {games} each at least, with as much kept for each stage after it")
    games = "game" if short == 1 else "games"
    said = (f"the run stopped {short} {games} short of its budget: after the race, its chained stages try the swaps "
            "on the deck with those already confirmed, and ")
    accepted, base, pool = _after(params, stages[-1])
    if accepted is None:
        return said + f"its stage {len(stages)} confirmed none of the {len(plans[-1]['arms']) - 1} it tried"
    if not pool:
        return said + (f"after {len(base)} confirmed, no swap was left that could follow them (each one's card out "
                       "taken out already, or a card they brought in or took out, or a copy limit)")
    unit = tuning_race.unit_of(params)
    need = len(pool) * (len(pool) + 1) * unit  # next_stage's least: a unit a deck, for each stage it may play
    return said + (f"after {len(base)} confirmed, the {short} left were too few for another stage, which needs "
                   f"{need} or more here: the deck with them and the {len(pool)} "
                   f"{'swap' if len(pool) == 1 else 'swaps'} still to try {unit} "
                   f"{'game' if unit == 1 else 'games'} each at least, with as much kept for each stage after it")
