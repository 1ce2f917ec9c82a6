"""Benchmark: deck tuning finds a planted weakness, and racing saves work (docs/ai.md, "Tuning a deck").

Planted improvement: a copy of a Standard starter deck has four copies of its best units replaced by four copies
of a card that is dead in goldfish (the first, by collector number, of its crafts' and the universal cards none of
whose effects can bring a goldfish win closer); a starter holds one or two copies of a unit, so the four are every
copy of its best units for a goldfish race (tuning_candidates.race_power), best first, while they add up to four;
the copy is tuned for goldfish in BENCH_TUNING_FORMAT (quick) with a budget of BENCH_TUNING_BUDGET (20,000) games.
Figures: whether the top suggestion restores a removed copy, or else is a swap whose interval is at least as good
(its lower bound at or above the restoring swap's); the swaps of the run's plan (its clear gains chained one
after another, each confirmed on new deals: tuning_chain; target 2 or more), and how many take out a planted copy;
the games the run played against its budget.

Saved work: every shortlisted swap of that run then plays the same seeds as the race's finalists did, in full;
the figure compares the race's top three with the full evaluation's, and the games each needed.

The run plays the tuning kind's own functions (next_stage, play_chunk, merge, conclude) stage by stage, its chunks
on BENCH_TUNING_PROCESSES (2) local processes, as the workers would; the deck and its shortlist come from a
scratch SQLite database (migrated, catalog loaded). Not part of `make test`; run from the repository root:
`.venv/bin/python bench/tuning.py` (or `make bench BENCH=tuning`). BENCH_TUNING_FULL=0 skips the full evaluation.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _common  # noqa: E402

SCRATCH = tempfile.mkdtemp(prefix="bench-tuning-")
os.environ["DATABASE_URL"] = f"sqlite:///{SCRATCH}/bench.sqlite3"
os.environ["DREADGATE_VAR_DIR"] = SCRATCH
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

BUDGET = int(os.environ.get("BENCH_TUNING_BUDGET", "20000"))
PROCESSES = int(os.environ.get("BENCH_TUNING_PROCESSES", "2"))
FULL = os.environ.get("BENCH_TUNING_FULL", "1") != "0"
FORMAT = os.environ.get("BENCH_TUNING_FORMAT", "quick")
SEED = 20261201
CHUNK = 100


def _chunk(args):
    from playtest.simulation import tuning_race

    params, first, games = args
    return tuning_race.play_chunk(params, SEED, first, games)


def race(pool, params: dict, next_stage) -> list[dict]:
    """Stage after stage as the job framework plays them: plan, chunks (any order), merge, plan again."""
    from playtest.jobs.services import stage_params
    from playtest.simulation import tuning_race

    stages: list[dict] = []
    while (plan := next_stage(params, stages)) is not None:
        staged = stage_params(params, plan)
        parts = list(pool.map(_chunk, [(staged, first, min(CHUNK, plan["games"] - first))
                                       for first in range(0, plan["games"], CHUNK)]))
        stages.append({"plan": plan, "result": tuning_race.merge(parts, staged)})
    return stages


def planted_deck(user):
    """A private copy of the first Standard starter with its best units' copies (four in all) replaced by four
    copies of a card that is dead in goldfish; returns the deck, the units taken out and the dead card."""
    from decks.cardinfo import UNIT, Entry
    from decks.selectors import deck_entries, starter_deck_list
    from decks.services import deck_copy, deck_update
    from decks.validation import validate_deck
    from playtest.simulation.tuning_candidates import _idle_in_goldfish, _pool, race_power

    starter = starter_deck_list(format="standard").order_by("name").first()
    deck = deck_copy(deck=starter, owner=user, name=f"{starter.name} (planted)")
    entries = deck_entries(deck)
    best, copies = [], 0
    for entry in sorted((e for e in entries if e.card.type == UNIT),
                        key=lambda e: (-race_power(e.card), e.card.collector_number)):
        if copies + entry.count <= 4:
            best.append(entry.card)
            copies += entry.count
    assert copies == 4, "the starter's best units hold four copies in all"
    crafts = {e.card.craft for e in entries} - {"universal"}
    held = {e.card.id for e in entries}
    idle = _idle_in_goldfish(_pool(crafts, "standard"))
    weak = min((card for card in _pool(crafts, "standard") if card.id in idle and card.id not in held
                and not card.is_unique), key=lambda card: card.collector_number)
    planted = [e for e in entries if e.card not in best] + [Entry(weak, 4)]
    assert validate_deck(planted, "standard").legal
    deck = deck_update(deck=deck, actor=user, expected_version=deck.version, entries=planted,
                       message="Planted: best units out")
    return deck, best, weak


def main() -> None:
    import io

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from playtest.simulation import tuning_chain, tuning_kind, tuning_race

    call_command("migrate", verbosity=0)
    call_command("loadcatalog", stdout=io.StringIO())
    user = get_user_model().objects.create_user("bench-tuner", password="x" * 12)
    deck, removed, weak = planted_deck(user)
    removed_numbers = {card.collector_number for card in removed}
    env = {"python": platform.python_version(), "cpus": os.cpu_count(), "load_1m": round(os.getloadavg()[0], 2),
           "deck": deck.name, "format": FORMAT, "goal": "goldfish", "budget": BUDGET, "processes": PROCESSES,
           "removed": [card.name for card in removed], "weak_card": weak.name}
    started = time.perf_counter()
    params = tuning_kind.prepare(tuning_kind.validate_params({"deck": deck.pk, "goal": "goldfish", "format": FORMAT,
                                                             "budget": BUDGET}, user))  # submission, first stage
    setup_seconds = time.perf_counter() - started
    restoring = [k for k, swap in enumerate(params["candidates"])
                 if swap["cut"] == weak.collector_number and swap["add"] in removed_numbers]
    env["shortlist"] = len(params["candidates"])
    env["restoring_swap_shortlisted"] = bool(restoring)
    with ProcessPoolExecutor(PROCESSES) as pool:
        started = time.perf_counter()
        stages = race(pool, params, tuning_chain.next_stage)
        race_seconds = time.perf_counter() - started
        result = tuning_chain.conclude(params, stages)
        finalists = max(s["stage"] for s in result["swaps"])
        top = [s for s in result["swaps"] if s["stage"] == finalists]
        first = top[0]
        restored = first["add"] in removed_numbers
        restoring_swap = max((s for s in result["swaps"] if s["arm"] - 1 in restoring),
                             key=lambda s: (s["stage"], s["low"]), default=None)
        as_good = restored or (restoring_swap is not None and first["low"] >= restoring_swap["low"])
        print(f"# top suggestion: {first['cut']} out, {first['add']} in: {first['mean']:+.3f} turns "
              f"[{first['low']:+.3f}, {first['high']:+.3f}] over {first['games']} games", flush=True)
        if restoring_swap:
            print(f"# the restoring swap reached stage {restoring_swap['stage']}: {restoring_swap['mean']:+.3f} "
                  f"[{restoring_swap['low']:+.3f}, {restoring_swap['high']:+.3f}]", flush=True)
        _common.emit("tuning", "planted_top_suggestion_restores_or_as_good", float(as_good), "bool", 1, "higher",
                     {**env, "restores": restored, "setup_seconds": round(setup_seconds, 2)})
        plan = result["plan"]
        for step in plan:
            print(f"# plan: {step['cut']} out, {step['add']} in: {step['mean']:+.3f} turns "
                  f"[{step['low']:+.3f}, {step['high']:+.3f}] over {step['games']} games", flush=True)
        # Four copies were planted: one run gives a plan of several swaps, each confirmed on new deals (and says
        # how many of them take out a planted copy).
        _common.emit("tuning", "planted_plan_swaps", len(plan), "swaps", 2, "higher",
                     {**env, "plan": [[step["cut"], step["add"], round(step["mean"], 3)] for step in plan],
                      "taking_out_the_planted_card": sum(step["cut"] == weak.collector_number for step in plan),
                      "chained_stages": result["chained_stages"]})
        _common.emit("tuning", "planted_games_played", result["games"], "games", BUDGET, "lower", env)
        _common.emit("tuning", "planted_race_seconds", race_seconds, "s", None, "lower",
                     {**env, "games_per_second": round(result["games"] / race_seconds, 1)})
        if not FULL:
            return
        # Every shortlisted swap on the finalists' seeds, in one stage.
        seeds = first["games"]
        arms = list(range(len(params["candidates"]) + 1))

        def everything(_params, done):
            return None if done else {"games": seeds * len(arms), "arms": arms, "per_arm": seeds, "start": 0}

        started = time.perf_counter()
        full = tuning_race.conclude({**params, "budget": seeds * len(arms)}, race(pool, params, everything))
        full_seconds = time.perf_counter() - started
    full_top = [s["arm"] for s in sorted(full["swaps"], key=lambda s: (-s["mean"], s["arm"]))[:3]]
    race_top = [s["arm"] for s in top[:3]]
    same = sorted(full_top) == sorted(race_top)
    print(f"# race top three (arms): {race_top}; full evaluation's: {full_top}", flush=True)
    _common.emit("tuning", "racing_same_top_three_as_full", float(same), "bool", 1, "higher",
                 {**env, "race_top": race_top, "full_top": full_top, "seeds_per_swap": seeds})
    _common.emit("tuning", "racing_games_share_of_full", result["games"] / full["games"], "ratio", 1 / 3, "lower",
                 {**env, "race_games": result["games"], "full_games": full["games"],
                  "full_seconds": round(full_seconds, 1)})


if __name__ == "__main__":
    main()
