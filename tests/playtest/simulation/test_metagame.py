"""Metagame tables: every pair of a set of decks, seat-rotated, the same table in any chunking."""

from dataclasses import replace

import pytest

from decks.selectors import starter_deck_list
from playtest.jobs import registry, services
from playtest.models import RunStatus
from playtest.simulation import games as dreadgate_sim
from playtest.simulation import metagame
from playtest.simulation.metagame_kind import METAGAME, MetagameParams, validate_params
from playtest.simulation.metagame_report import short_names, table

pytestmark = pytest.mark.django_db


def starter_ids(count: int = 3) -> list[int]:
    return list(starter_deck_list(format="standard").values_list("pk", flat=True)[:count])


def table_params(owner, count: int = 3, games_per_pair: int = 4, fmt: str = "quick", policy: str = "matchup"):
    typed = services.typed_params(MetagameParams, {"decks": starter_ids(count), "format": fmt, "policy": policy,
                                                   "games_per_pair": games_per_pair})
    return validate_params(typed, owner)


def play_all(run, order=None):
    for index in order or run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    return run


def test_game_numbers_go_round_by_round_over_every_pair_and_both_seats():
    slots = [metagame.game_slot(g, 3) for g in range(12)]
    assert slots[:6] == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (2, 0, 1)]
    assert slots[6:] == [(p, 1, s) for p in range(3) for s in (0, 1)]
    assert metagame.pairs(4) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def test_same_seed_same_table_in_any_chunking(alice):
    params = table_params(alice)
    assert [d["name"] for d in params["decks"]] == list(starter_deck_list(format="standard")
                                                        .values_list("name", flat=True)[:3])
    whole = metagame.merge([metagame.play_chunk(params, 77, 0, 12)], params)
    split = metagame.merge([metagame.play_chunk(params, 77, 0, 5), metagame.play_chunk(params, 77, 5, 7)], params)
    one_by_one = metagame.merge([metagame.play_chunk(params, 77, g, 1) for g in reversed(range(12))], params)
    assert whole == split == one_by_one
    assert whole["games"] == 12 and sum(cell["games"] for cell in whole["cells"].values()) == 12
    assert table(whole, params) == table(one_by_one, params)
    other_seed = metagame.merge([metagame.play_chunk(params, 78, 0, 12)], params)
    assert other_seed["samples"] != whole["samples"], "the seed decides the games"


def test_both_seats_of_every_seed_are_played(alice):
    params = table_params(alice)
    result = metagame.merge([metagame.play_chunk(params, 5, 0, 12)], params)
    for key, cell in result["cells"].items():
        assert cell["games"] == 4
        assert cell["first"] == [2, 2], f"each deck of pair {key} moves first in half of its games"
        assert sum(cell["wins"]) + cell["draws"] == 4
    by_pair = {}
    for sample in result["samples"]:  # round 0: both games of every pair, one seed
        by_pair.setdefault(tuple(sorted(sample["decks"])), []).append(sample)
    assert sorted(by_pair) == [(0, 1), (0, 2), (1, 2)]
    for pair, (one, other) in by_pair.items():
        assert one["seed"] == other["seed"] and one["decks"] == other["decks"][::-1]
        assert {one["first"], other["first"]} == set(pair)


def test_a_table_game_is_the_game_a_matchup_run_plays_with_that_seed(alice):
    """The table's lean loop makes the same moves as the playtest runs' play_game with the same policy."""
    params = table_params(alice)
    result = metagame.play_chunk(params, 9, 0, 6)
    for sample in result["samples"]:
        decks = [dreadgate_sim.deck_cards(params["decks"][i]) for i in sample["decks"]]
        game = dreadgate_sim.play_game(decks, "quick", sample["seed"], ["matchup", "matchup"], keep_record=True)
        winner = sample["decks"][game["winner"]] if game["winner"] >= 0 else -1
        assert (winner, game["turns"]) == (sample["winner"], sample["turns"])
        assert game["record"]["actions"] == sample["record"]["actions"]


def test_each_sample_game_keeps_what_each_step_showed_in_full(alice):
    """docs/rules.md RV-2: its replay reads these, not the engine."""
    from core.frames import from_text, unpack
    from playtest.dreadgate import game_frames, new_game

    params = table_params(alice)
    for sample in metagame.play_chunk(params, 9, 0, 2)["samples"]:
        decks = [dreadgate_sim.deck_cards(params["decks"][i]) for i in sample["decks"]]
        state = new_game(decks, sample["seed"], "quick")
        for action in sample["record"]["actions"]:
            state.apply(tuple(action))
        assert unpack(from_text(sample["frames"])) == game_frames(state, ("all",))


def test_a_run_through_the_services_counts_each_chunk_once_whatever_the_order(alice, monkeypatch):
    kind = registry.get_kind(METAGAME)
    seed, asked = 31, {"decks": starter_ids(3), "format": "quick", "games_per_pair": 4}
    whole = play_all(services.run_submit(owner=alice, kind=METAGAME, params=asked, seed=seed))
    assert whole.chunks.count() == 1 and whole.status == RunStatus.DONE, whole.error
    monkeypatch.setitem(registry._KINDS, METAGAME, replace(kind, chunk_size=5))
    run = services.run_submit(owner=alice, kind=METAGAME, params=asked, seed=seed)
    assert run.games == 12 and run.chunks.count() == 3
    run = play_all(run, order=[2, 0, 2, 1, 0])  # out of order, and chunks delivered twice
    assert run.status == RunStatus.DONE and run.games_done == 12
    assert run.result == whole.result
    assert run.title == "Metagame table: 3 decks, Quick, matchup"


def test_the_figures_of_a_table():
    params = {"format": "standard", "policy": "matchup", "games_per_pair": 10,
              "decks": [{"id": 1, "name": "A"}, {"id": 2, "name": "B"}, {"id": 3, "name": "C"}]}
    cell = metagame.empty_cell
    cells = {"0-1": {**cell(), "games": 10, "wins": [9, 1], "first": [5, 5]},
             "0-2": {**cell(), "games": 10, "wins": [5, 4], "draws": 1, "first": [5, 5]},
             "1-2": {**cell(), "games": 10, "wins": [2, 8], "first": [5, 5]}}
    samples = [{"game": 0, "decks": [0, 1], "first": 1}, {"game": 1, "decks": [1, 0], "first": 0}]
    figures = table({"games": 30, "cells": cells, "samples": samples}, params)
    assert [d["name"] for d in figures["decks"]] == ["A", "C", "B"]  # by overall rate: 14/20, 12/20, 3/20
    a, c, b = figures["decks"]
    assert a["overall"]["wins"] == 14 and a["overall"]["games"] == 20 and a["overall"]["rate"] == 0.7
    assert a["overall"]["low"] < 0.7 < a["overall"]["high"]
    assert a["best"]["opponent_name"] == "B" and a["best"]["rate"] == 0.9 and a["best"]["verdict"] == "favoured"
    assert a["worst"]["opponent_name"] == "C" and a["worst"]["draws"] == 1 and a["worst"]["verdict"] == "even"
    assert b["worst"]["verdict"] == "unfavoured" and b["verdict"] == "unfavoured"
    rows = {row["deck"]["name"]: row["cells"] for row in figures["rows"]}
    assert rows["A"][0] is None and rows["C"][1] is None  # the diagonal
    a_vs_b, b_vs_a = rows["A"][2], rows["B"][0]
    assert (a_vs_b["wins"], a_vs_b["losses"], b_vs_a["wins"], b_vs_a["losses"]) == (9, 1, 1, 9)
    assert a_vs_b["heat"] == 9 and b_vs_a["heat"] == 1
    assert a_vs_b["sample_game"] == 1 and b_vs_a["sample_game"] == 0  # the row deck moved first
    assert rows["A"][1]["sample_game"] is None  # no sample kept for A and C
    assert len(figures["matchups"]) == 6 and figures["pairs"] == 3 and figures["draws"] == 1


@pytest.mark.config_independent
def test_a_column_heads_short_names_that_still_tell_the_decks_apart():
    names = ["Champion Starter: The Last Charge", "Champion Starter: The First Wall", "Aggro", "Hinterlands"]
    shorts = short_names(names)
    assert shorts[2:] == ["Aggro", "Hinterlands"]  # short enough already
    assert all(short.endswith("…") and len(short) <= 30 for short in shorts[:2])
    assert len(set(shorts)) == 4  # alike at 14 characters, cut longer until they differ
    assert short_names(["Same long deck name here"] * 2) == ["Same long…"] * 2  # nothing tells them apart
