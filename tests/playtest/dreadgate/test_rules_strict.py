"""Scenario tests whose outcome changes when the rule breaks: keywords granted and removed, stun, action points
this turn and next turn, influence, the `within` and `keyword` filters, the 1 AP of a deploy, the execution
threshold, moves toward a source, random discards and returns to the hand.

Each position is reached through cards and actions (no effect is faked by setting a field), and each set-up is
chosen so that the broken rule would give another result: `make mutate` breaks each of these rules in the engine
and checks that a test here fails (tests/mutation/mutants.py, docs/testing.md).

A rule is checked on both of the engine's paths: the list of legal actions (`offered`) and the check that refuses
an action with its rule (`refused`), since a game accepts a listed action without checking it again.
"""

from __future__ import annotations

from core.crafts import CRAFT_INDEX
from playtest.dreadgate import parse_action
from playtest.dreadgate.actions import ATTACK, FLY, GROUND, MOVE
from playtest.dreadgate.board import cell_name
from playtest.dreadgate.cards import KW_AVIATION, KW_EXECUTION, KW_SUBDUE
from playtest.dreadgate.rules import check

from .factories import ability, end_turn, game, give, item, legend, play, put, talent, unit
from .test_rules_board import cells
from .test_rules_game import refused

SORCERY, HINTER = CRAFT_INDEX["sorcery"], CRAFT_INDEX["hinter"]


def chosen(side: str = "enemy", **extra) -> dict:
    return {"select": "chosen", "side": side, **extra}


def offered(state, text: str) -> bool:
    return parse_action(state, text) in state.legal_actions()


def allowed(state, text: str) -> None:
    """Both paths accept the action: it is listed, and the check lets it through."""
    action = parse_action(state, text)
    check(state, action)
    assert action in state.legal_actions(), text


def forbidden(state, text: str, rule: str) -> None:
    """Both paths refuse the action: it is not listed, and the check names `rule` (the state unchanged)."""
    assert not offered(state, text), text
    refused(state, text, rule)


BRAWLER = unit("U-BW", 3, 3, 1, 1, 1)  # attack 3, melee, no keyword
PREY = unit("U-PY", 2, 1, 1, 1, 1)  # vitality 2, below the brawler's attack
PREY2 = unit("U-PY2", 2, 1, 1, 1, 1)
FLYER = unit("U-FL", 3, 1, 1, 1, 1, kw=["aviation"], fm=2)


def keyword_card(code: str, op: str, keyword: str, duration: str, side: str) -> object:
    return talent(code, ability("play", {"op": op, "keyword": keyword, "duration": duration,
                                         "target": chosen(side)}))  # fmt: skip


# --- keywords granted and removed -------------------------------------------------------------


def test_dg_18_1_a_granted_keyword_works_this_turn_and_lapses_at_the_end():
    """DG-18.1, DG-18.6: granted execution (end of turn) lets a plain unit execute now; after the END it can't."""
    s = game(BRAWLER, PREY, PREY2, keyword_card("T-GX", "grant_keyword", "execution", "end_of_turn", "friendly"))
    hunter = put(s, 0, "U-BW", "b2")
    prey = put(s, 1, "U-PY", "b3")
    put(s, 1, "U-PY2", "a3")
    forbidden(s, "move b2-b3", "DG-8.3")
    give(s, 0, "T-GX")
    play(s, "play T-GX")
    assert hunter.kw & KW_EXECUTION
    allowed(s, "move b2-b3")
    play(s, "move b2-b3")
    assert prey.iid in s.boneyard[1] and s.board[hunter.cell] == hunter.iid
    end_turn(s)
    end_turn(s)
    assert not hunter.kw & KW_EXECUTION and "a3" not in cells(s, hunter)  # the other prey is safe now


def test_dg_18_1_a_removed_aviation_lands_the_unit_within_melee_reach_until_the_end_of_turn():
    """DG-18.1, DG-10.4, DG-11.1: without aviation the flyer lands and a melee attack reaches it; when the
    removal lapses it is an aviation unit again, and flying, as every aviation unit is by default."""
    s = game(BRAWLER, FLYER, keyword_card("T-GR", "remove_keyword", "aviation", "end_of_turn", "enemy"))
    put(s, 0, "U-BW", "b2")
    flyer = put(s, 1, "U-FL", "b3", flying=True)
    forbidden(s, "attack b2 b3", "DG-10.4")
    give(s, 0, "T-GR")
    play(s, "play T-GR")
    assert not flyer.kw & KW_AVIATION and not flyer.flying
    allowed(s, "attack b2 b3")
    play(s, "attack b2 b3", "strike")
    assert flyer.vit == 1
    end_turn(s)
    assert flyer.kw & KW_AVIATION and flyer.flying  # the removal lapsed: flying again (DG-11.1)
    allowed(s, "ground b3")


def test_dg_18_1_when_a_grant_and_a_removal_overlap_the_later_one_wins():
    """DG-18.1, DG-11.1: granted aviation flies at once; a later removal wins over it until it lapses."""
    s = game(BRAWLER, keyword_card("T-WG", "grant_keyword", "aviation", "permanent", "friendly"),
             keyword_card("T-CL", "remove_keyword", "aviation", "end_of_turn", "friendly"))
    u = put(s, 0, "U-BW", "b2")
    give(s, 0, "T-WG")
    give(s, 0, "T-CL")
    play(s, "play T-WG")
    assert u.kw & KW_AVIATION and u.flying
    play(s, "play T-CL")
    assert not u.kw & KW_AVIATION and not u.flying
    forbidden(s, "fly b2", "DG-11.2")
    end_turn(s)
    assert u.kw & KW_AVIATION and u.flying


def test_dg_18_2_static_and_equipped_abilities_grant_and_remove_keywords():
    """DG-18.2: a battlefield item takes aviation from every enemy; manacles give their bearer subdue."""
    net = item("I-NT", ability("static", {"op": "remove_keyword", "keyword": "aviation", "duration": "while_source",
                                          "target": {"select": "all", "side": "enemy"}}),
               subtype="battlefield")  # fmt: skip
    manacles = item("I-MN", ability("equipped", {"op": "grant_keyword", "keyword": "subdue", "duration": "while_source",
                                                 "target": {"select": "bearer"}}))  # fmt: skip
    s = game(BRAWLER, FLYER, net, manacles)
    brawler = put(s, 0, "U-BW", "b2")
    flyer = put(s, 1, "U-FL", "b3", flying=True)
    give(s, 0, "I-NT")
    give(s, 0, "I-MN")
    play(s, "equip I-NT")
    assert not flyer.kw & KW_AVIATION and not flyer.flying
    assert "b3" not in cells(s, brawler)
    play(s, "equip I-MN b2")
    assert brawler.kw & KW_SUBDUE
    allowed(s, "move b2-b3")
    play(s, "move b2-b3")
    assert flyer.subdued_by == brawler.iid


# --- stun ---------------------------------------------------------------------------------------


DAZE = talent("T-DZ", ability("play", {"op": "stun", "duration": "next_turn", "target": chosen()}))
JOLT = talent("T-JT", ability("play", {"op": "stun", "duration": "end_of_turn", "target": chosen()}))
SKIRMISHER = unit("U-SK", 3, 2, 1, 2, 1, kw=["aviation"], fm=2)  # ranged, flies


def test_dg_18_3_a_stunned_unit_can_not_maneuver_attack_or_switch_until_the_stun_ends():
    """DG-18.3, DG-11.2: stunned until the end of South's next turn; a shorter stun after it shortens nothing."""
    s = game(BRAWLER, SKIRMISHER, DAZE, JOLT)
    put(s, 0, "U-BW", "b2")
    sk = put(s, 1, "U-SK", "b4", flying=True)
    give(s, 0, "T-DZ")
    give(s, 0, "T-JT")
    play(s, "play T-DZ", "play T-JT")
    end_turn(s)
    assert not [a for a in s.legal_actions() if a[0] in (MOVE, ATTACK, GROUND, FLY) and a[1] == sk.iid]
    refused(s, "move b4-b5", "DG-18.3")
    refused(s, "attack b4 b2", "DG-18.3")
    refused(s, "ground b4", "DG-11.2")
    end_turn(s)
    end_turn(s)
    allowed(s, "attack b4 b2")
    allowed(s, "ground b4")


def test_dg_18_3_a_stunned_unit_is_not_offered_to_join_an_attack():
    """DG-18.3, DG-10.5: North stuns one of South's units; in South's turn it can't join its friend's attack."""
    hero = unit("U-HE", 4, 2, 2, 1, 1)
    s = game(hero, BRAWLER, unit("U-TG", 6, 1, 1, 1, 1), DAZE)
    put(s, 0, "U-HE", "b2")
    stunned = put(s, 0, "U-BW", "a2")
    target = put(s, 1, "U-TG", "b3")
    end_turn(s)
    give(s, 1, "T-DZ")
    play(s, "play T-DZ", "target a2")
    end_turn(s)
    play(s, "attack b2 b3")
    assert (ATTACK, stunned.iid, target.iid) not in s.legal_actions()
    refused(s, "attack a2 b3", "DG-18.3")
    play(s, "strike")
    assert target.vit == 5  # the hero alone struck: 2 attack against 1 defense
    end_turn(s)
    end_turn(s)
    allowed(s, "attack a2 b3")


# --- action points this turn and next turn ------------------------------------------------------


def ap_card(code: str, player: str, amount: int, when: str, cost: int = 1) -> object:
    return talent(code, ability("play", {"op": "action_points", "player": player, "amount": amount, "when": when}),
                  cost=cost)


def test_dg_5_1_action_points_now_and_next_turn_for_each_player():
    """DG-5.1, DG-5.6: +1 now, +1 on my next turn only, -1 "now" for North (not its turn: its next one), -2 next."""
    s = game(ap_card("T-NOW", "self", 1, "this_turn"), ap_card("T-NXT", "self", 1, "next_turn"),
             ap_card("T-FNW", "opponent", -1, "this_turn"), ap_card("T-FNX", "opponent", -2, "next_turn"))
    for code in ("T-NOW", "T-NXT", "T-FNW", "T-FNX"):
        give(s, 0, code)
    assert s.ap == 4
    play(s, "play T-NOW")
    assert s.ap == 4  # 1 spent, 1 gained now
    play(s, "play T-NXT")
    assert s.ap == 3
    play(s, "play T-FNW")
    assert s.ap == 2  # North's loss is not South's
    play(s, "play T-FNX")
    assert s.ap == 1
    turns = []
    for _ in range(4):
        end_turn(s)
        turns.append((s.active, s.ap))
    assert turns == [(1, 1), (0, 5), (1, 4), (0, 4)]  # each change applies to one turn only


def test_dg_5_1_action_points_never_fall_below_zero():
    """DG-5.1: -4 now with 3 left (4, less the card's 1) leaves 0; North's allowance of 4 - 8 is 0."""
    s = game(ap_card("T-DR", "self", -4, "this_turn", cost=1), ap_card("T-C1", "opponent", -4, "next_turn", cost=0),
             ap_card("T-C2", "opponent", -4, "next_turn", cost=0))
    for code in ("T-C1", "T-C2", "T-DR"):
        give(s, 0, code)
    play(s, "play T-C1", "play T-C2", "play T-DR")
    assert s.ap == 0
    end_turn(s)
    assert (s.active, s.ap) == (1, 0)
    end_turn(s)
    end_turn(s)
    assert (s.active, s.ap) == (1, 4)


# --- influence --------------------------------------------------------------------------------


SEER = legend("L-SE", influence=2, craft="sorcery")


def influence_card(code: str, craft: str, amount: int) -> object:
    return talent(code, ability("play", {"op": "influence", "player": "self", "amount": amount, "craft": craft}))


def seer_turn(*cards):
    """South's second turn, with the Seer's 2 sorcery influence and 4 AP."""
    s = game(SEER, *cards)
    put(s, 0, "L-SE", "e1")
    end_turn(s)
    end_turn(s)
    assert (s.active, s.ap, s.infl[SORCERY]) == (0, 4, 2)
    return s


def test_dg_17_2_influence_effects_add_to_the_legends_in_the_craft_they_name():
    """DG-17.2, DG-7.4: +1 of the talent's own craft adds to the Seer's 2; +2 hinter pays a hinter unit."""
    wolf = unit("U-WF", 3, 1, 1, 1, 1, craft="hinter")
    s = seer_turn(influence_card("T-OWN", "own", 1), influence_card("T-HIN", "hinter", 2), wolf)
    give(s, 0, "T-OWN")
    give(s, 0, "T-HIN")
    play(s, "play T-OWN", "play T-HIN")
    assert (s.infl[SORCERY], s.infl[HINTER], s.ap) == (3, 2, 2)
    give(s, 0, "U-WF")
    allowed(s, "deploy U-WF a1")
    play(s, "deploy U-WF a1")
    assert (s.infl[SORCERY], s.infl[HINTER], s.ap) == (3, 0, 1)
    end_turn(s)
    end_turn(s)
    assert (s.infl[SORCERY], s.infl[HINTER]) == (2, 0)  # DG-5.3: only the Seer's is back


def test_dg_17_2_influence_gained_in_the_opponents_turn_is_not_the_player_on_turns():
    """DG-17.2, DG-15.5: North's instant gives North influence during South's attack: South gains none."""
    boon = talent("T-BN", ability("instant", {"op": "influence", "player": "self", "amount": 2, "craft": "own"},
                                  cost=0), instant=True)  # fmt: skip
    s = game(BRAWLER, unit("U-TG", 6, 1, 1, 1, 1), boon)
    put(s, 0, "U-BW", "b2")
    put(s, 1, "U-TG", "b3")
    give(s, 1, "T-BN")
    play(s, "attack b2 b3", "strike")
    assert s.phase == 3 and s.current_player == 1
    play(s, "instant T-BN", "pass")
    assert s.infl == [0] * 7 and s.active == 0


def test_dg_7_4_any_influence_pays_a_universal_unit_on_both_paths():
    """DG-7.4, DG-7.3: 1 AP and 2 sorcery influence deploy a universal unit of vitality 3."""
    s = seer_turn(unit("U-UV", 3, 1, 1, 1, 1, craft="universal"))
    play(s, "draw", "draw", "draw")
    give(s, 0, "U-UV")
    allowed(s, "deploy U-UV a1")
    play(s, "deploy U-UV a1")
    assert (s.ap, s.infl[SORCERY]) == (0, 0)


def test_dg_7_3_a_deploy_spends_one_ap_even_when_influence_could_pay_it_all():
    """DG-7.3: a vitality-2 unit with 2 influence: 1 AP and 1 influence; with no AP left, no deploy at all."""
    s = seer_turn(unit("U-MG", 2, 1, 1, 1, 1, craft="sorcery"), unit("U-IM", 1, 1, 1, 1, 1, craft="sorcery"))
    give(s, 0, "U-MG")
    give(s, 0, "U-IM")
    play(s, "deploy U-MG a1")
    assert (s.ap, s.infl[SORCERY]) == (3, 1)
    play(s, "draw", "draw", "draw")
    assert (s.ap, s.infl[SORCERY]) == (0, 1)
    forbidden(s, "deploy U-IM b1", "DG-7.3")


# --- distance, execution, recycling -------------------------------------------------------------


def test_dg_3_8_within_reaches_diagonal_neighbours_and_never_the_source():
    """DG-3.8: an aura 'friendly units within 1' reaches a diagonal neighbour, not two cells off, not its source."""
    bannerman = unit("U-BM", 3, 1, 1, 1, 1, abilities=[ability("static", {
        "op": "modify", "stat": "defense", "amount": 1, "duration": "while_source",
        "target": {"select": "all", "side": "friendly", "filter": {"within": 1}}})])  # fmt: skip
    s = game(bannerman, PREY, PREY2)
    b = put(s, 0, "U-BM", "b2")
    near = put(s, 0, "U-PY", "a3")
    far = put(s, 0, "U-PY2", "d2")
    assert (b.dfn, near.dfn, far.dfn) == (1, 2, 1)


def test_dg_12_4_a_unit_whose_vitality_equals_the_executors_attack_is_not_executed():
    """DG-12.4: attack 5 executes vitality 4, not vitality 5 (lower than the attack, not equal)."""
    executor = unit("U-EX", 3, 5, 1, 1, 2, kw=["execution"])
    s = game(executor, unit("U-V5", 5, 1, 1, 1, 1), unit("U-V4", 4, 1, 1, 1, 1))
    ex = put(s, 0, "U-EX", "b2")
    put(s, 1, "U-V5", "b3")
    four = put(s, 1, "U-V4", "a3")
    forbidden(s, "move b2-b3", "DG-12.1")
    allowed(s, "move b2-a3")
    play(s, "move b2-a3")
    assert four.iid in s.boneyard[1] and s.board[ex.cell] == ex.iid


def test_dg_7_6_the_last_unit_card_in_hand_may_be_recycled_too():
    """DG-7.6: with one unit card and a talent in hand, either may be recycled (the text sets no limit)."""
    s = game(BRAWLER, talent("T-RC"))
    give(s, 0, "U-BW")
    give(s, 0, "T-RC")
    allowed(s, "recycle U-BW")
    allowed(s, "recycle T-RC")


# --- moves, discards, filters, returns (effects.md) ---------------------------------------------


def test_dg_18_7_move_toward_pulls_the_unit_to_the_source():
    """DG-18.7, effects.md `move`: `toward` takes the target toward the source, stopping before its cell."""
    puller = unit("U-PL", 3, 1, 1, 1, 1, abilities=[ability("activated", {
        "op": "move", "distance": 2, "direction": "toward", "target": chosen(filter={"within": 2})}, cost=1)])
    s = game(puller, PREY)
    put(s, 0, "U-PL", "b2")
    prey = put(s, 1, "U-PY", "d2")
    play(s, "use b2 1")  # one cell free before the source: nothing to choose
    assert cell_name(prey.cell) == "c2"


def test_dg_18_1_a_random_discard_takes_the_amount_from_the_hand():
    """effects.md `discard`, chooser `random`: the cards leave the hand for the boneyard, with no choice."""
    s = game(talent("T-RD", ability("play", {"op": "discard", "player": "opponent", "amount": 2,
                                             "chooser": "random"})), PREY, PREY2, BRAWLER)  # fmt: skip
    give(s, 0, "T-RD")
    hand = [give(s, 1, code) for code in ("U-PY", "U-PY2", "U-BW")]
    play(s, "play T-RD")
    assert s.phase == 1 and len(s.hand[1]) == 1
    assert sorted(s.hand[1] + s.boneyard[1]) == sorted(hand)


def test_dg_18_1_a_keyword_filter_admits_only_units_with_the_keyword():
    """effects.md `filter.keyword`: of two enemy units only the one with subdue is a legal target, so it is
    chosen at once (DG-18.5) and the other is untouched."""
    sub = unit("U-SB", 3, 1, 1, 1, 1, kw=["subdue"])
    s = game(talent("T-KF", ability("play", {"op": "damage", "amount": 1,
                                             "target": chosen(filter={"keyword": "subdue"})})), sub, PREY)  # fmt: skip
    marked = put(s, 1, "U-SB", "b4")
    plain = put(s, 1, "U-PY", "d4")
    give(s, 0, "T-KF")
    play(s, "play T-KF")
    assert s.phase == 1 and (marked.vit, plain.vit) == (2, 2)


def test_dg_18_1_return_to_hand_puts_the_unit_in_its_owners_hand():
    """effects.md `return_to_hand`: to its owner's hand, not the boneyard (and it never counts there)."""
    s = game(talent("T-RH", ability("play", {"op": "return_to_hand", "target": chosen()})), PREY)
    prey = put(s, 1, "U-PY", "b4")
    give(s, 0, "T-RH")
    play(s, "play T-RH")
    assert prey.iid in s.hand[1] and prey.iid not in s.boneyard[1] and s.bone_score == [0, 0]
    assert prey.iid not in s.units
