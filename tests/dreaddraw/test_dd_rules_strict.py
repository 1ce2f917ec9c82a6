"""Dread Draw scenarios whose outcome changes when the rule breaks, found by `make mutate` (docs/testing.md):
each test here fails against one of the mutants of tests/mutation/mutants.py that the other tests let through.
"""

from __future__ import annotations

import json

import pytest

from dreaddraw.engine.cardset import DEFAULT_PATH, CardSetError, parse_cardset
from dreaddraw.engine.decisions import D, reserve
from dreaddraw.engine.game import E_DAMAGE_DRAWN, E_FAIL, E_FAIL_EMPTY, P_KEEP, Game
from dreaddraw.engine.observation import observe, visible_log
from tests.dreaddraw.factories import CS, check_conservation, damage_drawn_by_seat_1, new_game


def _doc() -> dict:
    return json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def test_dd_10_with_both_piles_empty_the_failed_summon_reveals_and_discards_no_card():
    """DD-10: nothing to reveal: the failure names no card, and only the row goes to the Discard Pile."""
    g = new_game()
    first = g.draw.pop()
    g.rows[0].append(first)
    g.totals[0] = CS.strength[first]
    g.reserves[1].extend(g.draw)
    g.draw.clear()
    g.apply(0, D)
    events = [e[0] for e in g.log if e[1] == 0]
    assert E_FAIL_EMPTY in events and E_FAIL not in events
    assert first in g.discard and 0 not in g.discard
    check_conservation(g)


def _strength_zero_game() -> Game:
    """A 2-player game of a set whose card No. 1 has strength 0, with that card on top of the Draw Deck."""
    doc = _doc()
    doc["cards"][0]["strength"] = 0
    g = Game(2, 1, parse_cardset(doc))
    g.current = 0
    for zone in (g.draw, *g.life):
        if 1 in zone:
            i = zone.index(1)
            zone[i], g.draw[-1] = g.draw[-1], zone[i]
    return g


def test_dd_9_a_card_of_strength_0_succeeds_as_the_first_summon_of_a_round():
    """DD-9: nothing to beat: even a strength-0 card (the validator allows it) is summoned, from either pile."""
    g = _strength_zero_game()
    g.apply(0, D)
    assert g.rows[0] == [1] and g.in_round[0]
    g = _strength_zero_game()
    g.reserves[0].append(g.draw.pop())
    assert reserve(1) in g.legal()
    g.apply(0, reserve(1))
    assert g.rows[0] == [1]


def test_dd_16_the_cards_drawn_as_damage_are_in_their_owners_log_only():
    """DD-16: the log line that names the cards drawn as damage is private to the player who drew them."""
    g = damage_drawn_by_seat_1()
    assert g.prompt()[0] == P_KEEP and len(g.hand) == 3
    drawn = [e for e in visible_log(g, 1) if e[0] == E_DAMAGE_DRAWN]
    assert len(drawn) == 1 and set(drawn[0][2]) == set(g.hand)
    for seat in (0, 2, -1):
        assert not [e for e in visible_log(g, seat) if e[0] == E_DAMAGE_DRAWN]
        assert len(observe(g, seat)["log"]) == len(observe(g, 1)["log"]) - 1


@pytest.mark.parametrize(("field", "value", "message"), [
    ("strength", True, r"card 1: 'strength' must be a non-negative integer, got True"),
    ("damage", False, r"card 1: 'damage' must be a non-negative integer, got False"),
    ("fortune", {"present": "A door opens.", "near": "   ", "far": "Rest."}, r"card 1: 'fortune.near' is required"),
])
def test_the_validator_refuses_a_true_or_false_number_and_a_blank_fortune(field, value, message):
    doc = _doc()
    doc["cards"][0][field] = value
    with pytest.raises(CardSetError, match=message):
        parse_cardset(doc)
