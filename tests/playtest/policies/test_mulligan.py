"""The whole-deck policies' mulligan (DG-4.5): a hand judged against the deck's own curve, not by a fixed rule."""

from __future__ import annotations

import random

from playtest.dreadgate.cards import UNIVERSAL, Compiled
from playtest.policies.mulligan import keeps, tempo
from playtest.simulation.catalog import starter_decks
from tests.playtest.dreadgate.factories import legend, talent, unit


def cards(*defs) -> list[Compiled]:
    return [Compiled(card, index) for index, card in enumerate(defs)]


CHEAP, MIDDLE, BIG = unit("U-2", vit=2), unit("U-4", vit=4), unit("U-8", vit=8)
SPELL = talent("T-1")


def test_tempo_counts_each_unit_for_the_turns_it_stands_and_pays_as_dg_7_3():
    """4 AP a turn (DG-5.1): a 2-vitality unit on turn 1 stands 3 turns; an 8-vitality unit waits until recycled
    cards and AP pay it (1 AP, then recycling, then AP: DG-7.3, DG-7.6), and a legend's influence (DG-17.2) pays
    from the next turn."""
    assert tempo(cards(CHEAP, SPELL, SPELL, SPELL, SPELL, SPELL)) == 2 * 3
    assert tempo(cards(BIG, SPELL, SPELL, SPELL, SPELL, SPELL)) == 8 * 3  # 1 AP + 5 recycled + 2 AP, turn 1
    assert tempo(cards(BIG, CHEAP, CHEAP, CHEAP, CHEAP, CHEAP)) == 2 * 3 * 2 + 2 * 2 * 2 + 2 * 1  # no spare cards
    lord = legend("L-3", vit=3, influence=4, craft="champion")
    assert tempo(cards(lord, BIG)) == 3 * 3 + 8 * 2  # turn 2: 1 AP + 4 influence + 3 AP


def test_a_card_of_no_vitality_costs_its_one_action_point_and_stands_for_nothing():
    """The engine takes a unit or legend of vitality 0 (a card edited so): it deploys for 1 AP (DG-7.3) and adds
    nothing to the hand's tempo, and the hands beside it are read as before."""
    assert tempo(cards(unit("U-0", vit=0), CHEAP, SPELL)) == 2 * 3
    assert tempo(cards(legend("L-0", vit=0, influence=2, craft="champion"), CHEAP, SPELL, SPELL)) == 2 * 3


def test_a_hand_that_cannot_deploy_goes_back_in_a_quick_deck_and_a_big_unit_with_its_payment_is_kept():
    """Five 8-vitality units and one card to recycle deploy nothing in three turns: below the average hand of a
    deck of 2-vitality units (a fixed rule, "two units or legends", would keep it). One 8-vitality unit with five
    cards to pay it is above the average hand of a deck of big units and spells, which often can't pay its own."""
    stuck = cards(BIG, BIG, BIG, BIG, BIG, SPELL)
    assert tempo(stuck) == 0
    assert not keeps(stuck, stuck + cards(*[CHEAP] * 20, *[SPELL] * 10), random.Random(1))
    paid = cards(BIG, SPELL, SPELL, SPELL, SPELL, SPELL)
    assert keeps(paid, paid + cards(*[BIG] * 20, *[SPELL] * 10), random.Random(1))


def test_a_hand_as_good_as_the_deck_is_kept_whatever_its_units():
    """A hand of the deck's only kind of card is its average hand: nothing to gain by changing it."""
    hand = cards(*[MIDDLE] * 6)
    assert keeps(hand, hand + cards(*[MIDDLE] * 34), random.Random(2))


def _reference_tempo(hand) -> int:
    """tempo as first written, unit by unit with min(): the lean loop must give the very same numbers."""
    waiting = sorted((c for c in hand if c.board), key=lambda c: (c.vit, c.kind != "legend"))
    spare = len(hand) - len(waiting)
    influence: dict[int, int] = {}
    total = 0
    for turn in range(3):
        ap, left = 4, dict(influence)
        deployed = []
        for card in waiting:
            rest = card.vit - 1
            crafts = (sorted(left) if card.craft == UNIVERSAL else [card.craft]) if left or rest < 0 else []
            from_influence = min(rest, sum(left.get(craft, 0) for craft in crafts)) if crafts else 0
            from_recycling = min(rest - from_influence, spare)
            from_ap = rest - from_influence - from_recycling
            if ap < 1 + from_ap:
                continue
            ap -= 1 + from_ap
            spare -= from_recycling
            for craft in crafts:
                spent = min(left.get(craft, 0), from_influence)
                if spent:
                    left[craft] -= spent
                    from_influence -= spent
            deployed.append(card)
            total += card.vit * (3 - turn)
        for card in deployed:
            waiting.remove(card)
            if card.kind == "legend":
                influence[card.craft] = influence.get(card.craft, 0) + card.influence
    return total


def test_tempo_is_its_first_reading_over_the_starter_decks_hands_and_legend_heavy_ones():
    rnd = random.Random(9)
    lords = [legend(f"L-{v}{c}", vit=v, influence=i, craft=c) for v, i, c in
             ((1, 2, "champion"), (2, 3, "sorcery"), (3, 4, "champion"), (5, 1, "universal"))]
    pools = [[Compiled(card, i) for i, card in enumerate(deck)] for deck in starter_decks().values()]
    pools.append(cards(*lords, CHEAP, MIDDLE, BIG, SPELL, unit("U-5U", vit=5, craft="universal")))
    for pool in pools:
        for _ in range(300):
            hand = rnd.sample(pool, rnd.randrange(1, 9))
            assert tempo(hand) == _reference_tempo(hand)
