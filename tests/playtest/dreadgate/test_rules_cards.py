"""Scenario tests for DG-14 to DG-19: items, talents, glyphs, legends, abilities and the notation."""

from __future__ import annotations

import pytest

from playtest.dreadgate import NotationError, UnknownEffect, check_ability, format_action, game_log, parse_action
from playtest.dreadgate.actions import EQUIP, NO_BEARER, TARGET_UNIT, IllegalAction
from playtest.dreadgate.board import cell_name

from .factories import ability, attach, end_turn, game, gateway, give, item, legend, play, put, talent, unit
from .test_rules_game import refused

PAWN = unit("U-PW", 3, 1, 1, 1, 1)
FOE = unit("U-FO", 4, 1, 1, 1, 1)
HERO = unit("U-HE", 4, 2, 2, 1, 1)


def chosen(side="enemy", **extra):
    return {"select": "chosen", "side": side, **extra}


SWORD = item("I-SW", ability("equipped", {"op": "modify", "stat": "attack", "amount": 2, "duration": "while_source",
                                          "target": {"select": "bearer"}}), cost=2, subtype="weapon")  # fmt: skip
BANNER = item("I-BN", ability("static", {"op": "modify", "stat": "defense", "amount": 1, "duration": "while_source",
                                         "target": {"select": "all", "side": "friendly"}}),
              cost=1, subtype="battlefield")  # fmt: skip
POTION = item("I-PT", ability("consumable", {"op": "heal", "amount": 3, "target": chosen("friendly")}), cost=1,
              subtype="equipment", consumable=True)  # fmt: skip
BOLT = talent("T-BO", ability("play", {"op": "damage", "amount": 2, "target": chosen()}), cost=1,
              subtype="spell talent")  # fmt: skip
SHIELD = talent("T-SH", ability("instant", {"op": "modify", "stat": "defense", "amount": 3,
                                            "duration": "end_of_turn", "target": chosen("friendly")}, cost=1),
                cost=2, instant=True)  # fmt: skip
AURA = talent("T-AU", ability("play", {"op": "modify", "stat": "attack", "amount": 1, "duration": "next_turn",
                                       "target": {"select": "all", "side": "friendly"}}),
              subtype="battlefield talent")  # fmt: skip


# --- DG-14 ------------------------------------------------------------------------------------


def test_dg_14_1_an_item_costs_its_ap_and_is_attached_to_one_of_your_units():
    """DG-14.1: any number of items per unit."""
    s = game(PAWN, FOE, SWORD, item("I-SW2", cost=0))
    pawn = put(s, 0, "U-PW", "b2")
    foe = put(s, 1, "U-FO", "b4")
    give(s, 0, "I-SW")
    give(s, 0, "I-SW2")
    with pytest.raises(IllegalAction, match=r"^I-SW goes on one of your own units on the battlefield; that is not"):
        s.apply((EQUIP, s.by_code["I-SW"], foe.iid))
    play(s, "equip I-SW b2", "equip I-SW2 b2")
    assert s.ap == 2 and len(pawn.items) == 2 and pawn.atk == 3


def test_dg_14_2_a_battlefield_item_goes_to_the_sideline():
    """DG-14.2: no bearer; its static ability applies to friendly units."""
    s = game(PAWN, BANNER)
    pawn = put(s, 0, "U-PW", "b2")
    give(s, 0, "I-BN")
    refused(s, (EQUIP, s.by_code["I-BN"], pawn.iid), "DG-14.2")
    play(s, "equip I-BN")
    assert [s.inst[i].code for i in s.sideline[0]] == ["I-BN"] and pawn.dfn == 2


def test_dg_14_3_a_consumable_resolves_once_and_goes_to_the_boneyard():
    """DG-14.3."""
    s = game(PAWN, POTION)
    pawn = put(s, 0, "U-PW", "b2", vit=1)
    give(s, 0, "I-PT")
    play(s, "equip I-PT")
    assert pawn.vit == 3 and [s.inst[i].code for i in s.boneyard[0]] == ["I-PT"] and not pawn.items


def test_dg_14_4_items_go_to_the_boneyard_with_their_bearer():
    """DG-14.4."""
    s = game(PAWN, FOE, SWORD, BOLT)
    foe = put(s, 1, "U-FO", "b4", vit=2)
    sword = attach(s, 1, "I-SW", foe)
    give(s, 0, "T-BO")
    play(s, "play T-BO")
    assert foe.iid in s.boneyard[1] and sword in s.boneyard[1]


def test_dg_14_5_an_items_subtype_matters_when_a_card_names_it():
    """DG-14.5: a `bears` filter picks the unit with a weapon."""
    disarm = talent("T-DA", ability("play", {"op": "damage", "amount": 1,
                                             "target": {"select": "all", "side": "enemy",
                                                        "filter": {"bears": "weapon"}}}))  # fmt: skip
    s = game(FOE, HERO, SWORD, disarm)
    armed = put(s, 1, "U-FO", "b4")
    attach(s, 1, "I-SW", armed)
    bare = put(s, 1, "U-HE", "d4")
    give(s, 0, "T-DA")
    play(s, "play T-DA")
    assert (armed.vit, bare.vit) == (3, 4)


# --- DG-15, DG-16 -----------------------------------------------------------------------------


def test_dg_15_1_a_talent_costs_its_ap_and_needs_a_legal_target():
    """DG-15.1."""
    s = game(FOE, BOLT)
    give(s, 0, "T-BO")
    refused(s, "play T-BO", "DG-18.5")  # no enemy unit to target
    foe = put(s, 1, "U-FO", "b4")
    play(s, "play T-BO")
    assert foe.vit == 2 and s.ap == 3


def test_dg_15_2_talents_go_to_the_boneyard_lasting_battlefield_talents_wait_on_the_sideline():
    """DG-15.2."""
    s = game(PAWN, AURA, BOLT, FOE)
    pawn = put(s, 0, "U-PW", "b2")
    put(s, 1, "U-FO", "b4")
    give(s, 0, "T-AU")
    give(s, 0, "T-BO")
    play(s, "play T-AU", "play T-BO")
    assert [s.inst[i].code for i in s.sideline[0]] == ["T-AU"] and pawn.atk == 2
    assert [s.inst[i].code for i in s.boneyard[0]] == ["T-BO"]
    end_turn(s)
    assert pawn.atk == 2  # next_turn: until the end of the controller's next turn
    end_turn(s)
    end_turn(s)
    assert pawn.atk == 1 and [s.inst[i].code for i in s.boneyard[0]] == ["T-BO", "T-AU"]


def test_dg_15_3_an_instant_is_played_for_ap_on_your_turn_or_for_talent_points():
    """DG-15.3: card cost 2 in AP, or its instant ability's 1 talent point."""
    s = game(PAWN, SHIELD)
    pawn = put(s, 0, "U-PW", "b2")
    give(s, 0, "T-SH")
    s.tp[0] = 1
    s._stamp += 1
    assert {(10, s.by_code["T-SH"], 0), (11, s.by_code["T-SH"], 0)} <= set(s.legal_actions())
    play(s, "instant T-SH")
    assert (s.ap, s.tp[0], pawn.dfn) == (4, 0, 4)


def test_dg_15_4_talent_points_are_your_units_at_the_start_of_your_turn():
    """DG-15.4: they last through the opponent's turn."""
    s = game(PAWN, HERO)
    put(s, 1, "U-PW", "b4")
    put(s, 1, "U-HE", "c4")
    end_turn(s)
    assert s.tp[1] == 2
    end_turn(s)
    assert s.tp[1] == 2 and s.active == 0


def test_dg_15_5_the_defender_may_answer_an_attack_with_an_instant():
    """DG-15.5: the defence step opens because North can afford an instant; it saves the target."""
    s = game(HERO, FOE, SHIELD)
    put(s, 0, "U-HE", "b3")
    foe = put(s, 1, "U-FO", "b4", vit=1)
    give(s, 1, "T-SH")
    s.tp[1] = 1
    play(s, "attack b3 b4", "strike")
    assert s.phase == 3 and s.current_player == 1
    play(s, "instant T-SH")  # one legal target: chosen automatically
    assert foe.dfn == 4
    play(s, "pass")
    assert foe.vit == 1 and foe.iid in s.units and s.current_player == 0


def test_dg_15_5_no_defence_step_without_a_decision():
    """DG-15.5: one attacker and no affordable instant: the strike resolves at once."""
    s = game(HERO, FOE)
    put(s, 0, "U-HE", "b3")
    foe = put(s, 1, "U-FO", "b4")
    play(s, "attack b3 b4", "strike")
    assert s.phase == 1 and foe.vit == 3


ZAP = talent("T-ZP", ability("instant", {"op": "damage", "amount": 1, "target": chosen()}, cost=1), cost=1,
             instant=True)  # fmt: skip


def _window_game(*cards, tp=1):
    """South on turn with PAWN in hand; North holds ZAP and `tp` talent points."""
    s = game(PAWN, ZAP, HERO, BOLT, *cards)
    give(s, 0, "U-PW")
    give(s, 1, "T-ZP")
    s.tp[1] = tp
    return s


def test_dg_15_5_the_opponent_may_answer_a_deployment_in_a_response_window():
    """DG-15.5: after South deploys, North may answer with an instant: only its instants and pass are legal."""
    s = _window_game()
    play(s, "deploy U-PW b1")
    assert s.phase == 7 and s.current_player == 1
    assert s.legal_actions() == [(11, s.by_code["T-ZP"], 0), (8, 0, 0)]
    refused(s, "end", "DG-15.5")
    refused(s, "draw", "DG-15.5")
    assert s.observation(1)["phase"] == "response" and "hand" not in s.observation(0)["players"][1]
    assert s.observation(0)["phase"] == "main"  # DG-15.7: South is not shown North's window
    play(s, "instant T-ZP")  # the only enemy: its target is chosen at once
    pawn = s.units[s.board[1]]
    assert pawn.vit == 2 and s.tp[1] == 0
    assert s.phase == 1 and s.current_player == 0  # nothing left to answer with: South goes on


def test_dg_15_5_pass_lets_the_action_stand_and_the_turn_goes_on():
    """DG-15.5: a pass closes the window; a maneuver opens the next one; undo takes the pass back."""
    s = _window_game()
    points = s.ap
    play(s, "deploy U-PW b1", "pass")
    assert s.phase == 1 and s.current_player == 0 and s.ap == points - PAWN.vitality
    s = _window_game()
    hero = put(s, 0, "U-HE", "c2")
    play(s, "move c2-b3")
    assert s.phase == 7 and s.current_player == 1
    play(s, "pass")
    s.undo()
    assert s.phase == 7 and s.current_player == 1 and hero.cell == 11


def test_dg_15_5_a_window_opens_after_the_targets_of_the_action_are_chosen():
    """DG-15.5: South's talent resolves with its target first; then North may answer."""
    s = _window_game()
    put(s, 0, "U-HE", "c2")
    put(s, 1, "U-F00", "b4")
    put(s, 1, "U-F01", "c4")
    give(s, 0, "T-BO")
    play(s, "play T-BO")
    assert s.phase == 4 and s.current_player == 0
    play(s, "target b4")
    assert s.phase == 7 and s.current_player == 1


def test_dg_15_5_no_window_without_an_instant_to_play():
    """DG-15.5: no talent points, no instant or no legal target: no window (a draw with no unit of South's to
    hit; windows after a draw: test_rules_windows.py)."""
    s = _window_game(tp=0)
    play(s, "deploy U-PW b1")
    assert s.phase == 1 and s.current_player == 0
    s = _window_game()
    s.hand[1].clear()
    play(s, "deploy U-PW b1")
    assert s.phase == 1
    s = _window_game()
    play(s, "draw")
    assert s.phase == 1 and s.current_player == 0


def test_dg_15_5_the_window_stays_open_while_the_responder_can_play_another_instant():
    """DG-15.5: two instants and the points for both: the window stays open after the first, then closes."""
    zap2 = talent("T-Z2", ability("instant", {"op": "damage", "amount": 1, "target": chosen()}, cost=1), cost=1,
                  instant=True)  # fmt: skip
    s = _window_game(zap2, tp=2)
    give(s, 1, "T-Z2")
    play(s, "deploy U-PW b1", "instant T-ZP")
    assert s.phase == 7 and s.current_player == 1 and s.tp[1] == 1
    play(s, "instant T-Z2")
    assert s.phase == 1 and s.current_player == 0 and s.units[s.board[1]].vit == 1


def test_dg_16_1_a_glyph_is_played_like_a_talent_and_kills_spectral_units():
    """DG-16.1."""
    glyph = talent("G-GL", ability("play", {"op": "damage", "amount": 2, "target": chosen()}), type="glyph",
                   subtype="", cost=2)  # fmt: skip
    ghost = unit("U-GH", 2, 1, 1, 1, 1, kw=["spectral"])
    s = game(glyph, ghost)
    g = put(s, 1, "U-GH", "b4")
    give(s, 0, "G-GL")
    play(s, "play G-GL")
    assert g.iid in s.boneyard[1] and s.ap == 2 and any(s.inst[i].code == "G-GL" for i in s.boneyard[0])


# --- DG-17 ------------------------------------------------------------------------------------


def test_dg_17_1_a_legend_is_deployed_like_a_unit():
    """DG-17.1."""
    s = game(legend("L-LG", vit=3, influence=2))
    give(s, 0, "L-LG")
    play(s, "deploy L-LG c1")
    assert s.units[s.board[2]].c.kind == "legend" and s.ap == 4 - 3


def test_dg_17_2_influence_comes_from_the_next_turn_and_not_from_a_subdued_legend():
    """DG-17.2."""
    subduer = unit("U-SB", 3, 1, 1, 1, 1, kw=["subdue"])
    s = game(legend("L-LG", vit=3, influence=2, craft="hinter"), subduer)
    give(s, 0, "L-LG")
    play(s, "deploy L-LG c1")
    assert s.infl[4] == 0
    end_turn(s)
    end_turn(s)
    assert s.infl[4] == 2
    lg = s.units[s.board[2]]
    sub = put(s, 1, "U-SB", "c2")
    s._lift(sub)
    sub.cell, sub.subduing, lg.subdued_by = lg.cell, lg.iid, sub.iid
    end_turn(s)
    end_turn(s)
    assert s.infl[4] == 0


def test_dg_17_3_a_legends_ability_is_used_like_any_units():
    """DG-17.3."""
    bolter = legend("L-BL", abilities=[ability("activated", {"op": "damage", "amount": 1, "target": chosen()},
                                               cost=1)])  # fmt: skip
    s = game(bolter, FOE)
    put(s, 0, "L-BL", "b2")
    foe = put(s, 1, "U-FO", "d4")
    play(s, "use b2 1")
    assert foe.vit == 3


def test_dg_17_4_influence_of_any_craft_pays_universal_talents_and_items_after_their_first_ap():
    """DG-17.4: a universal talent or item is paid with its first AP, then influence of any craft, then AP;
    a crafted one in AP only, whatever influence of its craft there is."""
    uni_bolt = talent("T-UB", ability("play", {"op": "damage", "amount": 2, "target": chosen()}), cost=3,
                      craft="universal")  # fmt: skip
    uni_sword = item("I-US", cost=2, craft="universal")
    own_sword = item("I-ES", cost=2, craft="engineering")
    s = game(PAWN, FOE, uni_bolt, uni_sword, own_sword)
    pawn = put(s, 0, "U-PW", "b2")
    foe = put(s, 1, "U-FO", "b4")
    for code in ("T-UB", "I-US", "I-ES"):
        give(s, 0, code)
    s.ap, s.infl[3], s.infl[5] = 2, 1, 1  # 2 AP, 1 engineering and 1 sorcery influence
    s._stamp += 1
    legal = set(s.legal_actions())
    assert (10, s.by_code["T-UB"], 0) in legal and (9, s.by_code["I-ES"], pawn.iid) in legal
    play(s, "play T-UB")  # 1 AP, the 2 influence (engineering first), no more AP
    assert foe.vit == 2 and s.ap == 1 and sum(s.infl) == 0
    s.undo()
    assert s.ap == 2 and (s.infl[3], s.infl[5]) == (1, 1)
    s.ap, s.infl[3], s.infl[5] = 1, 3, 0
    s._stamp += 1
    refused(s, (EQUIP, s.by_code["I-ES"], pawn.iid), "DG-14.1")  # its own craft's influence pays no item
    play(s, "equip I-US b2")
    assert s.ap == 0 and s.infl[3] == 2 and len(pawn.items) == 1
    s.ap, s.infl[3] = 0, 9
    s._stamp += 1
    refused(s, "play T-UB", "DG-15.1")  # the first AP is paid in AP
    with pytest.raises(IllegalAction, match="1 AP, the rest in AP or influence of any colour"):
        s.apply(parse_action(s, "play T-UB"))  # the refusal says what may pay a universal card
    s.ap = 1
    s._stamp += 1
    with pytest.raises(IllegalAction, match=r"I-ES costs 2 AP \(DG-14.1\)$"):
        s.apply((EQUIP, s.by_code["I-ES"], pawn.iid))  # a crafted card: AP only


# --- DG-18 ------------------------------------------------------------------------------------


def test_dg_18_1_the_engine_refuses_effects_outside_the_vocabulary():
    """DG-18.1."""
    with pytest.raises(UnknownEffect):
        check_ability(ability("play", {"op": "teleport", "target": {"select": "self"}}))
    check_ability(ability("play", {"op": "draw", "player": "self", "amount": 1}))


def test_dg_18_2_activated_abilities_cost_ap_once_a_turn_instants_cost_talent_points():
    """DG-18.2."""
    medic = unit("U-MD", 3, 1, 1, 1, 1, abilities=[
        ability("activated", {"op": "heal", "amount": 1, "target": {"select": "self"}}, cost=1),
        ability("instant", {"op": "modify", "stat": "attack", "amount": 1, "duration": "end_of_turn",
                            "target": {"select": "self"}}, cost=1),
    ])  # fmt: skip
    s = game(medic)
    m = put(s, 0, "U-MD", "b2", vit=1)
    s.tp[0] = 1
    play(s, "use b2 1")
    assert (m.vit, s.ap) == (2, 3)
    refused(s, "use b2 1", "DG-18.2")
    play(s, "use b2 2")
    assert (m.atk, s.tp[0], s.ap) == (2, 0, 3)


def test_dg_18_3_a_stunned_unit_cannot_use_its_abilities():
    """DG-18.3."""
    medic = unit("U-MD", 3, 1, 1, 1, 1, abilities=[
        ability("activated", {"op": "heal", "amount": 1, "target": {"select": "self"}}, cost=1)])
    control = game(medic)
    put(control, 0, "U-MD", "b2")
    assert parse_action(control, "use b2 1") in control.legal_actions()  # the same unit, not stunned, may use it
    s = game(medic)
    m = put(s, 0, "U-MD", "b2")
    m.stun = s.turn
    refused(s, "use b2 1", "DG-18.2")
    refused(s, "move b2-b3", "DG-18.3")


def test_dg_18_4_targets_are_chosen_one_at_a_time_before_anything_resolves():
    """DG-18.4."""
    volley = talent("T-VO", ability("play", {"op": "damage", "amount": 1, "target": chosen(count=2)}))
    s = game(volley, FOE, HERO, PAWN)
    a = put(s, 1, "U-FO", "a4")
    b = put(s, 1, "U-HE", "b4")
    put(s, 1, "U-PW", "c4")
    give(s, 0, "T-VO")
    play(s, "play T-VO")
    assert s.phase == 4 and all(k == TARGET_UNIT for k, _, _ in s.legal_actions())
    refused(s, "end", "DG-18.4")
    play(s, "target a4")
    assert a.vit == 4  # nothing resolves before the last choice
    assert (TARGET_UNIT, a.iid, 0) not in s.legal_actions()
    play(s, "target b4")
    assert (a.vit, b.vit, s.phase) == (3, 3, 1)


def test_dg_18_5_no_legal_target_no_play_and_fewer_targets_are_all_taken():
    """DG-18.5."""
    volley = talent("T-VO", ability("play", {"op": "damage", "amount": 1, "target": chosen(count=3)}))
    s = game(volley, FOE)
    give(s, 0, "T-VO")
    refused(s, "play T-VO", "DG-18.5")
    foe = put(s, 1, "U-FO", "a4")
    play(s, "play T-VO")
    assert foe.vit == 3 and s.phase == 1


def test_dg_18_6_durations_end_of_turn_and_next_turn():
    """DG-18.6: end_of_turn ends at this END; next_turn at the end of the controller's next turn."""
    rally = talent("T-RA", ability("play", {"op": "sequence", "steps": [
        {"op": "modify", "stat": "attack", "amount": 1, "duration": "end_of_turn", "target": chosen("friendly")},
        {"op": "modify", "stat": "defense", "amount": 1, "duration": "next_turn", "target": {"select": "previous"}},
        {"op": "modify", "stat": "range", "amount": 1, "duration": "permanent", "target": {"select": "previous"}},
    ]}))  # fmt: skip
    s = game(rally, PAWN)
    p = put(s, 0, "U-PW", "b2")
    give(s, 0, "T-RA")
    play(s, "play T-RA")
    assert (p.atk, p.dfn, p.rng) == (2, 2, 2)
    end_turn(s)
    assert (p.atk, p.dfn, p.rng) == (1, 2, 2)
    end_turn(s)
    end_turn(s)
    assert (p.atk, p.dfn, p.rng) == (1, 1, 2)


def test_dg_18_7_move_away_follows_the_source():
    """DG-18.7: away from the source cell, as far as the controller chooses (toward: test_rules_strict.py)."""
    pusher = unit("U-PU", 3, 1, 1, 1, 1, abilities=[ability("activated", {
        "op": "move", "distance": 2, "direction": "away", "target": chosen(filter={"within": 1})}, cost=1)])
    s = game(pusher, FOE)
    put(s, 0, "U-PU", "b2")
    foe = put(s, 1, "U-FO", "c2")
    play(s, "use b2 1", "distance 2")
    assert cell_name(foe.cell) == "e2"


def test_dg_18_7_up_to_n_cells_the_controller_chooses_how_far():
    """DG-18.7: "up to 2 cells": the controller chooses 1 or 2, after the direction; only as far as the way is
    free, and no choice when it can go only one cell."""
    blink = talent("T-BL", ability("play", {"op": "move", "distance": 2, "direction": "chosen",
                                            "target": chosen("friendly")}))  # fmt: skip
    s = game(blink, PAWN, HERO)
    pawn = put(s, 0, "U-PW", "b1")
    give(s, 0, "T-BL")
    play(s, "play T-BL", "target n")
    assert s.phase == 4 and s.legal_actions() == [(20, 1, 0), (20, 2, 0)]
    refused(s, "distance 3", "DG-18.7")
    play(s, "distance 1")
    assert cell_name(pawn.cell) == "b2" and s.phase == 1
    s = game(blink, PAWN, HERO)
    pawn = put(s, 0, "U-PW", "b1")
    put(s, 1, "U-HE", "b3")
    give(s, 0, "T-BL")
    play(s, "play T-BL", "target n")  # b3 is taken: one cell is as far as it goes, nothing to choose
    assert cell_name(pawn.cell) == "b2" and s.phase == 1
    s = game(blink, PAWN, HERO)
    pawn = put(s, 0, "U-PW", "b1")
    give(s, 0, "T-BL")
    play(s, "play T-BL", "target ne", "distance 2")
    assert cell_name(pawn.cell) == "d3"


def test_dg_18_8_the_discarding_owner_chooses_card_by_card():
    """DG-18.8."""
    squeeze = talent("T-SQ", ability("play", {"op": "discard", "player": "opponent", "amount": 2,
                                              "chooser": "owner"}))  # fmt: skip
    s = game(squeeze, FOE, HERO, PAWN)
    give(s, 0, "T-SQ")
    for code in ("U-FO", "U-HE", "U-PW"):
        give(s, 1, code)
    play(s, "play T-SQ")
    assert s.phase == 5 and s.current_player == 1
    refused(s, "end", "DG-18.8")
    play(s, "discard U-HE", "discard U-PW")
    assert [s.inst[i].code for i in s.hand[1]] == ["U-FO"] and s.phase == 1 and s.current_player == 0


def test_dg_18_9_a_revealed_hand_is_shown_to_the_controller_only():
    """DG-18.9."""
    peek = talent("T-PK", ability("play", {"op": "reveal_hand", "player": "opponent", "amount": 0}))
    s = game(peek, FOE)
    give(s, 0, "T-PK")
    give(s, 1, "U-FO")
    play(s, "play T-PK")
    assert s.observation(0)["revealed"] == ["U-FO"] and s.observation(1)["revealed"] == []
    end_turn(s)
    assert s.observation(0)["revealed"] == []


def test_dg_18_10_search_takes_the_first_match_from_the_top():
    """DG-18.10."""
    seek = talent("T-SK", ability("play", {"op": "search_deck", "player": "self", "amount": 1,
                                           "filter": {"type": ["legend"]}}))  # fmt: skip
    s = game(seek, legend("L-A1"), legend("L-A2"))
    give(s, 0, "T-SK")
    legends = [i for i in s.deck[0] if s.inst[i].kind == "legend"]
    top_first = max(legends, key=s.deck[0].index)
    play(s, "play T-SK")
    assert top_first in s.hand[0] and len(s.hand[0]) == 1


def test_dg_18_11_cards_out_of_play_have_no_effect_and_a_gateway_helps_its_owner():
    """DG-18.11."""
    banner_unit = unit("U-BN", 3, 1, 1, 1, 1, abilities=[ability("static", {
        "op": "modify", "stat": "attack", "amount": 5, "duration": "while_source",
        "target": {"select": "all", "side": "friendly"}})])  # fmt: skip
    gate = gateway(ability("static", {"op": "modify", "stat": "defense", "amount": 1, "duration": "while_source",
                                      "target": {"select": "all", "side": "friendly"}}))  # fmt: skip
    s = game(banner_unit, gate, PAWN)
    give(s, 0, "U-BN")  # in hand: no effect
    p = put(s, 1, "U-PW", "b4")
    assert p.atk == 1 and p.dfn == 2  # North's gateway raises North's defense; South's hand does nothing


def test_an_aura_that_reaches_by_distance_follows_every_maneuver():
    """effects.md: continuous abilities are re-evaluated on change; a plain maneuver changes what `within` sees."""
    captain = unit("U-CP", 3, 1, 1, 1, 1, abilities=[ability("static", {
        "op": "modify", "stat": "defense", "amount": 1, "duration": "while_source",
        "target": {"select": "all", "side": "friendly", "filter": {"within": 1}}})])  # fmt: skip
    s = game(captain, PAWN)
    put(s, 0, "U-CP", "b2")
    pawn = put(s, 0, "U-PW", "d1")
    assert pawn.dfn == 1
    play(s, "move d1-c1")  # the pawn walks into the aura
    assert pawn.dfn == 2
    play(s, "move b2-a3")  # the captain walks away from it
    assert pawn.dfn == 1


# --- DG-19 ------------------------------------------------------------------------------------


def test_dg_19_1_every_action_has_a_text_form_and_bad_text_says_where():
    """DG-19.1."""
    s = game(PAWN, FOE)
    put(s, 0, "U-PW", "b2")
    put(s, 1, "U-FO", "b3")
    for action in s.legal_actions():
        assert parse_action(s, format_action(s, action)) == action
    assert format_action(s, (EQUIP, 0, NO_BEARER)).startswith("equip ")
    with pytest.raises(NotationError) as exc:
        parse_action(s, "move b2-z9")
    assert exc.value.position == 8
    with pytest.raises(NotationError) as exc:
        parse_action(s, "attack b2 c4")
    assert exc.value.position == 10 and "no enemy unit on c4" in exc.value.message
    with pytest.raises(NotationError):
        parse_action(s, "fly")
    s = game(keep=False)
    play(s, "keep", "mulligan", "draw", "end")
    assert game_log(s) == ["keep", "mulligan", "draw", "end"]


def test_dg_18_8_after_a_discard_in_the_defence_step_the_defender_decides_again():
    """DG-18.8: an instant in the defence step makes the attacker discard; then the defence step resumes."""
    spite = talent("T-SP", ability("instant", {"op": "discard", "player": "opponent", "amount": 1,
                                               "chooser": "owner"}, cost=1), instant=True)  # fmt: skip
    s = game(HERO, FOE, PAWN, spite)
    put(s, 0, "U-HE", "b3")
    put(s, 1, "U-FO", "b4")
    give(s, 0, "U-PW")
    give(s, 1, "T-SP")
    s.tp[1] = 1
    play(s, "attack b3 b4", "strike", "instant T-SP")
    assert s.phase == 5 and s.current_player == 0  # South chooses its own discard
    play(s, "discard U-PW")
    assert s.phase == 3 and s.current_player == 1
    play(s, "pass")
    assert s.phase == 1 and s.current_player == 0


def test_dg_18_1_unknown_sides_filters_and_crafts_are_refused_not_ignored():
    """DG-18.1: a target the vocabulary doesn't define raises UnknownEffect."""
    for target in ({"select": "all", "side": "neutral"}, {"select": "all", "side": "enemy", "filter": {"near": 1}},
                   {"select": "all", "side": "enemy", "filter": {"craft": ["necromancy"]}}):  # fmt: skip
        with pytest.raises(UnknownEffect):
            check_ability(ability("play", {"op": "destroy", "target": target}))


def test_dg_18_7_a_chosen_direction_is_named_from_the_controllers_side():
    """DG-18.7: North pushes a unit 'n', which is down the ranks for North."""
    shove = talent("T-SV", ability("play", {"op": "move", "distance": 1, "direction": "chosen",
                                            "target": chosen(side="any")}))  # fmt: skip
    s = game(shove, FOE)
    end_turn(s)
    foe = put(s, 0, "U-FO", "b4")
    give(s, 1, "T-SV")
    play(s, "play T-SV", "target n")
    assert cell_name(foe.cell) == "b3"
