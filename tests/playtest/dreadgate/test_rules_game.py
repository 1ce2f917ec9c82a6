"""Scenario tests for DG-1 to DG-6: formats and winning, the battlefield, cards, set-up, turns, drawing.

Each test sets a position up by hand, plays an action and checks the result; its docstring opens with the
rule it shows.
"""

from __future__ import annotations

import pytest

from playtest.dreadgate import (
    CardDataError,
    GameSetupError,
    IllegalAction,
    fairness,
    new_game,
    parse_action,
    to_snapshot,
)
from playtest.dreadgate.board import cell_name, parse_cell
from playtest.dreadgate.cards import Compiled
from playtest.dreadgate.rules import move_targets
from playtest.dreadgate.state import OPENING_HAND

from .factories import FILLER, N, ability, end_turn, game, gateway, give, item, legend, play, put, talent, unit

SCOUT = unit("U-SC1", 2, 1, 1, 1, 2, mdirs=N)
BRUTE = unit("U-BR1", 3, 5, 1, 1, 1)
WALL = unit("U-WL1", 3, 1, 4, 1, 1)


def refused(state, text, rule: str) -> None:
    """The action (text, or an action value) is refused citing `rule`, and the state is unchanged."""
    before = to_snapshot(state)
    action = parse_action(state, text) if isinstance(text, str) else text
    with pytest.raises(IllegalAction) as exc:
        state.apply(action)
    assert exc.value.rule == rule, exc.value
    assert to_snapshot(state) == before


# --- DG-1 -------------------------------------------------------------------------------------


def test_dg_1_1_passing_the_gateway_and_dying_send_units_to_their_owners_zones():
    """DG-1.1: a unit through the Gateway goes to its owner's Beyond; a killed unit to its owner's boneyard."""
    s = game(SCOUT, BRUTE, WALL)
    scout = put(s, 0, "U-SC1", "c2")
    put(s, 0, "U-BR1", "a2")
    wall = put(s, 1, "U-WL1", "a3", vit=1)
    play(s, "move c2-c3")
    assert scout.iid in s.beyond[0] and scout.iid not in s.units
    play(s, "attack a2 a3", "strike")
    assert wall.iid in s.boneyard[1]


def test_dg_1_2_standard_win_by_beyond_and_by_boneyard():
    """DG-1.2: Standard is won at 40 in your Beyond or 20 in the opponent's boneyard."""
    s = game(SCOUT)
    put(s, 0, "U-SC1", "c2")
    s.beyond_score[0] = 38
    play(s, "move c2-c3")
    assert (s.winner, s.condition) == (0, "beyond")
    s = game(BRUTE, WALL)
    put(s, 0, "U-BR1", "a2")
    put(s, 1, "U-WL1", "a3", vit=1)
    s.bone_score[1] = 17
    play(s, "attack a2 a3", "strike")
    assert (s.winner, s.condition) == (0, "boneyard")
    assert s.is_over() and s.legal_actions() == []


def test_dg_1_3_quick_uses_totals_of_20_and_10():
    """DG-1.3: Quick: 20 in the Beyond, 10 in the opponent's boneyard."""
    s = game(SCOUT, fmt="quick")
    put(s, 0, "U-SC1", "c2")
    s.beyond_score[0] = 18
    play(s, "move c2-c3")
    assert (s.winner, s.condition) == (0, "beyond")
    s = game(BRUTE, WALL, fmt="quick")
    put(s, 0, "U-BR1", "a2")
    put(s, 1, "U-WL1", "a3", vit=1)
    s.bone_score[1] = 7
    play(s, "attack a2 a3", "strike")
    assert (s.winner, s.condition) == (0, "boneyard")


def test_dg_1_4_tactical_has_no_gateway_no_talents_and_a_30_boneyard_goal():
    """DG-1.4: Tactical: the centre cell is ordinary, only units and items, 30 in the opponent's boneyard."""
    s = game(SCOUT, BRUTE, WALL, fmt="tactical")
    scout = put(s, 0, "U-SC1", "c2")
    play(s, "move c2-c3")
    assert s.board[parse_cell("c3")] == scout.iid and not s.beyond[0]
    put(s, 0, "U-BR1", "a2")
    put(s, 1, "U-WL1", "a3", vit=1)
    s.bone_score[1] = 27
    play(s, "attack a2 a3", "strike")
    assert (s.winner, s.condition) == (0, "boneyard")
    with pytest.raises(GameSetupError, match="DG-1.4"):
        new_game([[legend("L-X")] + FILLER, FILLER], 1, "tactical")
    with pytest.raises(GameSetupError, match="DG-1.4"):
        new_game([[talent("T-X")] + FILLER, FILLER], 1, "tactical")
    subtypes = ("armor", "battlefield", "equipment", "exotic", "musical instrument", "weapon", "relic",
                "relic weapon", "relic armor")  # "only units and equipment": every Inventory Item (DC-6)
    kit = [item(f"I-T{i}", subtype=subtype) for i, subtype in enumerate(subtypes)]
    assert len(new_game([kit + FILLER, FILLER], 1, "tactical").deck_lists[0]) == len(kit) + len(FILLER)


def test_dg_1_5_boneyard_counts_printed_vitality_of_killed_units_only():
    """DG-1.5: a killed unit scores its printed vitality; a recycled unit scores nothing."""
    s = game(BRUTE, WALL, SCOUT)
    put(s, 0, "U-BR1", "a2")
    put(s, 1, "U-WL1", "a3", vit=1)  # damaged: 1 of 3 left
    play(s, "attack a2 a3", "strike")
    assert s.bone_score[1] == 3
    give(s, 0, "U-SC1")
    give(s, 0, "U-F00")
    play(s, "recycle U-SC1")
    assert s.bone_score[0] == 0 and any(s.inst[i].code == "U-SC1" for i in s.boneyard[0])


def test_dg_1_6_a_players_own_dead_units_count_for_the_opponent():
    """DG-1.6: killing North's unit raises North's boneyard score, which is South's way to win."""
    s = game(BRUTE, WALL)
    put(s, 0, "U-BR1", "a2")
    put(s, 1, "U-WL1", "a3", vit=1)
    play(s, "attack a2 a3", "strike")
    assert s.bone_score == [0, 3]


def test_dg_1_7_both_reaching_a_total_at_once_is_a_draw():
    """DG-1.7: totals are checked after every action; both at once is a draw."""
    a = unit("U-A1", 3, 2, 0, 1, 1)
    b = unit("U-A2", 3, 6, 0, 1, 1)
    d = unit("U-D1", 3, 0, 4, 1, 1)
    s = game(a, b, d)
    put(s, 0, "U-A1", "a2", vit=1)
    put(s, 0, "U-A2", "b2")
    put(s, 1, "U-D1", "a3", vit=1)
    s.bone_score = [17, 17]
    play(s, "attack a2 a3", "attack b2 a3", "strike")
    assert not s.is_over()  # declaring and striking is not yet damage: the defender distributes first
    play(s, "defend a2 4")  # 8 - 4 kills the defender; 4 - 2 kills attacker A1
    assert (s.winner, s.condition) == (2, "simultaneous")


def test_dg_1_8_the_game_is_a_draw_when_turn_100_ends():
    """DG-1.8: turn limit."""
    s = game()
    s.turn = 100
    end_turn(s)
    assert (s.winner, s.condition) == (2, "turn limit")
    s = game()
    s.turn = 99
    end_turn(s)
    assert not s.is_over() and s.turn == 100


def test_dg_1_9_tactical_at_the_turn_limit_the_boneyard_then_the_battlefield_decides():
    """DG-1.9: a side that never deploys loses to any army on the field; a higher boneyard total wins first;
    only a tie on both is a draw; Standard keeps its draw (DG-1.8)."""
    s = game(BRUTE, WALL, fmt="tactical")
    put(s, 1, "U-WL1", "c4", vit=1)  # North holds the field; South never deployed
    s.turn = 100
    end_turn(s)
    assert (s.winner, s.condition) == (1, "turn limit: battlefield")
    s = game(BRUTE, WALL, fmt="tactical")
    put(s, 1, "U-WL1", "c4")
    s.bone_score = [0, 2]  # South killed 2 vitality of North's units: nearer its win total, it wins
    s.turn = 100
    end_turn(s)
    assert (s.winner, s.condition) == (0, "turn limit: boneyard")
    s = game(BRUTE, WALL, fmt="tactical")
    put(s, 0, "U-BR1", "a2", vit=3)
    put(s, 1, "U-WL1", "c4", vit=3)
    s.bone_score = [4, 4]
    s.turn = 100
    end_turn(s)
    assert (s.winner, s.condition) == (2, "turn limit")
    s = game(BRUTE, WALL)
    put(s, 1, "U-WL1", "c4")
    s.turn = 100
    end_turn(s)
    assert (s.winner, s.condition) == (2, "turn limit")


# --- DG-2 -------------------------------------------------------------------------------------


def test_dg_2_1_cells_are_files_a_to_e_and_ranks_1_to_5():
    """DG-2.1: 25 cells named a1 to e5."""
    names = [cell_name(c) for c in range(25)]
    assert names[0] == "a1" and names[4] == "e1" and names[12] == "c3" and names[24] == "e5"
    assert all(parse_cell(n) == i for i, n in enumerate(names))
    assert parse_cell("f1") is None and parse_cell("a6") is None


def test_dg_2_2_south_plays_up_the_ranks_and_north_down():
    """DG-2.2: South sits at rank 1, North at rank 5: 'forward' goes toward the other."""
    s = game(SCOUT)
    south = put(s, 0, "U-SC1", "b2")
    north = put(s, 1, "U-SC1", "d4")
    assert move_targets(s, south) == [parse_cell("b3"), parse_cell("b4")]
    assert move_targets(s, north) == [parse_cell("d3"), parse_cell("d2")]


def test_dg_2_3_no_unit_ever_stands_on_the_gateway():
    """DG-2.3: the centre cell c3 is the Gateway in Standard."""
    s = game(SCOUT)
    put(s, 0, "U-SC1", "c2")
    play(s, "move c2-c3")
    assert s.board[parse_cell("c3")] == -1


def test_dg_2_4_units_deploy_on_their_owners_back_rank():
    """DG-2.4: the 'far outer ring' is the back rank: a1-e1 for South, a5-e5 for North."""
    s = game(SCOUT)
    give(s, 0, "U-SC1")
    cells = sorted(cell_name(a[2]) for a in s.legal_actions() if a[0] == 2)
    assert cells == ["a1", "b1", "c1", "d1", "e1"]
    refused(s, "deploy U-SC1 b2", "DG-2.4")
    end_turn(s)
    give(s, 1, "U-SC1")
    assert sorted(cell_name(a[2]) for a in s.legal_actions() if a[0] == 2) == ["a5", "b5", "c5", "d5", "e5"]


def test_dg_2_5_each_player_has_the_five_zones():
    """DG-2.5: deck, hand, boneyard, Beyond and sideline."""
    s = game()
    view = s.observation(0)["players"][0]
    assert {"deck", "hand", "boneyard", "beyond", "sideline"} <= view.keys()
    assert view["deck"] == len(s.deck[0])


def test_dg_2_6_observations_hide_the_opponents_hand_and_deck_order():
    """DG-2.6: a player sees their own hand, only the size of the other's, and no deck order."""
    s = game(SCOUT)
    give(s, 0, "U-SC1")
    give(s, 1, "U-SC1")
    mine, theirs = s.observation(0)["players"]
    assert mine["hand"] == ["U-SC1"] and "hand" not in theirs and theirs["hand_size"] == 1
    assert isinstance(mine["deck"], int)
    assert "hand" not in s.observation(-1)["players"][0]


def test_dg_2_7_gateway_cards_stay_out_of_the_deck_and_their_statics_apply():
    """DG-2.7: the gateway pair is not shuffled in; its static abilities apply all game."""
    gate = gateway(ability("static", {"op": "modify", "stat": "defense", "amount": 1, "duration": "while_source",
                                      "target": {"select": "all", "side": "friendly"}}))  # fmt: skip
    s = new_game([[gate, gate] + FILLER, [gate, gate] + FILLER], 3)
    assert all(s.inst[i].kind != "gateway" for p in (0, 1) for i in s.deck[p] + s.hand[p])
    play(s, "keep", "keep")
    u = put(s, 0, "U-F00", "a2")
    assert u.dfn == u.c.dfn + 1


# --- DG-3 -------------------------------------------------------------------------------------


def test_dg_3_1_each_card_type_is_played_by_its_own_action():
    """DG-3.1: a talent is not deployed, a unit is not played as a talent."""
    s = game(SCOUT, talent("T-X1", cost=1))
    give(s, 0, "U-SC1")
    give(s, 0, "T-X1")
    refused(s, "deploy T-X1 a1", "DG-7.1")
    refused(s, "play U-SC1", "DG-15.1")
    refused(s, "equip U-SC1", "DG-14.1")


def test_dg_3_2_stats_floor_at_zero_and_range_at_one_vitality_only_by_damage_and_healing():
    """DG-3.2: modified attack never below 0, range never below 1; healing stops at printed vitality."""
    weaken = talent("T-WK", ability("play", {"op": "sequence", "steps": [
        {"op": "modify", "stat": "attack", "amount": -9, "duration": "end_of_turn",
         "target": {"select": "chosen", "side": "enemy"}},
        {"op": "modify", "stat": "range", "amount": -9, "duration": "end_of_turn", "target": {"select": "previous"}},
        {"op": "heal", "amount": 9, "target": {"select": "previous"}},
    ]}))  # fmt: skip
    s = game(BRUTE, weaken)
    foe = put(s, 1, "U-BR1", "c4", vit=1)
    give(s, 0, "T-WK")
    play(s, "play T-WK")
    assert (foe.atk, foe.rng, foe.vit) == (0, 1, 3)


def test_dg_3_3_directions_are_relative_to_the_owner_in_straight_lines():
    """DG-3.3: n is forward for each owner; moves and attacks follow straight lines only."""
    diag = unit("U-DG1", 2, 1, 1, 1, 2, mdirs=1 << 1, adirs=1 << 1)  # ne only
    s = game(diag)
    south = put(s, 0, "U-DG1", "b2")
    north = put(s, 1, "U-DG1", "d4")
    assert [cell_name(c) for c in move_targets(s, south)] == ["c3"]  # the Gateway, up and right
    assert [cell_name(c) for c in move_targets(s, north)] == ["c3"]  # North's ne is down and left
    refused(s, "move b2-c4", "DG-8.2")  # a knight's jump is no line


def test_dg_3_4_printed_maneuver_is_the_grounded_range():
    """DG-3.4: maneuver when grounded, flying_maneuver when flying."""
    bird = unit("U-BD1", 2, 1, 1, 1, 1, mdirs=N, kw=["aviation"], fm=3)
    s = game(bird)
    b = put(s, 0, "U-BD1", "a1", flying=False)
    assert [cell_name(c) for c in move_targets(s, b)] == ["a2"]
    b.flying = True
    assert [cell_name(c) for c in move_targets(s, b)] == ["a2", "a3", "a4"]


def test_dg_3_5_the_unique_icon_changes_nothing_in_play():
    """DG-3.5: a unique card deploys like any other."""
    solo = unit("U-UQ1", 2, 1, 1, 1, 1)
    solo.is_unique = True
    s = game(solo)
    give(s, 0, "U-UQ1")
    play(s, "deploy U-UQ1 a1")
    assert any(u.c.code == "U-UQ1" for u in s.units.values())


def test_dg_3_6_cards_belong_to_one_of_the_six_crafts_or_universal():
    """DG-3.6: an unknown craft is refused when a game is set up."""
    assert Compiled(unit("U-OK", craft="universal"), 0).craft == 6
    with pytest.raises(CardDataError):
        Compiled(unit("U-BAD", craft="necromancy"), 0)
    with pytest.raises(GameSetupError):
        new_game([[unit("U-BAD", craft="necromancy")] + FILLER, FILLER], 1)


def test_dg_3_7_a_legend_on_the_battlefield_is_a_unit():
    """DG-3.7: a legend maneuvers, passes the Gateway and can be attacked."""
    s = game(legend("L-T1", vit=4, influence=2), BRUTE)
    lg = put(s, 0, "L-T1", "c2")
    assert move_targets(s, lg)
    play(s, "move c2-c3")
    assert lg.iid in s.beyond[0] and s.beyond_score[0] == 4


def test_dg_3_8_distance_counts_diagonal_steps_as_one():
    """DG-3.8: king steps, as `within` filters measure them."""
    from playtest.dreadgate.board import distance

    assert distance(parse_cell("a1"), parse_cell("c3")) == 2
    assert distance(parse_cell("a1"), parse_cell("e2")) == 4


# --- DG-4 -------------------------------------------------------------------------------------


def test_dg_4_1_the_same_seed_gives_the_same_game():
    """DG-4.1: seed and actions decide everything."""
    a, b = new_game([FILLER, FILLER], 7), new_game([FILLER, FILLER], 7)
    assert to_snapshot(a) == to_snapshot(b)
    assert to_snapshot(new_game([FILLER, FILLER], 8)) != to_snapshot(a)


def test_dg_4_2_decks_are_shuffled():
    """DG-4.2: the deck order is not the list order."""
    s = new_game([FILLER, FILLER], 5)
    order = [s.inst[i].code for i in s.deck[0] + s.hand[0]]
    assert sorted(order) == sorted(c.collector_number for c in FILLER)
    assert order != [c.collector_number for c in FILLER]


def test_dg_4_3_the_seed_decides_who_moves_first_and_that_deck_sits_south():
    """DG-4.3: the first player is seat 0 (South); which deck it is depends on the seed."""
    firsts = {new_game([FILLER, FILLER], seed).deck_of_seat[0] for seed in range(20)}
    assert firsts == {0, 1}
    s = game()
    assert s.active == 0 and s.turn == 1


def test_dg_4_4_each_player_draws_six():
    """DG-4.4: the opening hand is 6 cards."""
    s = new_game([FILLER, FILLER], 1)
    assert [len(h) for h in s.hand] == [OPENING_HAND, OPENING_HAND] == [6, 6]


def test_dg_4_5_one_mulligan_each_first_player_first():
    """DG-4.5: keep or mulligan (hand shuffled back, 6 new cards), first player first."""
    s = new_game([FILLER, FILLER], 1)
    assert s.current_player == 0 and s.legal_actions() == [(18, 0, 0), (19, 0, 0)]
    total = len(s.deck[0]) + len(s.hand[0])
    play(s, "mulligan")
    assert len(s.hand[0]) == 6 and len(s.deck[0]) + 6 == total
    assert s.current_player == 1
    play(s, "keep")
    assert s.phase == 1 and s.active == 0
    refused(s, "mulligan", "DG-5.4")


def test_dg_4_6_a_tables_seed_is_keyed_by_a_secret_nonce_and_checked_against_its_commitment():
    """DG-4.6: the game seed and the AI's seeds come from the seed and the nonce; the seed alone gives neither, the
    revealed pair checks against the commitment and replays the game; an empty nonce keeps the old randomness."""
    nonce, other = "ab" * 32, "cd" * 32
    keyed = fairness.game_seed(7, nonce)
    assert keyed not in {7, fairness.game_seed(7, other), fairness.game_seed(8, nonce)}
    hands = lambda s: [[s.inst[i].code for i in s.deck[p] + s.hand[p]] for p in (0, 1)]  # noqa: E731
    assert hands(new_game([FILLER, FILLER], keyed)) != hands(new_game([FILLER, FILLER], 7))
    assert fairness.opponent_seed(7, nonce, 3) not in {fairness.opponent_seed(7, nonce, 4), 7 * 1_000_003 + 3}
    assert fairness.helper_seed(7, nonce, 3) != fairness.opponent_seed(7, nonce, 3)
    published = fairness.commitment(7, nonce)
    assert len(published) == 64 and published != fairness.commitment(7, other)
    s = new_game([FILLER, FILLER], keyed)
    play(s, "keep")
    play(s, "keep")
    replayed = fairness.verify([FILLER, FILLER], "standard", 7, nonce, published, s.history)
    assert to_snapshot(replayed) == to_snapshot(s)
    with pytest.raises(fairness.CommitmentMismatch):
        fairness.verify([FILLER, FILLER], "standard", 8, nonce, published, s.history)
    # a table opened before the nonce: its game seed is its seed, its AI's seeds the formulas of that time
    assert fairness.game_seed(7, "") == 7
    assert (fairness.opponent_seed(7, "", 3), fairness.helper_seed(7, "", 3)) == (7 * 1_000_003 + 3, 7 + 3)


# --- DG-5 -------------------------------------------------------------------------------------


def test_dg_5_1_four_action_points_a_turn_changed_by_cards():
    """DG-5.1: 4 AP from the second turn; an action_points effect changes the next allowance."""
    s = game()
    end_turn(s)
    assert s.ap == 4
    s.ap_next[0] = -1
    end_turn(s)
    assert s.ap == 3


def test_dg_5_2_the_first_player_has_four_on_the_first_turn_too():
    """DG-5.2: the first turn of the game has the 4 AP of every turn, and a card's change applies to it."""
    s = game()
    assert (s.turn, s.active, s.ap) == (1, 0, 4)
    s = game(keep=False)
    s.ap_next[0] = -1
    play(s, "keep", "keep")
    assert (s.turn, s.ap) == (1, 3)


def test_dg_5_3_unused_points_are_lost():
    """DG-5.3: AP and recycling points don't carry over."""
    s = game()
    s.rp = 2
    end_turn(s)
    end_turn(s)
    assert s.ap == 4 and s.rp == 0


def test_dg_5_4_recycling_and_switching_flight_cost_no_ap():
    """DG-5.4: the AP actions, and the free ones."""
    bird = unit("U-BD2", 2, 1, 1, 1, 1, kw=["aviation"], fm=2)
    s = game(bird, SCOUT)
    put(s, 0, "U-BD2", "a2", flying=True)
    give(s, 0, "U-SC1")
    give(s, 0, "U-F00")
    play(s, "ground a2", "recycle U-F00")
    assert s.ap == 4
    play(s, "draw")
    assert s.ap == 3


def test_dg_5_5_ending_the_turn_passes_it_to_the_opponent():
    """DG-5.5: the player ends the turn when they choose."""
    s = game()
    end_turn(s)
    assert (s.active, s.turn, s.current_player) == (1, 2, 1)


def test_dg_5_6_start_of_turn_sets_points_and_draws_nothing():
    """DG-5.6: AP, influence and talent points are set; no card is drawn."""
    s = game(legend("L-T2", influence=3, craft="hinter"))
    put(s, 1, "L-T2", "c4")
    put(s, 1, "U-F00", "d4")
    hand = len(s.hand[1])
    end_turn(s)
    assert s.ap == 4 and s.infl[4] == 3 and s.tp[1] == 2 and len(s.hand[1]) == hand


def test_dg_5_7_a_unit_maneuvers_once_and_attacks_once_a_turn():
    """DG-5.7."""
    runner = unit("U-RN1", 3, 3, 1, 2, 1)
    s = game(runner, WALL)
    put(s, 0, "U-RN1", "a1")
    put(s, 1, "U-WL1", "a4")
    s.ap = 4
    play(s, "move a1-a2")
    refused(s, "move a2-b2", "DG-5.7")
    play(s, "attack a2 a4", "strike")
    refused(s, "attack a2 a4", "DG-5.7")


def test_dg_5_8_a_unit_deployed_this_turn_cannot_maneuver_or_attack():
    """DG-5.8."""
    s = game(SCOUT, WALL)
    give(s, 0, "U-SC1")
    put(s, 1, "U-WL1", "a2")
    play(s, "deploy U-SC1 a1")
    refused(s, "move a1-a2", "DG-5.8")
    refused(s, "attack a1 a2", "DG-5.8")


def test_dg_5_9_the_defender_decides_the_defence_step():
    """DG-5.9: with two attackers, the defending player distributes the defense."""
    s = game(BRUTE, unit("U-BR2", 3, 5, 1, 1, 1), WALL)
    put(s, 0, "U-BR1", "b2")
    put(s, 0, "U-BR2", "c2")
    put(s, 1, "U-WL1", "b3")
    play(s, "attack b2 b3", "attack c2 b3", "strike")
    assert s.current_player == 1 and s.active == 0


# --- DG-6 -------------------------------------------------------------------------------------


def test_dg_6_1_drawing_costs_one_ap_a_card():
    """DG-6.1."""
    s = game()
    top = s.deck[0][-1]
    play(s, "draw", "draw", "draw", "draw")
    assert s.ap == 0 and top in s.hand[0] and len(s.hand[0]) == 4
    refused(s, "draw", "DG-6.1")


def test_dg_6_2_an_empty_deck_cannot_be_drawn_from_and_loses_nothing():
    """DG-6.2."""
    s = game()
    s.hand[0].extend(s.deck[0])
    s.deck[0].clear()
    s._stamp += 1
    assert (1, 0, 0) not in s.legal_actions()
    refused(s, "draw", "DG-6.2")
    end_turn(s)
    assert not s.is_over()
