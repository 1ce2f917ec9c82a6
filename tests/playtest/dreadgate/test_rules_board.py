"""Scenario tests for DG-7 to DG-9, DG-11 and DG-12: deploying and paying, maneuvering, the Gateway,
aviation, subdue and execution."""

from __future__ import annotations

from playtest.dreadgate import parse_action
from playtest.dreadgate.board import cell_name, parse_cell
from playtest.dreadgate.rules import move_targets

from .factories import N, ability, attach, end_turn, game, give, item, play, put, talent, unit
from .test_rules_game import refused

SCOUT = unit("U-SC1", 2, 1, 1, 1, 2, mdirs=N)
RUNNER = unit("U-RN1", 3, 2, 1, 1, 3)
BIG = unit("U-BG1", 7, 4, 4, 1, 1, craft="sorcery")
SMALL_UNI = unit("U-UN1", 4, 1, 1, 1, 1, craft="universal")
BIRD = unit("U-BD1", 3, 2, 1, 2, 1, kw=["aviation"], fm=2)
SUBDUER = unit("U-SB1", 3, 1, 2, 1, 2, kw=["subdue"])
EXECUTOR = unit("U-EX1", 3, 5, 1, 1, 2, kw=["execution"])
GHOST = unit("U-GH1", 3, 1, 1, 1, 1, kw=["spectral"])
VICTIM = unit("U-VC1", 4, 1, 1, 1, 1)


def cells(state, unit_) -> list[str]:
    return [cell_name(c) for c in move_targets(state, unit_)]


# --- DG-7 -------------------------------------------------------------------------------------


def test_dg_7_1_deploying_needs_the_card_in_hand_and_an_empty_deploy_cell():
    """DG-7.1."""
    s = game(SCOUT, RUNNER)
    put(s, 0, "U-RN1", "a1")
    refused(s, "deploy U-SC1 b1", "DG-7.1")  # not in hand
    give(s, 0, "U-SC1")
    refused(s, "deploy U-SC1 a1", "DG-7.1")  # occupied
    play(s, "deploy U-SC1 b1")
    assert s.units[s.board[parse_cell("b1")]].c.code == "U-SC1"


def test_dg_7_2_the_cost_is_the_printed_vitality():
    """DG-7.2: a vitality-3 unit takes 3 AP when nothing else pays."""
    s = game(RUNNER)
    give(s, 0, "U-RN1")
    play(s, "deploy U-RN1 c1")
    assert s.ap == 4 - 3


def test_dg_7_3_deploying_spends_at_least_one_ap_then_influence_recycling_and_ap():
    """DG-7.3: influence first, then recycling points, then AP; at least 1 AP; refused if short."""
    s = game(BIG)
    give(s, 0, "U-BG1")
    s.ap, s.rp, s.infl[5] = 4, 1, 3  # 1 AP + 3 influence + 1 recycling + 2 AP = 7
    play(s, "deploy U-BG1 a1")
    assert (s.ap, s.rp, s.infl[5]) == (1, 0, 0)
    s = game(BIG)
    give(s, 0, "U-BG1")
    s.ap, s.infl[5] = 0, 9
    refused(s, "deploy U-BG1 a1", "DG-7.3")
    s.ap, s.infl[5] = 3, 2
    refused(s, "deploy U-BG1 a1", "DG-7.3")


def test_dg_7_4_influence_pays_its_own_craft_and_any_colour_pays_universal():
    """DG-7.4: sorcery influence pays a sorcery or universal unit, not a champion one."""
    champ = unit("U-CH1", 4, 1, 1, 1, 1, craft="champion")
    s = game(SMALL_UNI, champ)
    give(s, 0, "U-UN1")
    give(s, 0, "U-CH1")
    s.ap, s.infl[5] = 1, 3
    s._stamp += 1
    deployable = {s.defs[a[1]].code for a in s.legal_actions() if a[0] == 2}
    assert deployable == {"U-UN1"}
    refused(s, "deploy U-CH1 a1", "DG-7.3")
    play(s, "deploy U-UN1 a1")
    assert s.infl[5] == 0 and s.ap == 0


def test_dg_7_5_a_fresh_unit_is_at_full_vitality_flying_and_its_deploy_ability_resolves():
    """DG-7.5."""
    herald = unit("U-HR1", 2, 1, 1, 1, 1, kw=["aviation"], fm=1,
                  abilities=[ability("deploy", {"op": "draw", "player": "self", "amount": 2})])  # fmt: skip
    s = game(herald)
    give(s, 0, "U-HR1")
    play(s, "deploy U-HR1 a1")
    u = s.units[s.board[parse_cell("a1")]]
    assert u.vit == 2 and u.flying and len(s.hand[0]) == 2


def test_dg_7_6_recycling_any_card_of_the_hand_gives_one_point():
    """DG-7.6: a card from hand to the boneyard for 1 recycling point, for no AP: any card, the last unit card
    too, and with no unit in hand (a unit drawn later in the turn can use the points); never a card not in hand."""
    s = game(RUNNER, talent("T-RC1"), SMALL_UNI)
    give(s, 0, "T-RC1")
    give(s, 0, "U-RN1")
    play(s, "recycle T-RC1")
    assert s.rp == 1 and s.ap == 4 and s.bone_score[0] == 0
    play(s, "recycle U-RN1")  # the last unit card in hand
    assert s.rp == 2 and not s.hand[0] and s.bone_score[0] == 0
    refused(s, "recycle U-RN1", "DG-7.6")
    top = give(s, 0, "U-UN1")
    s.hand[0].remove(top)
    s.deck[0].append(top)  # the top card of the deck
    play(s, "draw", "deploy U-UN1 a1")  # 4: 1 AP, the 2 recycling points, 1 more AP
    assert (s.ap, s.rp) == (1, 0)


# --- DG-8 -------------------------------------------------------------------------------------


def test_dg_8_1_a_maneuver_costs_one_ap_whatever_the_distance():
    """DG-8.1: 1 AP for 3 cells; not with 0 AP."""
    s = game(RUNNER, SCOUT)
    put(s, 0, "U-RN1", "a1")
    put(s, 0, "U-SC1", "e1")
    play(s, "move a1-a4")
    assert s.ap == 3
    s.ap = 0
    refused(s, "move e1-e2", "DG-8.1")


def test_dg_8_2_maneuvers_follow_the_maneuver_directions_up_to_the_range():
    """DG-8.2: in a maneuver direction, 1 to range cells."""
    s = game(SCOUT)
    u = put(s, 0, "U-SC1", "b1")
    assert cells(s, u) == ["b2", "b3"]
    refused(s, "move b1-b4", "DG-8.2")  # beyond range
    refused(s, "move b1-c1", "DG-8.2")  # e is not one of its directions


def test_dg_8_3_grounded_units_are_blocked_by_any_unit():
    """DG-8.3: own and enemy units block; a plain unit can't end on a unit."""
    s = game(RUNNER, SCOUT)
    u = put(s, 0, "U-RN1", "a1")
    put(s, 0, "U-SC1", "a3")
    put(s, 1, "U-SC1", "c3" if False else "c1")
    assert "a2" in cells(s, u) and "a3" not in cells(s, u) and "a4" not in cells(s, u)
    assert "b1" in cells(s, u) and "c1" not in cells(s, u) and "d1" not in cells(s, u)
    refused(s, "move a1-a4", "DG-8.3")


def test_dg_8_4_flying_units_fly_over_units_and_the_gateway_but_never_end_on_it():
    """DG-8.4."""
    s = game(BIRD, SCOUT)
    b = put(s, 0, "U-BD1", "c2", flying=True)
    put(s, 1, "U-SC1", "b2")
    assert "c4" in cells(s, b) and "c3" not in cells(s, b)
    assert "a2" in cells(s, b) and "b2" not in cells(s, b)
    refused(s, "move c2-c3", "DG-9.2")


def test_dg_8_5_a_grounded_unit_ends_on_the_gateway_and_cannot_pass_over_it():
    """DG-8.5."""
    s = game(RUNNER)
    u = put(s, 0, "U-RN1", "c1")
    assert "c3" in cells(s, u) and "c4" not in cells(s, u)


# --- DG-9 -------------------------------------------------------------------------------------


def test_dg_9_1_passage_scores_the_current_vitality_for_either_player():
    """DG-9.1: a damaged unit scores what it has left; North's units pass too."""
    s = game(RUNNER)
    put(s, 0, "U-RN1", "c1", vit=2)
    play(s, "move c1-c3")
    assert s.beyond_score == [2, 0]
    end_turn(s)
    put(s, 1, "U-RN1", "c5")
    play(s, "move c5-c3")
    assert s.beyond_score == [2, 3]


def test_dg_9_2_a_flying_unit_passes_only_once_grounded():
    """DG-9.2."""
    s = game(BIRD)
    put(s, 0, "U-BD1", "c2", flying=True)
    refused(s, "move c2-c3", "DG-9.2")
    play(s, "ground c2", "move c2-c3")
    assert s.beyond_score[0] == 3


def test_dg_9_3_items_of_a_unit_that_passes_go_to_the_boneyard():
    """DG-9.3."""
    s = game(RUNNER, item("I-SW1"))
    u = put(s, 0, "U-RN1", "c2")
    sword = attach(s, 0, "I-SW1", u)
    play(s, "move c2-c3")
    assert u.iid in s.beyond[0] and sword in s.boneyard[0]


def test_dg_9_4_move_effects_stop_before_the_gateway():
    """DG-9.4: only a maneuver passes a unit through."""
    shove = talent("T-SH1", ability("play", {"op": "move", "distance": 3, "direction": "forward",
                                             "target": {"select": "chosen", "side": "friendly"}}))  # fmt: skip
    s = game(RUNNER, shove)
    u = put(s, 0, "U-RN1", "c1")
    give(s, 0, "T-SH1")
    play(s, "play T-SH1")
    assert cell_name(u.cell) == "c2" and not s.beyond[0]


# --- DG-11 ------------------------------------------------------------------------------------


WINGS = talent("T-WG", ability("play", {"op": "grant_keyword", "keyword": "aviation", "duration": "permanent",
                                       "target": {"select": "all", "side": "any"}}))  # fmt: skip
CLIP = talent("T-CL", ability("play", {"op": "remove_keyword", "keyword": "aviation", "duration": "end_of_turn",
                                      "target": {"select": "all", "side": "any"}}))  # fmt: skip


def test_dg_11_1_an_aviation_unit_enters_flying():
    """DG-11.1."""
    s = game(BIRD)
    give(s, 0, "U-BD1")
    play(s, "deploy U-BD1 a1")
    assert s.units[s.board[parse_cell("a1")]].flying


def test_dg_11_1_a_unit_that_becomes_an_aviation_unit_is_flying_unless_it_shares_a_cell():
    """DG-11.1: granted aviation, a grounded unit is flying at once, but not on a shared cell; a unit that lost
    aviation flies again when it gets it back; taking off this way is not the switch of DG-11.2."""
    s = game(WINGS, CLIP, RUNNER, SUBDUER, VICTIM, BIRD)
    runner = put(s, 0, "U-RN1", "d1")
    subduer = put(s, 0, "U-SB1", "b2")
    victim = put(s, 1, "U-VC1", "b3")
    bird = put(s, 0, "U-BD1", "e2", flying=True)
    give(s, 0, "T-WG")
    give(s, 0, "T-CL")
    play(s, "move b2-b3")  # b3 is shared now (DG-12.2)
    play(s, "play T-WG")
    assert runner.flying and not subduer.flying and not victim.flying and bird.flying
    assert runner.switched != s.turn  # it may still land this turn
    s.undo()
    assert not runner.flying
    play(s, "play T-WG", "play T-CL")
    assert not runner.flying and not bird.flying  # DG-11.5 and effects.md: without aviation it lands
    end_turn(s)  # the removal ends with the turn: both are aviation units again, so flying
    assert runner.flying and bird.flying and not subduer.flying


def test_dg_11_1_a_unit_grounded_by_its_player_stays_grounded_while_an_ability_keeps_its_aviation():
    """DG-11.1: "a player must specify that a unit has been grounded", and then that it is airborne again."""
    harness = item("I-HN", ability("equipped", {"op": "grant_keyword", "keyword": "aviation",
                                                "duration": "while_source", "target": {"select": "bearer"}}),
                   subtype="equipment")  # fmt: skip
    s = game(harness, RUNNER, SCOUT)
    runner = put(s, 0, "U-RN1", "a1")
    give(s, 0, "I-HN")
    give(s, 0, "U-SC1")
    play(s, "equip I-HN a1")
    assert runner.flying
    play(s, "ground a1", "deploy U-SC1 e1")  # the continuous abilities are evaluated again after a deploy
    assert not runner.flying
    end_turn(s)
    end_turn(s)
    assert not runner.flying


def test_dg_11_2_grounding_and_launching_are_free_and_once_a_turn():
    """DG-11.2."""
    s = game(BIRD)
    b = put(s, 0, "U-BD1", "b2", flying=True)
    play(s, "ground b2")
    assert not b.flying and s.ap == 4
    refused(s, "fly b2", "DG-11.2")
    end_turn(s)
    end_turn(s)
    play(s, "fly b2")
    assert b.flying


def test_dg_11_3_flying_and_grounded_ranges():
    """DG-11.3: flying range 2, grounded range 1."""
    s = game(BIRD)
    b = put(s, 0, "U-BD1", "a1", flying=True)
    assert "a3" in cells(s, b)
    b.flying = False
    assert "a3" not in cells(s, b) and "a2" in cells(s, b)


def test_dg_11_4_a_flying_unit_flies_over_the_gateway():
    """DG-11.4."""
    s = game(BIRD)
    put(s, 0, "U-BD1", "c2", flying=True)
    play(s, "move c2-c4")
    assert s.board[parse_cell("c4")] >= 0 and not s.beyond[0]


def test_dg_11_5_flying_units_are_out_of_melee_reach_and_cannot_be_subdued_or_executed():
    """DG-11.5: only ranged attacks reach them; subdue and execution can't land on them; they attack normally."""
    s = game(BIRD, RUNNER, SUBDUER, EXECUTOR)
    bird = put(s, 1, "U-BD1", "b3", flying=True)
    put(s, 0, "U-RN1", "b2")
    sub = put(s, 0, "U-SB1", "a3")
    ex = put(s, 0, "U-EX1", "c4")  # attack 5 against the bird's vitality 3
    refused(s, "attack b2 b3", "DG-10.4")
    assert "b3" not in cells(s, sub) and "b3" not in cells(s, ex)
    bird.flying = False
    s._stamp += 1
    assert "b3" in cells(s, sub) and "b3" in cells(s, ex)  # grounded, both may land on it
    bird.flying = True
    s._stamp += 1
    end_turn(s)
    play(s, "attack b3 b2", "strike")
    assert s.units[s.board[parse_cell("b2")]].vit == 2


# --- DG-12 ------------------------------------------------------------------------------------


def test_dg_12_1_only_subdue_or_execution_share_a_cell_and_only_with_an_enemy():
    """DG-12.1."""
    s = game(SUBDUER, RUNNER, VICTIM)
    sub = put(s, 0, "U-SB1", "b2")
    put(s, 0, "U-RN1", "b3")
    put(s, 1, "U-VC1", "c3" if False else "c2")
    assert "b3" not in cells(s, sub)  # a friend
    assert "c2" in cells(s, sub)  # an enemy


def test_dg_12_2_a_subdued_unit_can_do_nothing_until_the_subduer_leaves():
    """DG-12.2."""
    s = game(SUBDUER, VICTIM)
    sub = put(s, 0, "U-SB1", "b2")
    foe = put(s, 1, "U-VC1", "b3")
    play(s, "move b2-b3")
    assert sub.cell == foe.cell and foe.subdued_by == sub.iid and s.board[foe.cell] == foe.iid
    end_turn(s)
    assert s.tp[1] == 0  # a subdued unit gives no talent point
    refused(s, "move b3.n-b4", "DG-12.2")
    refused(s, "attack b3.n b3.s", "DG-12.2")
    end_turn(s)
    play(s, "move b3.s-a3" if "a3" in cells(s, sub) else "move b3.s-b2")
    assert foe.subdued_by == -1 and s.board[foe.cell] == foe.iid


def test_dg_12_3_allies_of_a_subdued_unit_can_attack_the_subduer():
    """DG-12.3."""
    s = game(SUBDUER, VICTIM, BIG)
    sub = put(s, 0, "U-SB1", "b2")
    put(s, 1, "U-VC1", "b3")
    put(s, 1, "U-BG1", "b4")
    play(s, "move b2-b3")
    end_turn(s)
    assert parse_action(s, "attack b4 b3") == parse_action(s, "attack b4 b3.s")  # the only enemy there is the subduer
    play(s, "attack b4 b3", "strike")
    assert sub.vit == 1  # 4 attack against 2 defense


def test_dg_12_4_execution_kills_an_enemy_whose_vitality_is_below_its_attack():
    """DG-12.4: vitality lower than attack (5): executed; a spectral unit or a sturdier one is not."""
    s = game(EXECUTOR, VICTIM, GHOST, unit("U-TG1", 6, 1, 1, 1, 1))
    ex = put(s, 0, "U-EX1", "b2")
    foe = put(s, 1, "U-VC1", "b3")
    put(s, 1, "U-GH1", "a3")
    put(s, 1, "U-TG1", "c2")
    assert "a3" not in cells(s, ex) and "c2" not in cells(s, ex)
    play(s, "move b2-b3")
    assert foe.iid in s.boneyard[1] and s.bone_score[1] == 4 and s.board[parse_cell("b3")] == ex.iid


def test_dg_8_2_a_range_longer_than_the_board_reaches_the_edge():
    """DG-8.2: a maneuver of 12 (after modifiers) still moves in straight lines, up to the edge."""
    s = game(RUNNER)
    u = put(s, 0, "U-RN1", "a1")
    u.mods.append((3, 9, 10**6))
    u.mods.append((2, 9, 10**6))
    u.recalc()
    assert u.mnv == 12 and u.rng == 10
    assert {"a5", "e1", "b2", "c3"} <= set(cells(s, u)) and "d4" not in cells(s, u)  # the Gateway stops it
    assert sorted(cell_name(a[2]) for a in s.legal_actions() if a[0] == 4) == sorted(cells(s, u))
