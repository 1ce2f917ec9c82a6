"""Tuning a deck by racing single swaps (pure Python, no Django): the stages of a `dreadgate_tuning` run.

Arm 0 is the unchanged deck; arm k > 0 is the deck with candidate k - 1's swap: one copy of `cut` replaced, in
its place in the list, by one copy of `add`. Replacing in place keeps the deck's size and order, so a seed deals
every arm the same shuffle with one card changed: common random numbers, and each arm's difference from the
unchanged deck is measured on the same games.

The race is successive halving (Karnin, Koren and Somekh, 2013) over the shortlist: its budget (the run's, less
the chain's share: tuning_chain) is split evenly between the stages; in each, the arms still in the race and the
unchanged deck play the same new seeds, and the better half (by the mean paired improvement over every seed so
far) goes on, until at most FINALISTS are left for a last stage that takes what is left of the race's budget.

A stage's plan is {"games", "arms", "per_arm", "start"}: game g of the stage is arm arms[g // per_arm] on seed
index start + g % per_arm. Seed index i is, in goldfish, the deal game_seed(run seed, i); in a matchup, the deal
game_seed(run seed, i // 2) against gauntlet deck (i // 2) % G, the arm moving first when i is even (DG-4.3 lets
the seed choose, so the pair of games deals both ways). Every value depends on (run seed, arm, seed index) only.
"""

from __future__ import annotations

import math
import random
from statistics import fmean, stdev
from typing import Any

from core import stats
from core.interrupt import checkpoint
from playtest.dreadgate import CardDef, new_game
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES

from .games import deck_cards, game_seed

FINALISTS = 4
MIN_GAMES_PER_ARM = 8  # the first stage gives every shortlisted swap at least this many games (the shortlist
# shrinks to fit the budget)
NOT_WON_PENALTY = 5  # goldfish: a game not won within the engine's limits counts as its turns plus this
# Two fifths of a run's budget are kept, after the race, for applying its clear gains one after another, each
# confirmed on new deals (tuning_chain): enough for a few confirmation stages of the finalists.
CHAIN_SHARE = (2, 5)


def arm_list(deck: dict[str, Any], candidates: list[dict[str, str]], arm: int,
             base: list[int] | tuple[int, ...] = ()) -> list[str]:
    """The deck list an arm plays: the unchanged list (arm 0), or the last copy of `cut` replaced by `add`; on a
    chained stage (tuning_chain), after the swaps of `base`, in their order."""
    listing = list(deck["list"])
    for k in (*base, arm) if arm else base:
        swap = candidates[k - 1]
        at = len(listing) - 1 - listing[::-1].index(swap["cut"])
        listing[at] = swap["add"]
    return listing


def _cards(params: dict[str, Any], listing: list[str]) -> list[CardDef]:
    known = {**params["deck"]["cards"], **params["cards"]}
    return deck_cards({"cards": {code: known[code] for code in set(listing)}, "list": listing})


def _play(decks: list[list[CardDef]], fmt: str, seed: int, policies: tuple[str, str]) -> Any:
    state = new_game(decks, seed, fmt)
    by_seat = [POLICIES[policies[state.deck_of_seat[s]]] for s in (0, 1)]
    rngs = [random.Random(seed * 2 + s) for s in (0, 1)]
    while state.winner < 0:
        seat = state.current_player
        state.apply(by_seat[seat](SeatView(state, seat), rngs[seat]))
    return state


def goldfish_value(params: dict[str, Any], deck: list[CardDef], seed: int) -> float:
    """Own turns to win against a passive opponent (lower is better)."""
    state = _play([deck, deck], params["format"], seed, ("goldfish", "passive"))
    seat = state.deck_of_seat.index(0)
    own_turns = (state.turn + (1 if seat == 0 else 0)) // 2
    return float(own_turns if state.winner == seat else own_turns + NOT_WON_PENALTY)


def matchup_value(params: dict[str, Any], deck: list[CardDef], seed: int, opponent: list[CardDef],
                  arm_first: bool) -> float:
    """1 for a win, 0.5 for a draw, 0 for a loss, `matchup` on both sides."""
    decks = [deck, opponent] if arm_first else [opponent, deck]
    state = _play(decks, params["format"], seed, ("matchup", "matchup"))
    ours = 0 if arm_first else 1
    if state.winner not in (0, 1):
        return 0.5
    return 1.0 if state.deck_of_seat[state.winner] == ours else 0.0


def game_value(params: dict[str, Any], seed: int, arm: int, index: int, cache: dict) -> float:
    deck = cache.get(arm)
    if deck is None:
        base = params.get("stage", {}).get("base", ())
        deck = cache[arm] = _cards(params, arm_list(params["deck"], params["candidates"], arm, base))
    if params["goal"] == "goldfish":
        return goldfish_value(params, deck, game_seed(seed, index))
    gauntlet = params["gauntlet"]
    deal = index // 2
    opponent = cache.get(("g", deal % len(gauntlet)))
    if opponent is None:
        opponent = cache.setdefault(("g", deal % len(gauntlet)), deck_cards(gauntlet[deal % len(gauntlet)]))
    # Dealt with the opponent's list in deck slot 1 (or 0): the seed's shuffle of the arm's list is the same
    # for every arm, which is what makes the paired differences small.
    return matchup_value(params, deck, game_seed(seed, deal), opponent, arm_first=index % 2 == 0)


def play_chunk(params: dict[str, Any], seed: int, first_game: int, games: int) -> dict[str, Any]:
    plan = params["stage"]
    per_arm = plan["per_arm"]
    values: dict[str, dict[str, float]] = {}
    cache: dict = {}
    for g in range(first_game, first_game + games):
        checkpoint()
        arm, index = plan["arms"][g // per_arm], plan["start"] + g % per_arm
        values.setdefault(str(arm), {})[str(index)] = game_value(params, seed, arm, index, cache)
    return {"games": games, "values": values}


def merge(partials: list[dict[str, Any]], params: dict[str, Any]) -> dict[str, Any]:
    """A stage's values: for each arm, its values in seed-index order from the stage's start."""
    by_arm: dict[str, dict[int, float]] = {}
    for part in partials:
        for arm, values in part["values"].items():
            by_arm.setdefault(arm, {}).update({int(i): v for i, v in values.items()})
    return {"games": sum(p["games"] for p in partials),
            "values": {arm: [values[i] for i in sorted(values)] for arm, values in sorted(by_arm.items())}}


def arm_values(stages: list[dict[str, Any]]) -> dict[int, list[float]]:
    """Every arm's values over all the stages it played against the unchanged deck, in seed-index order (the same
    indices for every arm of a stage, so arm k's i-th value pairs with the unchanged deck's i-th). A chained stage
    whose deck already holds accepted swaps measures against that deck instead, and is left out."""
    values: dict[int, list[float]] = {}
    for stage in stages:
        if stage["plan"].get("base"):
            continue
        for arm, stage_values in stage["result"]["values"].items():
            values.setdefault(int(arm), []).extend(stage_values)
    return values


def improvement(params: dict[str, Any], arm: list[float], base: list[float], compared: int = 1) -> dict[str, float]:
    """The arm's mean paired improvement over the unchanged deck, with its 95% interval: turns saved in goldfish,
    win-rate points in a matchup. Student's t (a stage of a few games per arm is no large sample), widened for the
    `compared` swaps judged side by side on the same games (Bonferroni), so that the best of them, picked by these
    very games, is not called clear by its luck alone."""
    sign = -1.0 if params["goal"] == "goldfish" else 1.0
    diffs = [sign * (a - b) for a, b in zip(arm, base, strict=True)]
    n = len(diffs)
    mean = fmean(diffs) if n else 0.0
    half = stats.t_quantile(1 - 0.025 / compared, n - 1) * stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    return {"games": n, "mean": mean, "low": mean - half, "high": mean + half, "value": fmean(arm) if arm else 0.0}


def stage_count(shortlist: int) -> int:
    """Stages of a race over `shortlist` swaps: halving until at most FINALISTS, plus the final stage."""
    stages, alive = 1, shortlist
    while alive > FINALISTS:
        alive = math.ceil(alive / 2)
        stages += 1
    return stages


def unit_of(params: dict[str, Any]) -> int:
    """Games per arm come in units: 1 in goldfish; 2 per gauntlet deck in a matchup (both seats of each deal)."""
    return 1 if params["goal"] == "goldfish" else 2 * len(params["gauntlet"])


def per_arm_games(budget: int, shortlist: int, unit: int) -> int:
    """The first stage's games per arm for a budget and a shortlist size."""
    share = budget // stage_count(shortlist) // (shortlist + 1)
    return share // unit * unit


def fitting_shortlist(budget: int, wanted: int, unit: int) -> int:
    """The largest shortlist, up to `wanted`, whose first stage gives each arm MIN_GAMES_PER_ARM games or more
    (rounded up to whole units); 0 if not even one swap fits."""
    floor = max(MIN_GAMES_PER_ARM, unit)
    for size in range(wanted, 0, -1):
        if per_arm_games(budget, size, unit) >= floor:
            return size
    return 0


def race_budget(budget: int) -> int:
    """The games the race may play: the budget less the share kept for chaining its clear gains (tuning_chain)."""
    return budget - budget * CHAIN_SHARE[0] // CHAIN_SHARE[1]


def next_stage(params: dict[str, Any], stages: list[dict[str, Any]]) -> dict[str, Any] | None:
    budget, unit = race_budget(params["budget"]), unit_of(params)
    shortlist = len(params["candidates"])
    total = stage_count(shortlist)
    if not stages:
        alive = list(range(1, shortlist + 1))
        start = 0
    else:
        last = stages[-1]["plan"]
        if len(last["arms"]) - 1 <= FINALISTS or len(stages) >= total:
            return None
        values = arm_values(stages)
        base = values[0]
        ranked = sorted(last["arms"][1:], key=lambda arm: (-improvement(params, values[arm], base)["mean"], arm))
        alive = sorted(ranked[: max(FINALISTS, math.ceil((len(last["arms"]) - 1) / 2))])
        start = last["start"] + last["per_arm"]
    arms = [0, *alive]
    spent = sum(stage["plan"]["games"] for stage in stages)
    if len(stages) + 1 == total:
        per_arm = (budget - spent) // len(arms) // unit * unit  # the final stage takes what is left
    else:
        per_arm = (budget // total) // len(arms) // unit * unit
    if per_arm < unit:
        return None
    return {"games": per_arm * len(arms), "arms": arms, "per_arm": per_arm, "start": start}


def shortfall(params: dict[str, Any], plans: list[dict[str, Any]], short: int) -> str:
    """Why a finished race played `short` games fewer than its budget: every stage gives the unchanged deck and
    each swap still racing the same games, in whole units, so what the last stage could not share evenly stays
    unplayed."""
    last, unit = plans[-1], unit_of(params)
    games = "game" if short == 1 else "games"
    step = "" if unit == 1 else f", in steps of {unit} (both seats against each gauntlet deck)"
    return (f"the race stopped {short} {games} short of its budget: each stage plays the unchanged deck and every "
            f"swap still racing the same number of games{step}, and its last stage gave its {len(last['arms'])} "
            f"decks {last['per_arm']} games each; the {short} left could not be shared among them")


def conclude(params: dict[str, Any], stages: list[dict[str, Any]]) -> dict[str, Any]:
    """Every swap's improvement over the games it played, the stage it reached, and the race's own figures."""
    values = arm_values(stages)
    base = values[0]
    reached = {arm: k for k, stage in enumerate(stages) for arm in stage["plan"]["arms"]}
    swaps = []
    for arm, arm_vals in values.items():
        if arm == 0:
            continue
        swap = params["candidates"][arm - 1]
        rivals = len(stages[reached[arm]]["plan"]["arms"]) - 1  # the swaps it was last judged beside
        swaps.append({"arm": arm, "cut": swap["cut"], "add": swap["add"], "stage": reached[arm],
                      **improvement(params, arm_vals, base[: len(arm_vals)], rivals)})
    swaps.sort(key=lambda s: (-s["stage"], -s["mean"], s["arm"]))
    return {"games": sum(stage["result"]["games"] for stage in stages), "stages": len(stages),
            "baseline": {"games": len(base), "value": fmean(base) if base else 0.0},
            "swaps": swaps}
