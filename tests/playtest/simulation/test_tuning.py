"""Deck tuning: the candidate swaps (always legal), common random numbers, and a race that does not depend on the
chunking or the workers (tuning_candidates, tuning_race)."""

import pytest
from django.contrib.auth import get_user_model

from decks.cardinfo import UNIT, Entry
from decks.selectors import card_index, deck_entries, deck_gateway_info, starter_deck_list
from decks.services import deck_copy, deck_update
from decks.validation import validate_deck
from playtest.dreadgate import new_game
from playtest.jobs.services import stage_params
from playtest.simulation import tuning_chain, tuning_race
from playtest.simulation.games import deck_cards
from playtest.simulation.tuning_candidates import candidates, swapped_entries
from playtest.simulation.tuning_kind import prepare, present, validate_params

pytestmark = pytest.mark.django_db


@pytest.fixture
def user():
    return get_user_model().objects.create_user("tuner", password="x" * 12)


def test_every_candidate_of_every_starter_makes_a_legal_deck(user):
    for starter in starter_deck_list(format="standard"):
        shortlist, considered = candidates(starter, "standard")
        assert 0 < len(shortlist) <= 200 < considered
        entries, gateway = deck_entries(starter), deck_gateway_info(starter)
        for swap in shortlist:
            report = validate_deck(swapped_entries(entries, swap.cut, swap.add), "standard", gateway=gateway)
            assert report.legal, (starter.name, swap.cut.name, swap.add.name, report.errors)


def test_no_candidate_adds_a_fifth_copy_or_a_second_unique(user):
    """A deck at the copy limit of a card, and holding a unique unit: neither is ever added again."""
    deck = deck_copy(deck=starter_deck_list(format="standard").order_by("name").first(), owner=user)
    entries = deck_entries(deck)
    unit = next(e.card for e in entries if e.card.type == UNIT and not e.card.is_unique)
    held = {e.card.id for e in entries}
    unique = next(c for c in card_index().by_id.values()
                  if c.is_unique and c.type == UNIT and c.craft == unit.craft and c.id not in held)
    others = [e for e in entries if e.card.id != unit.id]
    # Make room: four copies of `unit` and one unique, the size kept by dropping copies of other cards.
    extra = 4 - next(e.count for e in entries if e.card.id == unit.id) + 1
    trimmed = []
    for e in others:
        take = min(extra, e.count - 1) if e.count > 1 else 0
        extra -= take
        trimmed.append(Entry(e.card, e.count - take))
    deck = deck_update(deck=deck, actor=user, expected_version=deck.version,
                       entries=[*trimmed, Entry(unit, 4), Entry(unique, 1)])
    assert validate_deck(deck_entries(deck), "standard").legal
    shortlist, _ = candidates(deck, "standard")
    assert shortlist
    assert all(swap.add.id not in (unit.id, unique.id) for swap in shortlist)


def quick_params(user, budget=600):
    starter = starter_deck_list(format="standard").order_by("name").first()
    return prepare(validate_params({"deck": starter.pk, "goal": "goldfish", "format": "quick", "budget": budget},
                                   user))


def test_each_arm_is_the_deck_with_one_card_replaced_in_place_so_a_seed_deals_every_arm_the_same_shuffle(user):
    params = quick_params(user)
    base = tuning_race.arm_list(params["deck"], params["candidates"], 0)
    for arm in (1, len(params["candidates"])):
        listing = tuning_race.arm_list(params["deck"], params["candidates"], arm)
        changed = [i for i, (a, b) in enumerate(zip(base, listing, strict=True)) if a != b]
        assert len(listing) == len(base) and len(changed) == 1
        swap = params["candidates"][arm - 1]
        assert (base[changed[0]], listing[changed[0]]) == (swap["cut"], swap["add"])
        known = {**params["deck"]["cards"], **params["cards"]}
        games = [new_game([deck_cards({"cards": known, "list": cards})] * 2, 99, "quick") for cards in (base, listing)]
        dealt = [[g.inst[i].code for i in g.deck[0] + g.hand[0]] for g in games]
        differs = [i for i, (a, b) in enumerate(zip(*dealt, strict=True)) if a != b]
        assert len(differs) == 1 and dealt[1][differs[0]] == swap["add"]


def race(params, chunk: int, seed: int = 5):
    """The run's stages as the job framework plays them: the race, then the chain."""
    stages = []
    while (plan := tuning_chain.next_stage(params, stages)) is not None:
        staged = stage_params(params, plan)
        firsts = list(range(0, plan["games"], chunk))
        parts = [tuning_race.play_chunk(staged, seed, f, min(chunk, plan["games"] - f)) for f in reversed(firsts)]
        stages.append({"plan": plan, "result": tuning_race.merge(parts, staged)})
    return stages


def test_every_arm_of_a_stage_plays_the_same_seeds_and_the_race_keeps_to_its_budget(user):
    params = quick_params(user)
    stages = race(params, chunk=100)
    assert sum(s["result"]["games"] for s in stages) <= params["budget"]
    start = 0
    for stage in stages:
        plan = stage["plan"]
        assert plan["arms"][0] == 0 and plan["start"] == start  # the unchanged deck plays every stage's seeds
        lengths = {len(values) for values in stage["result"]["values"].values()}
        assert lengths == {plan["per_arm"]} and len(stage["result"]["values"]) == len(plan["arms"])
        start += plan["per_arm"]
    assert len(stages[-1]["plan"]["arms"]) - 1 <= tuning_race.FINALISTS


def test_the_race_decides_the_same_whatever_the_chunking(user):
    params = quick_params(user)
    by_chunking = [race(params, chunk) for chunk in (7, 1000)]
    plans = [[s["plan"] for s in stages] for stages in by_chunking]
    assert plans[0] == plans[1]
    results = [tuning_chain.conclude(params, stages) for stages in by_chunking]
    assert results[0] == results[1]
    assert any("base" in plan for plan in plans[0])  # the chain played too


def test_a_gain_of_a_few_games_picked_as_the_best_of_several_is_not_called_clear():
    """Eight games' differences of 2, 0, 0, 1, 3, 0, 0, 1 turns: the normal interval (0.09 to 1.66) called the swap a
    clear gain, where Student's t over 7 degrees of freedom already reaches below none, and the swap was the best
    of four picked by these very games."""
    base = [10.0] * 8
    arm = [b - d for b, d in zip(base, [2, 0, 0, 1, 3, 0, 0, 1], strict=True)]
    alone = tuning_race.improvement({"goal": "goldfish"}, arm, base)
    assert alone["mean"] == pytest.approx(0.875) and alone["low"] == pytest.approx(-0.066, abs=1e-3)
    best_of_four = tuning_race.improvement({"goal": "goldfish"}, arm, base, compared=4)
    assert best_of_four["low"] < alone["low"] and best_of_four["high"] > alone["high"]
    clear = tuning_race.improvement({"goal": "goldfish"}, [b - 2 - (i % 2) for i, b in enumerate(base * 4)], base * 4,
                                    compared=4)
    assert clear["low"] > 0  # a steady gain over more games stays clear


def test_the_halving_keeps_the_arms_with_the_best_paired_improvement():
    params = {"goal": "goldfish", "budget": 10_000, "gauntlet": [], "candidates": [{}] * 8}
    plan = tuning_race.next_stage(params, [])
    assert plan["arms"] == list(range(9))
    # Turns to win: arms 5..8 win a turn sooner than the unchanged deck, arms 1..4 a turn later.
    values = {str(arm): [10.0 + (1 if arm <= 4 else -1) * (arm > 0)] * plan["per_arm"] for arm in plan["arms"]}
    second = tuning_race.next_stage(params, [{"plan": plan, "result": {"games": plan["games"], "values": values}}])
    assert second["arms"] == [0, 5, 6, 7, 8] and second["start"] == plan["per_arm"]


@pytest.mark.config_independent
def test_cheapest_cuts_are_ordered_by_the_improvement_of_their_best_swap_not_by_stage():
    from playtest.simulation.tuning_kind import present

    def swap(arm, cut, stage, mean):
        return {"arm": arm, "cut": cut, "add": "X", "stage": stage, "mean": mean, "low": mean - 1, "high": mean + 1,
                "games": 10 * stage}

    result = {"swaps": [swap(1, "A", 2, 0.1), swap(2, "B", 1, 0.9), swap(3, "A", 1, 0.5), swap(4, "C", 1, -0.2)],
              "baseline": {"value": 5.0}, "stages": [], "games": 100}
    params = {"goal": "goldfish", "format": "standard", "cards": {}, "deck": {"cards": {}}, "budget": 200}
    cuts = present(result, params)["cheapest_cuts"]
    assert [(c["cut"], c["mean"]) for c in cuts] == [("B", 0.9), ("A", 0.1), ("C", -0.2)]


@pytest.mark.config_independent
def test_cheapest_cuts_the_games_cannot_tell_apart_share_a_rank():
    """Ordered by their means, but a cut whose interval reaches the first of its rank's is tied with it: the order
    among them is chance, and the report says so rather than ranking noise."""
    from playtest.simulation.tuning_kind import present

    def swap(arm, cut, mean, half):
        return {"arm": arm, "cut": cut, "add": "X", "stage": 1, "mean": mean, "low": mean - half,
                "high": mean + half, "games": 100}

    result = {"swaps": [swap(1, "A", 0.9, 0.3), swap(2, "B", 0.7, 0.2), swap(3, "C", 0.2, 0.1),
                        swap(4, "D", 0.1, 0.3), swap(5, "E", -0.5, 0.1)],
              "baseline": {"value": 5.0}, "stages": [], "games": 500}
    params = {"goal": "goldfish", "format": "standard", "cards": {}, "deck": {"cards": {}}, "budget": 500}
    cuts = present(result, params)["cheapest_cuts"]
    # B reaches A's low end (0.6); C lies below it and leads a rank of its own, which D reaches; E lies below C's.
    assert [(c["cut"], c["rank"], c["tied"]) for c in cuts] == [("A", 1, True), ("B", 1, True), ("C", 3, True),
                                                               ("D", 3, True), ("E", 5, False)]


def stage_of(plan, gains: dict[int, float]) -> dict:
    """A played stage whose arm k wins exactly `gains[k]` turns sooner than the stage's own deck on every deal."""
    values = {str(arm): [10.0 - gains.get(arm, 0.0) + (i % 2) for i in range(plan["per_arm"])]
              for arm in plan["arms"]}
    return {"plan": plan, "result": {"games": plan["games"], "values": values}}


def test_the_chain_keeps_clear_gains_one_after_another_each_on_new_deals_on_the_deck_with_the_ones_before():
    # Swaps 1 and 2 both take out an A; 3 brings in the X that 1 brings in, a unique card; 4 takes out the C.
    params = {"goal": "goldfish", "format": "standard", "budget": 10_000, "gauntlet": [],
              "cards": {"X": {"is_unique": True}}, "deck": {"list": ["A", "A", "B", "C", "D", "D"]},
              "candidates": [{"cut": "A", "add": "X"}, {"cut": "A", "add": "Y"}, {"cut": "B", "add": "X"},
                             {"cut": "C", "add": "Z"}]}
    race = tuning_chain.next_stage(params, [])
    assert race["arms"] == [0, 1, 2, 3, 4] and "base" not in race
    stages = [stage_of(race, {1: 2, 3: 1, 4: 1})]
    first = tuning_chain.next_stage(params, stages)  # the finalists again, on the unchanged deck, on new deals
    assert first["base"] == [] and first["arms"] == [0, 1, 2, 3, 4] and first["start"] == race["per_arm"]
    stages.append(stage_of(first, {1: 2, 4: 1}))
    second = tuning_chain.next_stage(params, stages)
    # Swap 1 kept; 3 would bring in a second copy of the unique X (DC-4), so it is not tried on the deck with it.
    assert second["base"] == [1] and second["arms"] == [0, 2, 4]
    assert tuning_chain.compatible({**params, "cards": {}}, [1], 3)  # a second copy of a card that is not unique
    assert second["start"] == first["start"] + first["per_arm"]
    assert tuning_race.arm_list(params["deck"], params["candidates"], 4, second["base"]) == \
        ["A", "X", "B", "Z", "D", "D"]
    stages.append(stage_of(second, {4: 1}))
    # A run ended here (its budget spent) says that reason alone.
    said = tuning_chain.shortfall(params, stages, 7)
    assert "after 2 confirmed, the 7 left were too few for another stage, which needs 2 or more here" in said
    assert "the 1 swap still to try 1 game each" in said and "confirmed none" not in said and "no swap" not in said
    third = tuning_chain.next_stage(params, stages)
    assert third["base"] == [1, 4] and third["arms"] == [0, 2] and third["start"] > second["start"]
    stages.append(stage_of(third, {2: 0}))  # no clear gain: the chain ends
    assert tuning_chain.next_stage(params, stages) is None
    assert sum(stage["plan"]["games"] for stage in stages) <= params["budget"]
    result = tuning_chain.conclude(params, stages)
    assert [(step["arm"], step["cut"], step["add"]) for step in result["plan"]] == [(1, "A", "X"), (4, "C", "Z")]
    assert all(step["low"] > 0 for step in result["plan"]) and result["chained_stages"] == 3
    # The swaps' own figures stay against the unchanged deck: the race and the first chained stage.
    assert {s["arm"]: s["games"] for s in result["swaps"]}[1] == race["per_arm"] + first["per_arm"]


def test_the_chain_ends_at_once_when_the_finalists_gain_nothing_clear_on_new_deals():
    params = {"goal": "goldfish", "format": "standard", "budget": 10_000, "gauntlet": [], "deck": {"list": ["A", "B"]},
              "candidates": [{"cut": "A", "add": "X"}, {"cut": "B", "add": "Y"}]}
    race = tuning_chain.next_stage(params, [])
    stages = [stage_of(race, {1: 2})]
    first = tuning_chain.next_stage(params, stages)
    stages.append(stage_of(first, {1: 0, 2: 0}))
    assert tuning_chain.next_stage(params, stages) is None
    result = tuning_chain.conclude(params, stages)
    assert result["plan"] == []
    said = tuning_chain.shortfall(params, stages, 10)
    assert said.endswith("its stage 2 confirmed none of the 2 it tried"), said
    # The report does not call "clear gain" (with its Apply) what the run's own new deals did not confirm: swap 1 is
    # clear over all its games (+2 in the race, 0 on the new deals), and said to be unconfirmed, with both figures.
    report = present(result, {**params, "cards": {}, "deck": {**params["deck"], "cards": {}}})
    swap = next(s for s in report["best"] if s["cut"] == "A")
    assert swap["shown"]["low"] > 0 and swap["verdict"] == "Clear in the race, not confirmed on new deals"
    assert swap["checked"]["mean"] == 0 and swap["checked"]["low"] <= 0


def test_a_swap_confirmed_on_new_deals_and_left_out_of_the_plan_is_not_called_unconfirmed():
    """Two swaps confirmed on the new deals; the one that gained less is not in the plan, and its verdict says it
    was confirmed (its interval on the new deals lies above zero), not that it was not."""
    params = {"goal": "goldfish", "format": "standard", "budget": 10_000, "gauntlet": [], "deck": {"list": ["A", "B"]},
              "candidates": [{"cut": "A", "add": "X"}, {"cut": "A", "add": "Y"}]}
    race = tuning_chain.next_stage(params, [])
    stages = [stage_of(race, {1: 2, 2: 1})]
    first = tuning_chain.next_stage(params, stages)
    stages.append(stage_of(first, {1: 2, 2: 1}))
    while (stage := tuning_chain.next_stage(params, stages)) is not None:
        stages.append(stage_of(stage, {}))
    result = tuning_chain.conclude(params, stages)
    assert [step["arm"] for step in result["plan"]] == [1]
    said = tuning_chain.shortfall(params, stages, 10)  # swap 2 takes out the A that swap 1 took out
    assert said.endswith("after 1 confirmed, no swap was left that could follow them (each one's card out taken out "
                         "already, or a card they brought in or took out, or a copy limit)"), said
    report = present(result, {**params, "cards": {}, "deck": {**params["deck"], "cards": {}}})
    verdicts = {s["arm"]: (s["verdict"], s["checked"]["low"]) for s in report["best"] if s["checked"]}
    assert verdicts[1][0] == "Clear gain, confirmed on new deals: step 1 of the plan"
    assert verdicts[2][1] > 0 and verdicts[2][0].startswith("Clear gain, confirmed on new deals; not in the plan")


def test_a_run_whose_share_kept_for_the_chain_could_not_be_played_says_so_not_that_the_race_left_it():
    """A matchup budget of 200: the race takes 120 and keeps 80 to confirm its finalists on new deals, too few for a
    stage of 5 decks in steps of 12 (both seats against six gauntlet decks); it said the race's last stage could not
    share them."""
    params = {"goal": "matchup", "format": "standard", "budget": 200, "gauntlet": [{}] * 6}
    stages = [{"plan": {"games": 120, "arms": [0, 1, 2, 3, 4], "per_arm": 24, "start": 0}, "result": {}}]
    said = tuning_chain.shortfall(params, stages, 80)
    assert said.startswith("the run stopped 80 games short of its budget: the 80 games kept to confirm the race's")
    assert "which needs 240 or more here" in said and "the 4 swaps 12 games each" in said
    assert "could not be shared" not in said


def test_a_swap_of_the_plan_shows_the_confirmation_that_put_it_there_not_the_first_stages():
    """Swap 2 gains nothing clear on the first new deals (against the unchanged deck) and clearly on the next stage's
    (against the deck with swap 1): it is step 2 of the plan, and its row says so with that stage's figures, not
    the first stage's, beside a note that the plan takes only gains clear there."""
    params = {"goal": "goldfish", "format": "standard", "budget": 10_000, "gauntlet": [], "deck": {"list": ["A", "B"]},
              "candidates": [{"cut": "A", "add": "X"}, {"cut": "B", "add": "Y"}]}
    race = tuning_chain.next_stage(params, [])
    stages = [stage_of(race, {1: 2, 2: 2})]
    first = tuning_chain.next_stage(params, stages)
    stages.append(stage_of(first, {1: 2, 2: 0}))
    second = tuning_chain.next_stage(params, stages)
    stages.append(stage_of(second, {2: 1}))
    while (stage := tuning_chain.next_stage(params, stages)) is not None:
        stages.append(stage_of(stage, {}))
    result = tuning_chain.conclude(params, stages)
    assert [step["arm"] for step in result["plan"]] == [1, 2]
    assert result["confirmations"]["2"]["low"] <= 0  # the first new deals did not confirm it
    report = present(result, {**params, "cards": {}, "deck": {**params["deck"], "cards": {}}})
    rows = {s["arm"]: s for s in report["best"]}
    assert rows[1]["verdict"] == "Clear gain, confirmed on new deals: step 1 of the plan"
    assert rows[1]["checked_after"] == ""
    assert rows[2]["verdict"] == "Clear gain, confirmed on new deals: step 2 of the plan"
    assert rows[2]["checked"]["low"] > 0 and rows[2]["checked"]["mean"] == pytest.approx(result["plan"][1]["mean"])
    assert rows[2]["checked_after"] == ", with the plan's step before it made"
