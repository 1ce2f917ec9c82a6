"""The whole-deck policies find the play that only a card or an ability makes.

Each scenario is a position where the winning (or saving) play is a talent, a glyph, an item, a unit's
ability or an instant, and the routine plan (the classic policy) would do something else: the control
assertion shows the scenario is not won by routine play, so the test fails if the policy stops trying cards.
"""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate.actions import A_END, DRAW, EQUIP, FLY, INSTANT, PLAY, USE
from playtest.dreadgate.view import SeatView
from playtest.policies import POLICIES
from playtest.policies.lookahead import Ties
from tests.playtest.dreadgate.factories import ability, game, give, item, play, put, talent, unit

ZAP = {"op": "damage", "amount": 2, "target": {"select": "chosen", "side": "enemy"}}
RUNNER = unit("U-RUN", vit=2, atk=1, dfn=0, rng=1, mnv=1)  # an enemy unit whose death wins the game
MINE = unit("U-ME", vit=3, atk=1, dfn=1, rng=1, mnv=1)


def _boneyard_at_the_brink(*cards):
    """Seat 0 to play, the enemy's boneyard one unit short of the Standard total (DG-1.2)."""
    state = game(RUNNER, MINE, *cards)
    put(state, 1, "U-RUN", "c4")
    state.bone_score[1] = 19  # the position: its owner loses when one more of its units dies
    state._stamp += 1
    return state


def _decide(state, name: str):
    seat = state.current_player
    return POLICIES[name](SeatView(state, seat), random.Random(7))


@pytest.mark.parametrize("name", ["goldfish", "matchup"])
def test_a_talent_that_kills_the_last_unit_needed_is_played(name):
    state = _boneyard_at_the_brink(talent("T-ZAP", ability("play", ZAP), cost=1))
    give(state, 0, "T-ZAP")
    assert _decide(state, "classic-matchup")[0] != PLAY  # the routine plan never plays a talent
    action = _decide(state, name)
    assert action == (PLAY, state.by_code["T-ZAP"], 0)
    state.apply(action)
    while state.winner < 0 and state.current_player == 0 and state.phase != 1:
        state.apply(_decide(state, name))  # its target: the policy chooses the enemy unit
    assert state.winner == 0


def test_a_glyph_that_destroys_the_unit_is_played():
    destroy = {"op": "destroy", "target": {"select": "chosen", "side": "enemy"}}
    state = _boneyard_at_the_brink(talent("G-END", ability("play", destroy), cost=2, type="glyph", subtype=""))
    give(state, 0, "G-END")
    assert _decide(state, "matchup") == (PLAY, state.by_code["G-END"], 0)


def test_a_consumable_item_that_kills_is_used():
    bomb = item("I-BOMB", ability("consumable", ZAP), cost=1, subtype="exotic", consumable=True)
    state = _boneyard_at_the_brink(bomb)
    give(state, 0, "I-BOMB")
    action = _decide(state, "matchup")
    assert action[:2] == (EQUIP, state.by_code["I-BOMB"])


def test_a_units_ability_that_kills_is_used():
    sniper = unit("U-SNIPE", vit=3, atk=0, dfn=1, rng=1, mnv=1,
                  abilities=[ability("activated", ZAP, cost=1)])  # fmt: skip
    state = _boneyard_at_the_brink(sniper)
    put(state, 0, "U-SNIPE", "a1")  # out of reach of any attack: only its ability can hit
    action = _decide(state, "matchup")
    assert action[0] == USE


def test_an_instant_in_the_defence_step_saves_the_unit_whose_death_loses():
    """The defender holds a defense instant; without it the attacked unit dies and its boneyard total is reached."""
    shield = talent("T-SHIELD", ability("instant", {"op": "modify", "stat": "defense", "amount": 3,
                                                    "duration": "end_of_turn",
                                                    "target": {"select": "chosen", "side": "friendly"}}, cost=1),
                    cost=2, instant=True)  # fmt: skip
    brute = unit("U-BRUTE", vit=4, atk=3, dfn=1, rng=1, mnv=1)
    state = game(brute, MINE, shield)
    put(state, 0, "U-BRUTE", "b3")
    put(state, 1, "U-ME", "b4", vit=2)
    give(state, 1, "T-SHIELD")
    state.tp[1] = 1
    state.bone_score[1] = 19  # seat 1 loses if its unit dies
    state._stamp += 1
    play(state, "attack b3 b4", "strike")
    assert state.current_player == 1  # the defence step is seat 1's
    assert _decide(state, "classic-matchup")[0] != INSTANT
    assert _decide(state, "matchup")[0] == INSTANT


def test_an_aviation_unit_takes_off_out_of_reach_of_a_melee_unit_that_would_kill_it():
    """DG-11.5 and DG-10.4: only a ranged attack reaches a flying unit; with no point left to act, matchup
    launches the threatened flier (launching costs no AP, DG-11.2), where the routine plan ends its turn."""
    flier = unit("U-FLY", vit=3, atk=1, dfn=0, rng=1, mnv=1, kw=("aviation",), fm=1)
    brute = unit("U-BRUTE", vit=5, atk=6, dfn=1, rng=1, mnv=1)
    state = game(flier, brute)
    put(state, 0, "U-FLY", "b1", flying=False)
    put(state, 1, "U-BRUTE", "b2")
    state.ap = 0
    state._stamp += 1
    assert _decide(state, "classic-matchup") == A_END
    assert _decide(state, "matchup")[0] == FLY


@pytest.mark.parametrize("name", ["classic-matchup", "matchup"])
def test_the_defence_is_distributed_when_an_attacker_has_left_the_battlefield(name):
    """An instant of the defence step killed one of two attackers: its share of the defense is still offered
    (DG-10.8) and the policies decide without looking the unit up."""
    brute = unit("U-BRUTE", vit=4, atk=3, dfn=1, rng=1, mnv=1)
    wall = unit("U-WALL", vit=6, atk=1, dfn=4, rng=1, mnv=1)
    state = game(brute, MINE, wall)
    first = put(state, 0, "U-BRUTE", "b3")
    put(state, 0, "U-ME", "a3")
    put(state, 1, "U-WALL", "b4")
    play(state, "attack b3 b4", "attack a3 b4", "strike")
    assert state.current_player == 1 and len(state.combat[1]) == 2
    state._kill(first)  # as a damage instant of the defender would
    state._stamp += 1
    action = _decide(state, name)
    assert action in state.legal_actions()


def test_matchup_answers_in_the_response_window_with_the_instant_that_wins():
    """DG-15.5: seat 0 deploys a unit whose death loses it the game; seat 1 holds a killing instant."""
    bolt = talent("T-BOLT", ability("instant", ZAP, cost=1), cost=2, instant=True)
    state = game(RUNNER, bolt)
    give(state, 0, "U-RUN")
    give(state, 1, "T-BOLT")
    state.tp[1] = 1
    state.bone_score[0] = 19  # seat 0 loses if one more of its units dies
    state._stamp += 1
    play(state, "deploy U-RUN c1")
    assert state.phase == 7 and state.current_player == 1  # the window is seat 1's
    assert _decide(state, "classic-matchup") == (8, 0, 0)  # the routine plan lets it stand
    action = _decide(state, "matchup")
    assert action == (INSTANT, state.by_code["T-BOLT"], 0)
    state.apply(action)
    assert state.winner == 1


@pytest.mark.parametrize("name", ["goldfish", "matchup"])
def test_a_talent_that_draws_two_is_played_in_place_of_the_plans_draw(name):
    """Forage and War Council: "draw 2 cards" for one action point values as the draw it replaces, but leaves two
    unseen cards in hand where the draw leaves one and the talent (the forced-play experiment, docs/ai.md)."""
    state = game(talent("T-FORAGE", ability("play", {"op": "draw", "amount": 2}), cost=1))
    give(state, 0, "T-FORAGE")  # the whole hand: nothing to deploy, so the plan draws
    assert _decide(state, "classic-goldfish")[0] == DRAW
    assert _decide(state, name) == (PLAY, state.by_code["T-FORAGE"], 0)


def _attack_after_the_buff():
    """Seat 0's unit stands next to the enemy unit whose death wins (the enemy's boneyard one unit short), too weak
    to kill it (attack 1 against defense 1); seat 0 holds a talent that gives a friendly unit +3 attack this turn.
    The talent alone changes nothing the evaluation sees: it pays off only with the attack after it."""
    might = talent("T-MIGHT", ability("play", {"op": "modify", "stat": "attack", "amount": 3,
                                               "duration": "end_of_turn",
                                               "target": {"select": "chosen", "side": "friendly"}}), cost=1)
    runner = unit("U-RUN", vit=2, atk=1, dfn=1, rng=1, mnv=1)
    state = game(runner, MINE, might)
    put(state, 1, "U-RUN", "c4")
    put(state, 0, "U-ME", "c3")
    give(state, 0, "T-MIGHT")
    state.bone_score[1] = 19
    state._stamp += 1
    return state


def test_whole_turn_planning_finds_the_buff_that_only_pays_off_with_the_attack_after_it():
    policy = POLICIES["matchup"]
    state = _attack_after_the_buff()
    assert _decide(state, "classic-matchup")[0] != PLAY
    planning = policy.planning
    policy.planning = False  # one action ahead: the buff alone looks like a card and a point spent for nothing
    try:
        assert _decide(state, "matchup")[0] != PLAY
    finally:
        policy.planning = planning
    rng = random.Random(7)  # one random source for the turn: the seat follows the line it planned
    action = policy(SeatView(state, 0), rng)
    assert action == (PLAY, state.by_code["T-MIGHT"], 0)
    while state.winner < 0 and state.active == 0:
        seat = state.current_player
        state.apply(policy(SeatView(state, seat), rng) if seat == 0 else POLICIES["classic-matchup"](
            SeatView(state, seat), random.Random(0)))
    assert state.winner == 0  # the buffed unit's attack killed the unit whose death wins


def test_the_search_breaks_the_priors_ties_as_a_source_seeded_with_0():
    """Ties draws as random.Random(0) does: the same choices (read from its first words, then from the source once
    they are used up), and the same other draws after them, whatever the lengths chosen from."""
    ties, source = Ties(), random.Random(0)
    assert [ties.choice(range(10)) for _ in range(20)] == [source.choice(range(10)) for _ in range(20)]
    assert ties.random() == source.random()
    lengths = random.Random(4)
    for run in range(40):
        ties, source = Ties(), random.Random(0)
        for _ in range(run * 3):  # past the words kept, in the longer runs
            n = lengths.choice((1, 2, 3, 5, 8, 13, 31, 33))
            assert ties.choice(list(range(n))) == source.choice(list(range(n)))
        assert (ties.random(), ties.choice("abc")) == (source.random(), source.choice("abc"))
