"""One scenario per Dread Draw rule (docs/rules.md, DD section)."""

from __future__ import annotations

import json

import pytest

from dreaddraw.engine.cardset import DEFAULT_PATH, parse_cardset
from dreaddraw.engine.decisions import B, D, S, U, keep, order, reserve, use
from dreaddraw.engine.errors import IllegalDecision
from dreaddraw.engine.game import (
    E_ABILITY,
    E_DAMAGE,
    E_RESHUFFLE,
    E_SKIP,
    P_ABILITY,
    P_KEEP,
    WHY_LOWEST,
    WHY_START,
    WHY_TIE_LEFT,
    WHY_TIE_STAY,
    Game,
)
from dreaddraw.engine.observation import PlayerView, observe
from dreaddraw.engine.serialize import game_to_dict
from tests.dreaddraw.factories import CS, check_conservation, new_game, rig, skip_prompts, vanilla, vanillas, with_op

STRENGTH = CS.strength


def test_dd_1_1_every_player_gets_ten_face_down_life_cards_and_the_rest_is_the_draw_deck():
    for players in range(2, 7):
        g = Game(players, seed=players, cardset=CS)
        assert [len(x) for x in g.life] == [10] * players
        assert len(g.draw) == 100 - 10 * players
        assert g.discard == []
        check_conservation(g)


def test_dd_1_2_a_player_does_not_see_their_own_life_deck():
    g = Game(3, seed=5, cardset=CS)
    obs = observe(g, 0)
    assert obs["players"][0]["life_size"] == 10
    assert obs["known_life"] == []
    assert "life" not in obs["players"][0]


def test_dd_3_1_the_first_player_is_chosen_at_random_by_the_seed():
    firsts = {Game(4, seed=s, cardset=CS).current for s in range(60)}
    assert firsts == {0, 1, 2, 3}
    assert Game(4, seed=9, cardset=CS).current == Game(4, seed=9, cardset=CS).current


def test_dd_3_2_a_turn_is_a_summon_and_nothing_else():
    g = new_game()
    before = game_to_dict(g)
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, keep(5))
    assert err.value.rule == "DD-3.2"
    assert game_to_dict(g) == before


def test_dd_3_3_a_stronger_card_escalates_to_the_right():
    three, six = vanillas(3, 6)
    g = rig(new_game(), rows={0: [three]}, draw_top=[six])
    g.apply(0, D)
    assert g.rows[0] == [three, six]
    assert g.totals[0] == 9


@pytest.mark.parametrize("revealed", [3, 2])
def test_dd_3_5_a_card_not_stronger_fails_and_everything_is_discarded(revealed):
    two, three = vanillas(2, 3)
    bad = vanilla(revealed, exclude=(two, three))
    g = rig(new_game(3), rows={0: [two, three]}, draw_top=[bad])
    g.apply(0, D)
    assert not g.in_round[0]
    assert g.rows[0] == []
    assert g.discard[-3:] == [bad, two, three]
    check_conservation(g)


def test_dd_3_4_the_summon_ability_is_offered_and_may_be_skipped():
    healer = with_op("gain_life", "summon")[0]
    g = rig(new_game(), draw_top=[healer])
    g.apply(0, D)
    assert g.prompt()[:3] == (P_ABILITY, 0, healer)
    life_before = list(g.life[0])
    g.apply(0, S)
    assert g.life[0] == life_before
    assert g.prompt() == ()


# DD-3.6: play passes to the lowest total; ties as written.

def _after_summon(players, totals_rows, current, draw_card):
    g = rig(new_game(players, current=current), rows=totals_rows, draw_top=[draw_card])
    g.apply(current, D)
    return g


def test_dd_3_6_the_lowest_total_plays_next():
    a, b, c, x = vanillas(5, 2, 4, 9)
    g = _after_summon(3, {0: [a], 1: [b], 2: [c]}, 0, x)
    assert g.current == 1
    assert g.why == WHY_LOWEST


def test_dd_3_6_tie_including_the_current_player_keeps_the_turn():
    # Seat 1 summons and ties with seat 0 and seat 2 at the lowest total: seat 1 goes again.
    s0, s1, s2, x = vanillas(4, 1, 4, 3)
    g = _after_summon(3, {0: [s0], 1: [s1], 2: [s2]}, 1, x)
    assert g.totals == [4, 4, 4]
    assert g.current == 1
    assert g.why == WHY_TIE_STAY


def test_dd_3_6_tie_without_the_current_player_goes_to_the_next_tied_on_the_left():
    # Seat 2 climbs to 9; seats 0 and 1 are tied at 3: from seat 2, the next on the left is seat 0.
    s0, s1, s2, x = vanillas(3, 3, 2, 7)
    g = _after_summon(3, {0: [s0], 1: [s1], 2: [s2]}, 2, x)
    assert g.current == 0
    assert g.why == WHY_TIE_LEFT


def test_dd_3_6_several_tied_to_the_left_the_nearest_one_plays():
    # Six seats; seat 1 climbs. Seats 4, 5 and 0 tie at 2; seats 2 and 3 are higher.
    # The tied seat nearest to seat 1's left is seat 4 (seats 2 and 3 are skipped).
    rows = dict(zip(range(6), [[c] for c in vanillas(2, 1, 5, 6, 2, 2)], strict=True))
    x = vanilla(9, exclude=tuple(c for r in rows.values() for c in r))
    g = _after_summon(6, rows, 1, x)
    assert g.current == 4
    assert g.why == WHY_TIE_LEFT


def test_dd_3_6_after_a_failed_summon_the_next_tied_to_the_left_plays():
    s0, s1, s2, s3, bad = vanillas(5, 6, 6, 6, 2)
    g = _after_summon(4, {0: [s0], 1: [s1], 2: [s2], 3: [s3]}, 0, bad)
    assert not g.in_round[0]
    assert g.current == 1  # seats 1, 2, 3 tie at 6; from seat 0 the next to the left is seat 1


def test_dd_3_6_acting_out_of_turn_is_refused_and_changes_nothing():
    g = new_game(3, current=1)
    before = game_to_dict(g)
    with pytest.raises(IllegalDecision) as err:
        g.apply(2, D)
    assert err.value.rule == "DD-3.6"
    assert game_to_dict(g) == before


def test_dd_3_7_an_empty_draw_deck_is_rebuilt_from_the_shuffled_discard_pile():
    g = new_game()
    g.discard.extend(g.draw)
    g.draw.clear()
    pile = sorted(g.discard)
    g.apply(0, D)
    assert any(e[0] == E_RESHUFFLE for e in g.log)
    assert sorted(g.draw + g.rows[0]) == pile
    assert g.discard == []
    check_conservation(g)


def test_dd_10_with_both_piles_empty_a_draw_summon_fails():
    g = new_game()
    first = g.draw.pop()
    g.rows[0].append(first)
    g.totals[0] = STRENGTH[first]
    g.reserves[1].extend(g.draw)  # every other card is out of reach
    g.draw.clear()
    check_conservation(g)
    assert D in g.legal()
    g.apply(0, D)
    assert not g.in_round[0]
    assert g.round_winner == 1


def test_dd_9_the_first_summon_of_a_round_always_succeeds():
    weakest = vanilla(1)
    g = rig(new_game(), draw_top=[weakest])
    g.apply(0, D)
    assert g.rows[0] == [weakest]
    strong = vanilla(10)
    g = rig(new_game(), reserves={0: [strong]})
    assert reserve(strong) in g.legal()


def _win_round(g: Game, winner: int, loser_bad_card: int):
    """The seat to move reveals a card it cannot beat with, leaving `winner` alone in a 2-player game."""
    g.apply(g.current, D)
    assert g.in_round[winner] and g.in_round_count == 1 or g.round_winner == winner


def test_dd_4_2_and_4_3_damage_is_the_winners_dots_dealt_from_the_winners_left_around_the_table():
    # Seat 2 of 4 will win with two cards worth 1 + 2 dots; seats 3, 0, 1 are hit in that order.
    w1 = vanilla(4, damage=1)
    w2 = vanilla(8, exclude=(w1,), damage=2)
    others = vanillas(9, 9, 9)
    fail = vanilla(1, exclude=(w1, w2, *others))
    g = rig(new_game(4, current=3), rows={2: [w1, w2], 0: [others[0]], 1: [others[1]], 3: [others[2]]},
            draw_top=[fail])
    g.in_round = [False, False, True, True]
    g.in_round_count = 2
    g.apply(3, D)  # seat 3 fails: seat 2 alone wins
    damage = [(e[1], e[2]) for e in g.log if e[0] == E_DAMAGE]
    assert g.round_winner == 2
    assert g.round_damage == 3
    assert damage[0] == (3, 3)  # the first to be hit is seat 3, the winner's left
    order = [3, 0, 1]
    while g.prompt() and g.prompt()[0] == P_KEEP:
        assert g.prompt()[1] == order[0]
        order.pop(0)
        g.apply(g.to_move(), keep(g.hand[0]))
        while g.prompt() and g.prompt()[0] == P_ABILITY:
            g.apply(g.to_move(), S)
    assert [e[1] for e in g.log if e[0] == E_DAMAGE] == [3, 0, 1]


def test_dd_4_4_the_winner_discards_and_starts_the_next_round():
    w = vanilla(5, damage=1)
    loser, fail = vanillas(6, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser]}, draw_top=[fail])
    g.apply(1, D)
    skip_prompts(g)
    assert g.round_no == 2
    assert g.rows == [[], []]
    assert w in g.discard
    assert g.current == 0 and g.why == WHY_START
    assert g.in_round == [True, True]


def test_dd_5_1_damage_draws_from_the_life_deck_keeps_one_and_discards_the_rest():
    w = [vanilla(4, damage=1), vanilla(7, damage=2)]
    loser_row, fail = vanillas(9, 3)
    g = rig(new_game(2, current=1), rows={0: w, 1: [loser_row]}, draw_top=[fail])
    top3 = g.life[1][-3:][::-1]
    g.apply(1, D)
    assert g.prompt()[0] == P_KEEP and g.to_move() == 1
    assert sorted(g.hand) == sorted(top3)
    with pytest.raises(IllegalDecision) as err:
        g.apply(1, keep(w[0]))
    assert err.value.rule == "DD-5.1"
    kept = top3[1]
    g.apply(1, keep(kept))
    while g.prompt():
        g.apply(g.to_move(), S)
    assert kept in g.reserves[1]
    assert all(c in g.discard for c in top3 if c != kept)
    assert len(g.life[1]) == 7


def test_dd_5_2_running_out_while_drawing_is_not_a_defeat_but_damage_with_no_life_is():
    w = [vanilla(4, damage=1), vanilla(7, damage=2)]
    loser_row, fail = vanillas(9, 3)
    g = rig(new_game(2, current=1), rows={0: w, 1: [loser_row]}, draw_top=[fail], life_sizes={1: 1})
    g.apply(1, D)
    while g.prompt():
        g.apply(g.to_move(), S)
    assert g.alive[1] and g.life[1] == [] and len(g.reserves[1]) == 1
    assert not g.over
    # Next round: seat 1 is hit again with an empty Life Deck and is defeated.
    g2 = rig(g, rows={0: w, 1: [loser_row]}, draw_top=[fail], life_sizes={1: 0})
    g2.current = 1
    g2.apply(1, D)
    while g2.prompt():
        g2.apply(g2.to_move(), S)
    assert not g2.alive[1]
    assert g2.over and g2.winner == 0


def test_dd_11_zero_damage_does_not_defeat_a_player_with_an_empty_life_deck():
    w = vanilla(5, damage=0) if any(CS.damage[c] == 0 and CS.strength[c] == 5 and not CS.op[c] for c in CS.numbers) \
        else next(c for c in CS.numbers if CS.damage[c] == 0 and not CS.op[c])
    loser_row = vanilla(9, exclude=(w,))
    fail = vanilla(1, exclude=(w, loser_row))
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail], life_sizes={1: 0})
    g.apply(1, D)
    assert g.alive[1]
    assert not g.over
    assert g.round_no == 2


def test_dd_5_3_gaining_life_moves_draw_deck_cards_onto_the_life_deck_unseen():
    healer = next(c for c in with_op("gain_life", "summon"))
    x, y = vanillas(2, 3)
    g = rig(new_game(), draw_top=[healer, x, y])
    g.apply(0, D)
    g.apply(0, U)
    assert g.life[0][-CS.amount[healer]:] == [x, y][:CS.amount[healer]][::-1]
    assert x not in g.known_life[0]
    assert observe(g, 0)["known_life"] == []


def test_dd_6_3_a_reserve_card_must_be_stronger_than_the_last_summoned():
    six, five, seven = vanillas(6, 5, 7)
    g = rig(new_game(), rows={0: [six]}, reserves={0: [five, seven]})
    assert reserve(five) not in g.legal() and reserve(seven) in g.legal()
    before = game_to_dict(g)
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, reserve(five))
    assert err.value.rule == "DD-6.3"
    assert game_to_dict(g) == before
    g.apply(0, reserve(seven))
    assert g.rows[0] == [six, seven] and g.reserves[0] == [five]


def test_dd_6_3_a_card_not_in_reserves_is_refused():
    g = new_game()
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, reserve(g.draw[0]))
    assert err.value.rule == "DD-6.3"


def test_dd_6_2_and_7_3_a_card_kept_after_damage_offers_its_reserve_ability():
    healer = with_op("gain_life", "reserve")[0]
    w = [vanilla(4, damage=1), vanilla(7, damage=2)]
    loser_row, fail = vanillas(9, 3)
    g = rig(new_game(2, current=1), rows={0: w, 1: [loser_row]}, draw_top=[fail])
    g.life[1][-1], healer_at = healer, g.life[1][-1]
    # keep conservation: the displaced card goes where the healer was
    for zone in (g.draw, g.discard, *g.life, *g.reserves, *g.rows):
        if zone is not g.life[1] and healer in zone:
            zone[zone.index(healer)] = healer_at
    check_conservation(g)
    g.apply(1, D)
    g.apply(1, keep(healer))
    assert g.prompt()[:3] == (P_ABILITY, 1, healer)
    size = len(g.life[1])
    g.apply(1, U)
    assert len(g.life[1]) == size + CS.amount[healer]


def test_dd_7_1_an_optional_ability_takes_only_use_or_skip():
    peeker = with_op("peek_draw", "summon")[0]
    g = rig(new_game(), draw_top=[peeker])
    g.apply(0, D)
    before = game_to_dict(g)
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, D)
    assert err.value.rule == "DD-7.1"
    with pytest.raises(IllegalDecision) as err:
        g.apply(1, S)
    assert err.value.rule == "DD-7.1"
    assert game_to_dict(g) == before


def test_dd_7_4_and_dd_12_aftermath_abilities_resolve_in_row_order_before_the_row_is_discarded():
    healer = with_op("gain_life", "aftermath")[0]
    salvager = next(c for c in with_op("salvage") if STRENGTH[c] > STRENGTH[healer])
    top = vanilla(10)
    bad = vanilla(1)
    g = rig(new_game(3), rows={0: [healer, salvager, top]}, draw_top=[bad])
    g.apply(0, D)
    assert g.prompt()[:3] == (P_ABILITY, 0, healer)
    g.apply(0, U)
    assert g.prompt()[:3] == (P_ABILITY, 0, salvager)
    assert salvager in g.rows[0]
    g.apply(0, U)
    assert g.rows[0] == []
    assert salvager in g.reserves[0] and healer in g.discard and top in g.discard and bad in g.discard
    check_conservation(g)


def test_dd_12_the_winners_aftermath_comes_after_the_damage():
    scav = with_op("scavenge", "aftermath")[0]
    loser_row = vanilla(9)
    fail = vanilla(1)
    g = rig(new_game(2, current=1), rows={0: [scav], 1: [loser_row]}, draw_top=[fail])
    g.apply(1, D)
    while g.prompt() and g.prompt()[1] == 1:
        g.apply(1, keep(g.hand[0]) if g.prompt()[0] == P_KEEP else S)
    assert g.prompt()[:3] == (P_ABILITY, 0, scav)
    assert any(e[0] == E_DAMAGE for e in g.log)
    top_discard = g.discard[-1]
    g.apply(0, U)
    assert top_discard in g.reserves[0]


def test_dd_7_5_always_on_shield_works_from_the_reserves():
    shield = with_op("shield")[0]
    w = [vanilla(4, damage=1), vanilla(7, damage=2)]
    loser_row, fail = vanillas(9, 3)
    g = rig(new_game(2, current=1), rows={0: w, 1: [loser_row]}, reserves={1: [shield]}, draw_top=[fail])
    g.apply(1, D)
    assert [e[2] for e in g.log if e[0] == E_DAMAGE] == [3 - CS.amount[shield]]
    assert len(g.hand) == 2


def test_dd_8_the_fortune_lays_out_the_winners_remaining_life_cards():
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail], life_sizes={1: 0})
    life = sorted(g.life[0])
    g.apply(1, D)
    assert g.over and g.winner == 0
    assert sorted(g.fortune) == life and g.life[0] == []
    reading = observe(g, 1)["fortune"]
    assert [r["place"] for r in reading[:3]] == ["present", "immediate future", "distant future"]
    assert reading[0]["meaning"] == CS.cards[g.fortune[0]].fortune_present
    assert reading[1]["meaning"] == CS.cards[g.fortune[1]].fortune_near
    assert reading[2]["meaning"] == CS.cards[g.fortune[2]].fortune_far
    check_conservation(g)


def test_dd_2_5_the_game_over_refuses_further_decisions():
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail], life_sizes={1: 0})
    g.apply(1, D)
    assert g.legal() == []
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, D)
    assert err.value.rule == "DD-2.5"


def test_dd_15_a_defeated_players_reserves_go_to_the_discard_pile():
    w = vanilla(5, damage=1)
    loser_row, fail, spare = vanillas(9, 2, 7)
    g = rig(new_game(3, current=1), rows={0: [w], 1: [loser_row]}, reserves={1: [spare]}, draw_top=[fail],
            life_sizes={1: 0})
    g.in_round = [True, True, False]
    g.in_round_count = 2
    g.apply(1, D)
    assert not g.alive[1]
    assert spare in g.discard and g.reserves[1] == []


def test_dd_14_a_single_damage_card_goes_to_reserves_without_a_prompt():
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail])
    top = g.life[1][-1]
    g.apply(1, D)
    assert top in g.reserves[1]
    assert not g.prompt() or g.prompt()[0] != P_KEEP


def test_dd_13_order_scry_and_bottom_are_only_accepted_when_prompted():
    g = new_game()
    for d in (order((1, 2)), B, use(1)):
        with pytest.raises(IllegalDecision):
            g.apply(0, d)


def test_dd_21_an_aftermath_card_in_the_reserves_does_not_play_its_ability():
    """DD-21: only the summoned row plays Aftermath abilities; the same card in the Reserves stays silent."""
    healer = with_op("gain_life", "aftermath")[0]
    two, bad = vanillas(6, 2)
    g = rig(new_game(3), rows={0: [two]}, reserves={0: [healer]}, draw_top=[bad])
    g.apply(0, D)
    assert not g.in_round[0]
    assert g.prompt() == ()
    assert healer in g.reserves[0]
    # The same card summoned this round does play it.
    g = rig(new_game(3), rows={0: [healer, two]}, draw_top=[bad])
    g.apply(0, D)
    assert g.prompt()[:3] == (P_ABILITY, 0, healer)


def test_dd_21_the_winners_reserves_play_no_aftermath_either():
    """DD-21: at the end of a round won, the Aftermath card waiting in the Reserves is not offered."""
    healer = with_op("gain_life", "aftermath")[0]
    w, loser_row, fail = vanillas(5, 9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, reserves={0: [healer]}, draw_top=[fail])
    g.apply(1, D)
    skip_prompts(g)
    assert g.round_no == 2
    assert not any(e[0] == E_ABILITY and e[2] == healer for e in g.log)
    assert not any(e[0] == E_SKIP and e[2] == healer for e in g.log)


def test_dd_22_a_look_at_a_short_draw_deck_sees_what_is_left_and_does_not_reshuffle():
    """DD-22: Peek at the top 2 with 1 card left: that card is seen, the Discard Pile stays where it is."""
    peeker = next(c for c in with_op("peek_draw", "summon") if CS.amount[c] >= 2)
    last, *pile = vanillas(4, 2, 3, 5)
    g = rig(new_game(), draw_top=[peeker, last], discard=pile)
    g.draw[:-2] = []
    g.discard[:] = pile + [c for c in g.discard if c not in pile]
    moved = [c for c in CS.numbers if c not in (*g.draw, *g.discard, *g.hand)
             and not any(c in z for z in (*g.life, *g.reserves, *g.rows))]
    g.discard.extend(moved)
    check_conservation(g)
    discard_before = list(g.discard)
    g.apply(0, D)
    g.apply(0, U)
    assert g.draw == [last]
    assert g.discard == discard_before
    assert not any(e[0] == E_RESHUFFLE for e in g.log)
    assert [c for _, c in PlayerView(g, 0).known_draw()] == [last]


def test_dd_22_an_empty_draw_deck_is_rebuilt_before_a_look():
    """DD-22 with DD-10: nothing left to look at, so the Discard Pile becomes the Draw Deck first."""
    peeker = with_op("peek_draw", "summon")[0]
    g = rig(new_game(), draw_top=[peeker])
    g.discard.extend(g.draw[:-1])
    g.draw[:-1] = []
    g.apply(0, D)
    assert g.draw == []
    g.apply(0, U)
    assert any(e[0] == E_RESHUFFLE for e in g.log)
    assert g.discard == [] and len(g.draw) > 1
    assert PlayerView(g, 0).known_draw_top() == g.draw[-1]


def test_dd_22_taking_cards_rebuilds_the_deck_between_two_of_them():
    """DD-22 with DD-3.7: gaining 2 life with 1 card left takes it, rebuilds the deck, then takes a second."""
    doc = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    healer = with_op("gain_life", "summon")[0]
    doc["cards"][healer - 1]["effect"] = {"op": "gain_life", "amount": 2}
    cs2 = parse_cardset(doc)
    last = vanilla(4)
    g = Game(2, 1, cs2)
    g.current = 0
    rig(g, draw_top=[healer, last])
    g.discard.extend(g.draw[:-2])
    g.draw[:-2] = []
    g.apply(0, D)
    g.apply(0, U)
    assert any(e[0] == E_RESHUFFLE for e in g.log)
    assert g.life[0][-2] == last  # the last card of the old deck first, then the new deck's top
    assert len(g.life[0]) == 12


def test_dd_23_a_salvaged_card_leaves_the_winners_total():
    """DD-23: the winner salvages a summoned card: while their next Aftermath waits, the shown total drops."""
    salvager = with_op("salvage", "aftermath")[0]
    healer = next(c for c in with_op("gain_life", "aftermath") if STRENGTH[c] > STRENGTH[salvager])
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [salvager, healer], 1: [loser_row]}, draw_top=[fail])
    g.apply(1, D)
    while g.prompt()[1] == 1:
        g.apply(1, keep(g.hand[0]) if g.prompt()[0] == P_KEEP else S)
    assert g.prompt()[:3] == (P_ABILITY, 0, salvager)
    assert observe(g, 1)["players"][0]["total"] == STRENGTH[salvager] + STRENGTH[healer]
    g.apply(0, U)
    assert g.prompt()[:3] == (P_ABILITY, 0, healer)
    assert salvager in g.reserves[0] and g.rows[0] == [healer]
    assert observe(g, 1)["players"][0]["total"] == STRENGTH[healer]


def test_dd_23_an_eliminated_players_total_drops_with_the_salvaged_card():
    """DD-23: a salvaged card leaves the eliminated player's total too."""
    salvager = with_op("salvage", "aftermath")[0]
    healer = next(c for c in with_op("gain_life", "aftermath") if STRENGTH[c] > STRENGTH[salvager])
    bad = vanilla(1)
    g = rig(new_game(3), rows={0: [salvager, healer]}, draw_top=[bad])
    g.apply(0, D)
    assert g.prompt()[:3] == (P_ABILITY, 0, salvager)
    g.apply(0, U)
    assert g.totals[0] == STRENGTH[healer]


def test_dd_24_a_card_you_saw_and_then_gain_as_life_stays_known():
    """DD-24: Lookout showed the top card; gaining it as life puts it on the Life Deck as a known card."""
    lookout = with_op("lookout")[0]
    healer = with_op("gain_life", "summon")[0]
    x = vanilla(4)
    g = rig(new_game(3), reserves={0: [lookout]}, draw_top=[healer, x])
    g.apply(0, D)
    assert PlayerView(g, 0).known_draw_top() == x
    g.apply(0, U)
    assert g.life[0][-1] == x
    assert x in g.known_life[0]
    assert observe(g, 0)["known_life"][0]["number"] == x
    assert x not in g.known_life[1] and observe(g, 1)["known_life"] == []


def test_dd_24_a_card_nobody_saw_is_gained_unknown():
    """DD-24 with DD-5.3: without an earlier look the gained card stays unknown, even to its new owner."""
    healer = with_op("gain_life", "summon")[0]
    x = vanilla(4)
    g = rig(new_game(3), draw_top=[healer, x])
    g.apply(0, D)
    g.apply(0, U)
    assert g.life[0][-1] == x and g.known_life[0] == set()
