"""One scenario per Dread Draw rule (docs/rules.md, DD section)."""

from __future__ import annotations

import json

import pytest

from dreaddraw.engine.cardset import DEFAULT_PATH, K_RESERVE, parse_cardset
from dreaddraw.engine.decisions import B, D, S, U, keep, order, reserve, use
from dreaddraw.engine.errors import IllegalDecision
from dreaddraw.engine.game import (
    E_ABILITY,
    E_DAMAGE,
    E_RESHUFFLE,
    E_SKIP,
    P_ABILITY,
    P_ARRANGE,
    P_KEEP,
    P_SIFT_DRAW,
    WHY_LOWEST,
    WHY_START,
    WHY_TIE_LEFT,
    WHY_TIE_STAY,
    Game,
)
from dreaddraw.engine.observation import PlayerView, observe
from dreaddraw.engine.serialize import game_to_dict
from tests.dreaddraw.factories import (
    CS,
    OLD_CS,
    check_conservation,
    damage_drawn_by_seat_1,
    new_game,
    rig,
    skip_prompts,
    vanilla,
    vanillas,
    with_op,
)

STRENGTH = CS.strength


def test_dd_1_1_every_player_gets_ten_face_down_life_cards_and_the_rest_is_the_draw_deck():
    """DD-1.1: ten Life cards each, face down, at every table size."""
    for players in range(2, 7):
        g = Game(players, seed=players, cardset=CS)
        assert [len(x) for x in g.life] == [10] * players
        assert len(g.draw) == 100 - 10 * players
        assert g.discard == []
        check_conservation(g)


def test_dd_1_2_a_player_does_not_see_their_own_life_deck():
    """DD-1.2: a seat's observation shows its Life Deck's size, not its cards."""
    g = Game(3, seed=5, cardset=CS)
    obs = observe(g, 0)
    assert obs["players"][0]["life_size"] == 10
    assert obs["known_life"] == []
    assert "life" not in obs["players"][0]


def test_dd_3_1_the_first_player_is_chosen_at_random_by_the_seed():
    """DD-3.1: the first player is drawn by the seeded random generator."""
    firsts = {Game(4, seed=s, cardset=CS).current for s in range(60)}
    assert firsts == {0, 1, 2, 3}
    assert Game(4, seed=9, cardset=CS).current == Game(4, seed=9, cardset=CS).current


def test_dd_3_2_a_turn_is_a_summon_and_nothing_else():
    """DD-3.2: on a turn only a summon is accepted; anything else is refused with DD-3.2."""
    g = new_game()
    before = game_to_dict(g)
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, keep(5))
    assert err.value.rule == "DD-3.2"
    assert game_to_dict(g) == before


def test_dd_3_3_a_stronger_card_escalates_to_the_right():
    """DD-3.3: a stronger revealed card goes to the right of the row and adds to the total."""
    three, six = vanillas(3, 6)
    g = rig(new_game(), rows={0: [three]}, draw_top=[six])
    g.apply(0, D)
    assert g.rows[0] == [three, six]
    assert g.totals[0] == 9


@pytest.mark.parametrize("revealed", [3, 2])
def test_dd_3_5_a_card_not_stronger_fails_and_everything_is_discarded(revealed):
    """DD-3.5: an equal or weaker card fails; it and the row go to the Discard Pile."""
    two, three = vanillas(2, 3)
    bad = vanilla(revealed, exclude=(two, three))
    g = rig(new_game(3), rows={0: [two, three]}, draw_top=[bad])
    g.apply(0, D)
    assert not g.in_round[0]
    assert g.rows[0] == []
    assert g.discard[-3:] == [bad, two, three]
    check_conservation(g)


def test_dd_3_4_the_summon_ability_is_offered_and_may_be_skipped():
    """DD-3.4: a successful summon offers the card's Summon ability, which may be skipped."""
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
    """DD-3.6: the lowest total among those in the round plays next."""
    a, b, c, x = vanillas(5, 2, 4, 9)
    g = _after_summon(3, {0: [a], 1: [b], 2: [c]}, 0, x)
    assert g.current == 1
    assert g.why == WHY_LOWEST


def test_dd_3_6_tie_including_the_current_player_keeps_the_turn():
    """DD-3.6: tied for lowest with the current player among them: the current player goes again."""
    # Seat 1 summons and ties with seat 0 and seat 2 at the lowest total: seat 1 goes again.
    s0, s1, s2, x = vanillas(4, 1, 4, 3)
    g = _after_summon(3, {0: [s0], 1: [s1], 2: [s2]}, 1, x)
    assert g.totals == [4, 4, 4]
    assert g.current == 1
    assert g.why == WHY_TIE_STAY


def test_dd_3_6_tie_without_the_current_player_goes_to_the_next_tied_on_the_left():
    """DD-3.6: a tie without the current player goes to the next tied player to the left."""
    # Seat 2 climbs to 9; seats 0 and 1 are tied at 3: from seat 2, the next on the left is seat 0.
    s0, s1, s2, x = vanillas(3, 3, 2, 7)
    g = _after_summon(3, {0: [s0], 1: [s1], 2: [s2]}, 2, x)
    assert g.current == 0
    assert g.why == WHY_TIE_LEFT


def test_dd_3_6_several_tied_to_the_left_the_nearest_one_plays():
    """DD-3.6: of several tied players, the nearest to the current player's left plays."""
    # Six seats; seat 1 climbs. Seats 4, 5 and 0 tie at 2; seats 2 and 3 are higher.
    # The tied seat nearest to seat 1's left is seat 4 (seats 2 and 3 are skipped).
    rows = dict(zip(range(6), [[c] for c in vanillas(2, 1, 5, 6, 2, 2)], strict=True))
    x = vanilla(9, exclude=tuple(c for r in rows.values() for c in r))
    g = _after_summon(6, rows, 1, x)
    assert g.current == 4
    assert g.why == WHY_TIE_LEFT


def test_dd_3_6_after_a_failed_summon_the_next_tied_to_the_left_plays():
    """DD-3.6: after a failed summon the turn also goes to the lowest total, ties to the left."""
    s0, s1, s2, s3, bad = vanillas(5, 6, 6, 6, 2)
    g = _after_summon(4, {0: [s0], 1: [s1], 2: [s2], 3: [s3]}, 0, bad)
    assert not g.in_round[0]
    assert g.current == 1  # seats 1, 2, 3 tie at 6; from seat 0 the next to the left is seat 1


def test_dd_3_6_acting_out_of_turn_is_refused_and_changes_nothing():
    """DD-3.6: a seat that does not have the turn is refused, and nothing changes."""
    g = new_game(3, current=1)
    before = game_to_dict(g)
    with pytest.raises(IllegalDecision) as err:
        g.apply(2, D)
    assert err.value.rule == "DD-3.6"
    assert game_to_dict(g) == before


def test_dd_3_7_an_empty_draw_deck_is_rebuilt_from_the_shuffled_discard_pile():
    """DD-3.7: an empty Draw Deck is rebuilt from the Discard Pile when a card is needed."""
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
    """DD-10: with both piles empty, a summon from the Draw Deck is legal and fails."""
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
    """DD-9: the first summon of a round succeeds whatever its strength."""
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
    """DD-4.2: the damage is the sum of the winner's red dots, dealt to every opponent."""
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
    """DD-4.4: the winner discards the row and starts the next round."""
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
    """DD-5.1: damage draws that many Life cards; one is kept in Reserve, the rest discarded."""
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
    """DD-5.2: running out while drawing is no defeat; damage with an empty Life Deck is."""
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
    """DD-11: zero damage does not defeat a player whose Life Deck is empty."""
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
    """DD-5.3: gained life comes from the Draw Deck onto the Life Deck, unseen."""
    healer = next(c for c in with_op("gain_life", "summon"))
    x, y = vanillas(2, 3)
    g = rig(new_game(), draw_top=[healer, x, y])
    g.apply(0, D)
    g.apply(0, U)
    assert g.life[0][-CS.amount[healer]:] == [x, y][:CS.amount[healer]][::-1]
    assert x not in g.known_life[0]
    assert observe(g, 0)["known_life"] == []


def test_dd_6_3_a_reserve_card_must_be_stronger_than_the_last_summoned():
    """DD-6.3: only a Reserve card stronger than the last summoned card may be summoned."""
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
    """DD-6.3: a card that is not in the seat's Reserves cannot be summoned from them."""
    g = new_game()
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, reserve(g.draw[0]))
    assert err.value.rule == "DD-6.3"


def test_dd_6_2_and_7_3_a_card_kept_after_damage_offers_its_reserve_ability():
    """DD-6.2: a card kept after damage offers its Reserve ability at once."""
    rcard = with_op("arrange_draw", "reserve")[0]
    w = [vanilla(4, damage=1), vanilla(7, damage=2)]
    loser_row, fail = vanillas(9, 3)
    g = rig(new_game(2, current=1), rows={0: w, 1: [loser_row]}, draw_top=[fail])
    g.life[1][-1], displaced = rcard, g.life[1][-1]
    # keep conservation: the displaced card goes where the Reserve card was
    for zone in (g.draw, g.discard, *g.life, *g.reserves, *g.rows):
        if zone is not g.life[1] and rcard in zone:
            zone[zone.index(rcard)] = displaced
    check_conservation(g)
    g.apply(1, D)
    g.apply(1, keep(rcard))
    assert g.prompt()[:3] == (P_ABILITY, 1, rcard)
    g.apply(1, U)
    assert g.prompt()[0] == P_ARRANGE and g.prompt()[1] == 1


def test_dd_7_1_an_optional_ability_takes_only_use_or_skip():
    """DD-7.1: an optional ability takes use or skip, from its owner only."""
    peeker = with_op("sift_draw", "summon")[0]
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
    """DD-7.4, DD-12: an eliminated player's Aftermath abilities resolve in row order, then the row goes.

    Salvage is in card set dd-1.0 only (still replayable)."""
    salvager = with_op("salvage", cs=OLD_CS)[0]
    healer = next(c for c in with_op("gain_life", "aftermath", OLD_CS) if STRENGTH[c] > STRENGTH[salvager])
    top = vanilla(10)
    bad = vanilla(1)
    g = rig(new_game(3, cs=OLD_CS), rows={0: [salvager, healer, top]}, draw_top=[bad])
    g.apply(0, D)
    assert g.prompt()[:3] == (P_ABILITY, 0, salvager)
    assert salvager in g.rows[0]
    g.apply(0, U)
    assert g.prompt()[:3] == (P_ABILITY, 0, healer)
    assert healer in g.rows[0]
    g.apply(0, U)
    assert g.rows[0] == []
    assert salvager in g.reserves[0] and healer in g.discard and top in g.discard and bad in g.discard
    check_conservation(g)


def test_dd_12_the_winners_aftermath_comes_after_the_damage():
    """DD-12: the winner's Aftermath comes after the damage."""
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
    """DD-7.5: an always-on ability (Shield) works from the Reserves, without being asked."""
    shield = with_op("shield")[0]
    w = [vanilla(4, damage=1), vanilla(7, damage=2)]
    loser_row, fail = vanillas(9, 3)
    g = rig(new_game(2, current=1), rows={0: w, 1: [loser_row]}, reserves={1: [shield]}, draw_top=[fail])
    g.apply(1, D)
    assert [e[2] for e in g.log if e[0] == E_DAMAGE] == [3 - CS.amount[shield]]
    assert len(g.hand) == 2


def test_dd_8_the_fortune_lays_out_the_winners_remaining_life_cards():
    """DD-8.3: each fortune card is read with its meaning for its place."""
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
    """DD-2.5: the last player left wins; the game then refuses every decision."""
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail], life_sizes={1: 0})
    g.apply(1, D)
    assert g.legal() == []
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, D)
    assert err.value.rule == "DD-2.5"


def test_dd_15_a_defeated_players_reserves_go_to_the_discard_pile():
    """DD-15: a defeated player's Reserves go to the Discard Pile."""
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
    """DD-14: a single card drawn as damage goes to the Reserves without a prompt."""
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail])
    top = g.life[1][-1]
    g.apply(1, D)
    assert top in g.reserves[1]
    assert not g.prompt() or g.prompt()[0] != P_KEEP


def test_dd_20_order_scry_and_bottom_are_only_accepted_when_prompted():
    """DD-20: answers to prompts are refused on a turn (no prompt pending)."""
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
    """DD-22: a look at the top 2 with 1 card left: that card is seen, the Discard Pile stays where it is."""
    looker = next(c for c in with_op("sift_draw", "summon") if CS.amount[c] >= 2)
    last = vanilla(4)
    g = rig(new_game(), draw_top=[looker, last])
    g.discard.extend(g.draw[:-2])
    g.draw[:-2] = []
    discard_before = list(g.discard)
    g.apply(0, D)
    g.apply(0, U)
    assert g.prompt()[0] == P_SIFT_DRAW and g.prompt()[3] == (last,)
    g.apply(0, order((last,)))
    assert g.draw == [last]
    assert g.discard == discard_before
    assert not any(e[0] == E_RESHUFFLE for e in g.log)
    assert [c for _, c in PlayerView(g, 0).known_draw()] == [last]


def test_dd_22_an_empty_draw_deck_is_rebuilt_before_a_look():
    """DD-22 with DD-10: nothing left to look at, so the Discard Pile becomes the Draw Deck first."""
    looker = with_op("sift_draw", "summon")[0]
    g = rig(new_game(), draw_top=[looker])
    g.discard.extend(g.draw[:-1])
    g.draw[:-1] = []
    g.apply(0, D)
    assert g.draw == []
    g.apply(0, U)
    assert any(e[0] == E_RESHUFFLE for e in g.log)
    assert g.discard == [] and len(g.draw) > 1
    assert g.prompt()[0] == P_SIFT_DRAW and g.prompt()[3] == tuple(g.draw[::-1][:CS.amount[looker]])
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
    salvager = with_op("salvage", "aftermath", OLD_CS)[0]
    healer = next(c for c in with_op("gain_life", "aftermath", OLD_CS) if STRENGTH[c] > STRENGTH[salvager])
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1, cs=OLD_CS), rows={0: [salvager, healer], 1: [loser_row]}, draw_top=[fail])
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
    salvager = with_op("salvage", "aftermath", OLD_CS)[0]
    healer = next(c for c in with_op("gain_life", "aftermath", OLD_CS) if STRENGTH[c] > STRENGTH[salvager])
    bad = vanilla(1)
    g = rig(new_game(3, cs=OLD_CS), rows={0: [salvager, healer]}, draw_top=[bad])
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


def test_dd_24_a_card_a_reshuffle_brings_up_while_it_is_gained_was_never_under_the_lookout():
    """DD-24: the Lookout showed the Draw Deck's top card; when the deck is empty, the card gained comes off the
    Discard Pile shuffled in its place (DD-10), which no one saw: it was told to the Lookout's owner all the same."""
    lookout = with_op("lookout")[0]
    healer = with_op("gain_life", "summon")[0]
    g = rig(new_game(3), reserves={0: [lookout]}, draw_top=[healer])
    g.discard[:0], g.draw[:-1] = g.draw[:-1], []  # the healer is the Draw Deck's last card
    g.apply(0, D)
    assert g.draw == [] and PlayerView(g, 0).known_draw_top() == 0  # nothing under the Lookout now
    g.apply(0, U)
    gained = g.life[0][-1]
    assert gained not in g.known_life[0] and observe(g, 0)["known_life"] == []


def test_dd_24_a_card_nobody_saw_is_gained_unknown():
    """DD-24 with DD-5.3: without an earlier look the gained card stays unknown, even to its new owner."""
    healer = with_op("gain_life", "summon")[0]
    x = vanilla(4)
    g = rig(new_game(3), draw_top=[healer, x])
    g.apply(0, D)
    g.apply(0, U)
    assert g.life[0][-1] == x and g.known_life[0] == set()


# Rules that had no scenario of their own, and the breakages the earlier tests let through.

def test_dd_1_3_the_undealt_cards_are_the_draw_deck_and_the_discard_pile_starts_empty():
    """DD-1.3: every card not dealt is in the Draw Deck, and the first summon reveals its top card."""
    g = new_game(4, seed=11)
    dealt = {c for life in g.life for c in life}
    assert set(g.draw) == set(CS.numbers) - dealt and len(g.draw) == 60
    assert g.discard == [] and g.reserves == [[]] * 4 and g.rows == [[]] * 4
    top = g.draw[-1]
    g.apply(0, D)
    assert g.rows[0] == [top]


def _play_bots(players: int, seed: int) -> Game:
    from dreaddraw.engine.bots import HeuristicBot, play_game

    return play_game([HeuristicBot() for _ in range(players)], seed, CS)


def test_dd_2_1_a_game_is_a_series_of_rounds_of_summons():
    """DD-2.1: rounds follow one another, numbered from 1, and every round has summons."""
    from dreaddraw.engine.game import E_ROUND

    g = _play_bots(3, 5)
    rounds = [e[2] for e in g.log if e[0] == E_ROUND]
    assert rounds == list(range(1, g.round_no + 1)) and g.round_no > 1
    assert len(g.round_lengths) == g.round_no and all(n >= 1 for n in g.round_lengths)


def test_dd_2_2_a_round_ends_only_when_one_player_remains():
    """DD-2.2: with three players, the first elimination does not end the round; the second does."""
    a, b, c = vanillas(6, 7, 8)
    bad1 = vanilla(2, exclude=(a, b, c))
    bad2 = vanilla(3, exclude=(a, b, c, bad1))
    g = rig(new_game(3, current=0), rows={0: [a], 1: [b], 2: [c]}, draw_top=[bad1, bad2])
    g.apply(0, D)
    assert not g.in_round[0] and g.round_no == 1 and g.round_winner == -1
    assert g.current == 1
    g.apply(1, D)
    assert g.round_winner == 2
    skip_prompts(g)
    assert g.round_no == 2


def test_dd_2_3_every_eliminated_player_takes_damage_at_the_end_of_the_round():
    """DD-2.3: damage waits for the end of the round, then hits each eliminated player, the first one too."""
    a, b = vanillas(4, 5)
    c = vanilla(6, damage=1)
    bad1 = vanilla(2, exclude=(a, b, c))
    bad2 = vanilla(3, exclude=(a, b, c, bad1))
    g = rig(new_game(3, current=0), rows={0: [a], 1: [b], 2: [c]}, draw_top=[bad1, bad2])
    g.apply(0, D)
    assert len(g.life[0]) == 10 and not any(e[0] == E_DAMAGE for e in g.log)
    g.apply(1, D)
    skip_prompts(g)
    assert [(e[1], e[2]) for e in g.log if e[0] == E_DAMAGE] == [(0, 1), (1, 1)]
    assert len(g.life[0]) == 9 and len(g.life[1]) == 9 and len(g.life[2]) == 10


def test_dd_2_4_an_eliminated_player_with_no_life_cards_is_defeated_but_the_winner_is_not():
    """DD-2.4: eliminated with an empty Life Deck (and damage to take): defeated; the winner with none plays on."""
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(3, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail], life_sizes={0: 0, 1: 0})
    g.in_round = [True, True, False]
    g.in_round_count = 2
    g.apply(1, D)
    skip_prompts(g)
    assert not g.alive[1] and g.alive[0] and g.alive[2]
    assert not g.over and g.round_no == 2


def test_dd_4_1_the_round_goes_on_while_two_or_more_remain():
    """DD-4.1: four players; after two eliminations the two left play on; the third elimination ends it."""
    rows = vanillas(5, 6, 7, 8)
    bads = [vanilla(s, exclude=tuple(rows)) for s in (1, 2)]
    bad3 = vanilla(3, exclude=(*rows, *bads))
    g = rig(new_game(4, current=0), rows={p: [rows[p]] for p in range(4)}, draw_top=[*bads, bad3])
    g.apply(0, D)
    g.apply(1, D)
    assert g.in_round == [False, False, True, True] and g.round_winner == -1 and g.current == 2
    g.apply(2, D)
    assert g.round_winner == 3


def test_dd_4_3_damage_goes_from_the_winners_left_around_the_table():
    """DD-4.3: the winner is seat 1 of 4: seats 2, 3 and 0 take their damage (and choose) in that order."""
    w = [vanilla(4, damage=1), vanilla(6, damage=1)]
    others = [vanilla(9, exclude=tuple(w))]
    others += [vanilla(9, exclude=(*w, *others)), vanilla(10, exclude=(*w, *others))]
    fail = vanilla(1, exclude=(*w, *others))
    g = rig(new_game(4, current=0), rows={1: w, 0: [others[0]], 2: [others[1]], 3: [others[2]]}, draw_top=[fail])
    g.in_round = [True, True, False, False]
    g.in_round_count = 2
    g.apply(0, D)  # seat 0 fails: seat 1 wins with 2 damage
    asked = []
    while g.prompt():
        asked.append(g.to_move())
        g.apply(g.to_move(), keep(g.hand[0]) if g.prompt()[0] == P_KEEP else S)
    assert [e[1] for e in g.log if e[0] == E_DAMAGE] == [2, 3, 0]
    assert [p for p in asked if p != 1][:3] == [2, 3, 0]


def test_dd_4_4_with_more_players_the_winner_starts_the_next_round():
    """DD-4.4: four players; seat 3 is eliminated last and seat 1 wins: seat 1, not the next seat, starts."""
    rows = vanillas(5, 9, 6, 7)
    bad = vanilla(2, exclude=tuple(rows))
    g = rig(new_game(4, current=3), rows={p: [rows[p]] for p in range(4)}, draw_top=[bad])
    g.in_round = [False, True, False, True]
    g.in_round_count = 2
    g.apply(3, D)
    skip_prompts(g)
    assert g.round_no == 2 and g.round_winner == 1
    assert g.current == 1 and g.why == WHY_START and g.to_move() == 1


def test_dd_6_1_reserves_lie_apart_from_the_row_and_outlast_the_round():
    """DD-6.1: a kept card is in the Reserves, not the row; it adds nothing to the total and stays next round."""
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail])
    top = g.life[1][-1]
    g.apply(1, D)
    skip_prompts(g)
    assert g.reserves[1] == [top] and g.rows[1] == [] and g.totals[1] == 0
    assert g.round_no == 2 and top not in g.discard


def test_dd_6_3_a_reserve_card_of_equal_strength_is_refused_even_with_steadfast():
    """DD-6.3: a Reserve card must be stronger; equal is refused (Steadfast speaks of the Draw Deck only)."""
    steadfast = with_op("steadfast")[0]
    six_a, six_b = [c for c in CS.numbers if STRENGTH[c] == 6 and not CS.op[c]][:2]
    g = rig(new_game(), rows={0: [six_a]}, reserves={0: [six_b, steadfast]})
    assert reserve(six_b) not in g.legal()
    with pytest.raises(IllegalDecision) as err:
        g.apply(0, reserve(six_b))
    assert err.value.rule == "DD-6.3"


def test_dd_7_2_a_summon_ability_plays_from_the_reserves_and_not_on_a_failed_reveal():
    """DD-7.2: summoned from the Reserves, the card's Summon ability is offered; revealed and failed, it is not."""
    healer = next(c for c in with_op("gain_life", "summon") if STRENGTH[c] >= 3)
    low = vanilla(1)
    g = rig(new_game(), rows={0: [low]}, reserves={0: [healer]})
    g.apply(0, reserve(healer))
    assert g.prompt()[:3] == (P_ABILITY, 0, healer)
    high = vanilla(9)
    g = rig(new_game(3), rows={0: [high]}, draw_top=[healer])
    g.apply(0, D)
    assert not g.in_round[0] and g.prompt() == ()


def test_dd_7_3_a_reserve_ability_plays_wherever_the_card_came_from():
    """DD-7.3: the failed card, scavenged from the Discard Pile, offers its Reserve ability; summoned from the
    Reserves later, it does not offer it again."""
    scav = with_op("scavenge", "aftermath")[0]
    rcard = min(with_op("arrange_draw", "reserve"), key=lambda c: STRENGTH[c])
    top = vanilla(10)
    g = rig(new_game(3), rows={0: [scav, top]}, draw_top=[rcard])
    g.apply(0, D)  # rcard is too weak: it is discarded and seat 0 is out
    assert g.discard[-1] == rcard and g.prompt()[:3] == (P_ABILITY, 0, scav)
    g.apply(0, U)
    assert rcard in g.reserves[0]
    assert g.prompt()[:4] == (P_ABILITY, 0, rcard, K_RESERVE)
    g.apply(0, S)
    skip_prompts(g)
    g = rig(new_game(3), reserves={0: [rcard]})
    g.apply(0, reserve(rcard))
    assert g.prompt() == ()


def test_dd_8_1_the_fortune_uses_the_winners_remaining_life_cards_or_none():
    """DD-8.1: a winner with no Life cards left has no fortune; the fortune is theirs, not a loser's."""
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    g = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail], life_sizes={0: 0, 1: 0})
    g.apply(1, D)
    assert g.over and g.winner == 0 and g.fortune == () and observe(g, 0)["fortune"] == []
    assert not any("fortune" in line for line in observe(g, 0)["log"])  # the log tells no fortune either


def test_dd_8_2_the_fortune_is_shuffled_and_read_present_near_then_far():
    """DD-8.2: the remaining Life cards are shuffled (not laid in their Life Deck order), then read in places."""
    orders = []
    for seed in range(6):
        w = vanilla(5, damage=1)
        loser_row, fail = vanillas(9, 2)
        g = rig(new_game(2, seed=seed, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail],
                life_sizes={1: 0})
        life = list(g.life[0])
        g.apply(1, D)
        assert sorted(g.fortune) == sorted(life)
        orders.append(list(g.fortune) not in (life, life[::-1]))
        places = [r["place"] for r in observe(g, 0)["fortune"]]
        assert places == ["present", "immediate future"] + ["distant future"] * (len(life) - 2)
    assert all(orders)


def test_dd_3_7_the_rebuilt_draw_deck_is_shuffled():
    """DD-3.7: the Discard Pile is shuffled into the new Draw Deck, not turned over in its order."""
    g = new_game()
    g.discard.extend(g.draw)
    g.draw.clear()
    pile = list(g.discard)
    g.apply(0, D)
    rebuilt = g.draw + g.rows[0]
    assert sorted(rebuilt) == sorted(pile)
    assert g.draw not in (pile[:-1], pile[1:], pile[::-1][:-1], pile[::-1][1:])


def test_dd_10_with_both_piles_empty_effects_take_and_see_nothing():
    """DD-10: nothing in the Draw Deck or the Discard Pile: gain life gains nothing, a sift has no prompt."""
    healer = with_op("gain_life", "summon")[0]
    looker = with_op("sift_draw", "summon")[0]
    for card in (healer, looker):
        g = rig(new_game(), draw_top=[card])
        g.reserves[1].extend(g.draw[:-1])
        g.draw[:-1] = []
        g.reserves[1].extend(g.discard)
        g.discard.clear()
        check_conservation(g)
        g.apply(0, D)
        g.apply(0, U)
        assert g.life[0] == g.life[0][:10] and len(g.life[0]) == 10
        assert g.prompt() == () and 0 not in g.life[0]
        check_conservation(g)


def test_dd_13_left_is_the_next_seat_number_and_wraps_after_the_last():
    """DD-13: from the last seat, "left" is seat 0: the damage of a winner in the last seat starts there."""
    w = vanilla(5, damage=1)
    rows = vanillas(9, 9)
    fail = vanilla(2, exclude=(w, *rows))
    g = rig(new_game(3, current=1), rows={2: [w], 0: [rows[0]], 1: [rows[1]]}, draw_top=[fail])
    g.in_round = [False, True, True]
    g.in_round_count = 2
    g.apply(1, D)
    skip_prompts(g)
    assert [e[1] for e in g.log if e[0] == E_DAMAGE] == [0, 1]


def test_dd_16_cards_drawn_as_damage_are_seen_by_their_owner_only():
    """DD-16: the cards drawn as damage are in the owner's prompt, not in anyone else's observation."""
    g = damage_drawn_by_seat_1()
    assert g.prompt()[0] == P_KEEP and g.to_move() == 1
    drawn = {c["number"] for c in observe(g, 1)["prompt"]["cards"]}
    assert drawn == set(g.hand)
    for seat in (0, 2, -1):
        assert "cards" not in observe(g, seat)["prompt"]


def test_dd_17_a_card_put_into_the_reserves_by_an_ability_offers_its_reserve_ability_first():
    """DD-17: Scavenge brings a Reserve card; its ability is offered before the next pending Aftermath."""
    scav = with_op("scavenge", "aftermath")[0]
    healer = next(c for c in with_op("gain_life", "aftermath") if STRENGTH[c] > STRENGTH[scav])
    rcard = min(with_op("arrange_draw", "reserve"), key=lambda c: STRENGTH[c])
    assert STRENGTH[rcard] <= STRENGTH[healer]
    g = rig(new_game(3), rows={0: [scav, healer]}, draw_top=[rcard])
    g.apply(0, D)
    assert g.prompt()[:3] == (P_ABILITY, 0, scav)
    g.apply(0, U)
    assert g.prompt()[:3] == (P_ABILITY, 0, rcard)
    g.apply(0, S)
    assert g.prompt()[:3] == (P_ABILITY, 0, healer)


def test_dd_18_two_shields_add_up():
    """DD-18: two Shield cards in the Reserves take two points off the damage."""
    shields = with_op("shield")[:2]
    w = [vanilla(4, damage=1), vanilla(7, damage=2)]
    loser_row, fail = vanillas(9, 3)
    g = rig(new_game(2, current=1), rows={0: w, 1: [loser_row]}, reserves={1: shields}, draw_top=[fail])
    g.apply(1, D)
    assert [e[2] for e in g.log if e[0] == E_DAMAGE] == [3 - sum(CS.amount[s] for s in shields)]


def test_dd_19_drain_is_not_damage():
    """DD-19: draining a player with an empty Life Deck discards nothing and defeats no one."""
    drainer = with_op("drain")[0]
    g = rig(new_game(), draw_top=[drainer], life_sizes={1: 0})
    g.apply(0, D)
    g.apply(0, use(1))
    assert g.alive[1] and not g.over
    assert not any(e[0] == E_DAMAGE for e in g.log)


def test_dd_32_the_winners_aftermath_still_comes_in_the_games_last_round_and_the_fortune_follows_it():
    """DD-32: the round's damage defeats the last opponent; the winner's Aftermath is offered all the same, and the
    fortune is told from the Life Deck it leaves (a card gained as life in it)."""
    grave = with_op("gain_life", "aftermath")[0]  # Gravedigger: strength 4, 1 damage, gain life at round's end
    three, one = vanillas(3, 1)
    g = rig(new_game(2), draw_top=[grave, three, one], life={1: []})
    g.apply(0, D)  # 4
    g.apply(1, D)  # 3: the lower total moves again
    g.apply(1, D)  # 1 after 3 fails: seat 0 wins the round, its damage finds seat 1's Life Deck empty
    assert not g.alive[1] and not g.over and g.prompt()[:3] == (P_ABILITY, 0, grave)
    life = len(g.life[0])
    g.apply(0, U)
    assert g.over and len(g.fortune) == life + 1


def test_dd_33_cards_discarded_together_go_in_the_order_they_came_the_last_on_top():
    """DD-33: the cards a damage drew and did not keep go down in the order drawn, the last on top, where the
    winner's Scavenge (an Aftermath) takes it."""
    rat = with_op("scavenge", "aftermath")[0]  # Scavenger Rat: strength 2, takes the Discard Pile's top card
    three, ten, one = vanillas(3, 10, 1)
    life = vanillas(2, 2, 2, 6, 5, 4)  # bottom to top: a damage of 3 draws 4, then 5, then 6
    assert sum(CS.damage[c] for c in (rat, ten)) == 3
    g = rig(new_game(2), draw_top=[rat, three, ten, one], life={1: life})
    g.apply(0, D)  # 2
    g.apply(1, D)  # 3
    g.apply(0, D)  # 10: seat 1 is lower
    g.apply(1, D)  # 1 fails: seat 0 wins, seat 1 draws its top three Life cards and keeps one
    g.apply(1, keep(life[4]))
    assert g.discard[-2:] == [life[5], life[3]]  # the 4 drawn first, then the 6: the last drawn on top
    g.apply(0, U)
    assert life[3] in g.reserves[0]


def test_dd_34_a_table_seats_two_to_six():
    """DD-34: the text names no number of players."""
    for players in (1, 7):
        with pytest.raises(ValueError, match="2 to 6 players"):
            Game(players, seed=1, cardset=CS)
