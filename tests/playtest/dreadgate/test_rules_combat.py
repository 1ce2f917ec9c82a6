"""Scenario tests for DG-10 (attacking and combat) and DG-13 (spectral)."""

from __future__ import annotations

from playtest.dreadgate.actions import ATTACK

from .factories import N, ability, attach, end_turn, game, give, item, play, put, talent, unit
from .test_rules_game import refused

A = unit("U-CA", 4, 2, 0, 1, 1)  # the seed's Unit A: attack 2
B = unit("U-CB", 4, 3, 0, 1, 1)  # Unit B: attack 3
C = unit("U-CC", 9, 0, 4, 1, 1)  # Unit C: defense 4
ARCHER = unit("U-AR", 3, 3, 0, 3, 1, adirs=N)
LANCER = unit("U-LN", 3, 3, 1, 1, 1)
WALL = unit("U-WL", 5, 1, 4, 1, 1)
BIRD = unit("U-BD", 3, 1, 1, 1, 1, kw=["aviation"], fm=2)
GHOST = unit("U-GH", 3, 1, 1, 1, 1, kw=["spectral"])
RELIC = item("I-RW", subtype="relic weapon")


def test_dg_10_1_an_attack_costs_one_ap_and_needs_an_enemy_in_direction_and_range():
    """DG-10.1."""
    s = game(ARCHER, LANCER, WALL)
    archer = put(s, 0, "U-AR", "b1")
    lancer = put(s, 0, "U-LN", "c1")
    wall = put(s, 1, "U-WL", "b4")
    side = put(s, 1, "U-LN", "e3")
    refused(s, (ATTACK, archer.iid, lancer.iid), "DG-10.1")  # a friend
    refused(s, (ATTACK, lancer.iid, side.iid), "DG-10.1")  # out of range (2 cells, range 1)
    refused(s, (ATTACK, archer.iid, side.iid), "DG-10.1")  # not on a line in its directions
    play(s, "attack b1 b4")
    assert s.ap == 3
    play(s, "strike")
    assert wall.vit == 5  # 3 attack against 4 defense: nothing; ranged, so no return damage


def test_dg_10_2_units_and_the_gateway_do_not_block_attacks():
    """DG-10.2: an archer shoots over a friend and over the Gateway."""
    s = game(ARCHER, LANCER, unit("U-TG", 5, 0, 0, 1, 1))
    put(s, 0, "U-AR", "c1")
    put(s, 0, "U-LN", "c2")
    target = put(s, 1, "U-TG", "c4")
    play(s, "attack c1 c4", "strike")
    assert target.vit == 2


def test_dg_10_3_distance_one_is_melee_beyond_is_ranged():
    """DG-10.3: the same attacker takes return damage in melee only."""
    s = game(ARCHER, WALL)
    archer = put(s, 0, "U-AR", "b1")
    put(s, 1, "U-WL", "b2")
    play(s, "attack b1 b2", "strike")
    assert archer.vit == 2  # melee: 4 defense - 3 attack
    s = game(ARCHER, WALL)
    archer = put(s, 0, "U-AR", "b1")
    put(s, 1, "U-WL", "b3")
    play(s, "attack b1 b3", "strike")
    assert archer.vit == 3


def test_dg_10_4_only_ranged_attacks_reach_a_flying_unit():
    """DG-10.4."""
    s = game(ARCHER, BIRD)
    archer = put(s, 0, "U-AR", "b1")
    bird = put(s, 1, "U-BD", "b2", flying=True)
    refused(s, (ATTACK, archer.iid, bird.iid), "DG-10.4")
    s = game(ARCHER, BIRD)
    put(s, 0, "U-AR", "b1")
    bird = put(s, 1, "U-BD", "b3", flying=True)
    play(s, "attack b1 b3", "strike")
    assert bird.vit == 1


def test_dg_10_5_several_attackers_declare_then_strike_together():
    """DG-10.5: after a declaration only more attackers on the same target, or the strike."""
    s = game(A, B, C, LANCER)
    put(s, 0, "U-CA", "b2")
    put(s, 0, "U-CB", "c2")
    put(s, 1, "U-CC", "b3")
    other = put(s, 1, "U-LN", "d3")
    play(s, "attack b2 b3")
    assert sorted(k for k, _, _ in s.legal_actions()) == [5, 6]  # attack (same target) or strike
    refused(s, "end", "DG-10.5")
    refused(s, (ATTACK, s.board[7], other.iid), "DG-10.5")  # c2 joins, but against another target
    play(s, "attack c2 b3", "strike")
    assert s.phase == 3  # the defender distributes 4 defense between A and B


def test_dg_10_6_the_target_takes_total_attack_minus_defense():
    """DG-10.6: the difference is damage; enough of it kills."""
    s = game(LANCER, C)
    put(s, 0, "U-LN", "b2")
    c = put(s, 1, "U-CC", "b3")
    play(s, "attack b2 b3", "strike")
    assert c.vit == 9  # 3 - 4: no damage to the target
    s = game(B, unit("U-SF", 2, 0, 1, 1, 1))
    put(s, 0, "U-CB", "b2")
    soft = put(s, 1, "U-SF", "b3")
    play(s, "attack b2 b3", "strike")
    assert soft.iid in s.boneyard[1]  # 3 - 1 = 2 damage kills a vitality-2 unit


def test_dg_10_7_melee_attackers_take_the_defense_minus_their_attack():
    """DG-10.7: the seed's example: attack 2 into defense 3 costs the attacker 1."""
    s = game(A, unit("U-D3", 5, 0, 3, 1, 1))
    a = put(s, 0, "U-CA", "b2")
    put(s, 1, "U-D3", "b3")
    play(s, "attack b2 b3", "strike")
    assert a.vit == 3


def test_dg_10_8_the_defender_distributes_defense_the_seeds_example():
    """DG-10.8: A (2) and B (3) attack C (defense 4); C blocks A with all 4: A takes 2, B none, C takes 1."""
    s = game(A, B, C)
    a = put(s, 0, "U-CA", "b2")
    b = put(s, 0, "U-CB", "c2")
    c = put(s, 1, "U-CC", "b3")
    play(s, "attack b2 b3", "attack c2 b3", "strike")
    assert s.current_player == 1
    refused(s, "pass", "DG-10.8")
    refused(s, "defend b2 5", "DG-10.8")
    play(s, "defend b2 4")
    assert (a.vit, b.vit, c.vit) == (2, 4, 8)
    assert s.current_player == 0 and s.phase == 1


def test_dg_10_9_damage_is_simultaneous_and_an_attacker_that_left_deals_nothing():
    """DG-10.9: both can die in one strike; an attacker removed before resolution does nothing."""
    s = game(A, B, C)
    a = put(s, 0, "U-CA", "b2", vit=1)
    put(s, 0, "U-CB", "c2")
    c = put(s, 1, "U-CC", "b3", vit=1)
    play(s, "attack b2 b3", "attack c2 b3", "strike", "defend b2 4")
    assert a.iid in s.boneyard[0] and c.iid in s.boneyard[1]
    s = game(A, B, C)
    a = put(s, 0, "U-CA", "b2")
    b = put(s, 0, "U-CB", "c2")
    c = put(s, 1, "U-CC", "b3")
    play(s, "attack b2 b3", "attack c2 b3", "strike")
    s._kill(b)  # as if an instant had killed B in the defence step
    s._stamp += 1
    play(s, "defend b2 4")
    assert c.vit == 9 and a.vit == 2 and a.attacked == s.turn


def test_dg_13_1_spectral_units_die_only_to_relic_weapons_talents_glyphs_and_destroy():
    """DG-13.1."""
    s = game(B, GHOST)
    put(s, 0, "U-CB", "b2")
    ghost = put(s, 1, "U-GH", "b3", vit=2)
    play(s, "attack b2 b3", "strike")
    assert ghost.vit == 1 and ghost.iid in s.units  # 2 damage, but it stays at 1
    s = game(B, GHOST, RELIC)
    attacker = put(s, 0, "U-CB", "b2")
    attach(s, 0, "I-RW", attacker)
    ghost = put(s, 1, "U-GH", "b3", vit=2)
    play(s, "attack b2 b3", "strike")
    assert ghost.iid in s.boneyard[1]
    bolt = talent("T-BO", ability("play", {"op": "damage", "amount": 3,
                                           "target": {"select": "chosen", "side": "enemy"}}), subtype="spell talent")
    s = game(GHOST, bolt)
    ghost = put(s, 1, "U-GH", "b3")
    give(s, 0, "T-BO")
    play(s, "play T-BO")
    assert ghost.iid in s.boneyard[1]
    zapper = unit("U-ZP", 3, 1, 1, 1, 1, abilities=[ability("activated", {
        "op": "damage", "amount": 3, "target": {"select": "chosen", "side": "enemy"}}, cost=1)])  # fmt: skip
    s = game(GHOST, zapper)
    put(s, 0, "U-ZP", "a1")
    ghost = put(s, 1, "U-GH", "b3")
    play(s, "use a1 1")
    assert ghost.vit == 1  # a unit's ability is not a spell
    slayer = unit("U-SL", 3, 1, 1, 1, 1, abilities=[ability("activated", {
        "op": "destroy", "target": {"select": "chosen", "side": "enemy"}}, cost=1)])  # fmt: skip
    s = game(GHOST, slayer)
    put(s, 0, "U-SL", "a1")
    ghost = put(s, 1, "U-GH", "b3")
    play(s, "use a1 1")
    assert ghost.iid in s.boneyard[1]
    end_turn(s)
