"""Scenario tests for the response windows of DG-15.5: after which actions the opponent may answer.

Each test reaches its window through cards and actions, and each action here opens its window without a target
to choose (a chosen target leads to the window by another path, tested in test_rules_cards.py), so that a rule
broken for one kind of action fails here: `make mutate` checks it (tests/mutation/mutants.py).
"""

from __future__ import annotations

from playtest.dreadgate.state import MAIN_PHASE, RESPONSE_PHASE

from .factories import ability, game, give, item, play, put, talent, unit

PAWN = unit("U-PW", 3, 1, 1, 1, 1)
ZAP = talent("T-ZP", ability("instant", {"op": "damage", "amount": 1,
                                         "target": {"select": "chosen", "side": "enemy"}}, cost=1),
             cost=1, instant=True)  # fmt: skip
SWORD = item("I-SW", ability("equipped", {"op": "modify", "stat": "attack", "amount": 2, "duration": "while_source",
                                          "target": {"select": "bearer"}}), cost=1)  # fmt: skip
RALLY = talent("T-RA", ability("play", {"op": "modify", "stat": "attack", "amount": 1, "duration": "end_of_turn",
                                        "target": {"select": "all", "side": "friendly"}}))  # fmt: skip
RUNE = talent("G-RU", ability("play", {"op": "draw", "player": "self", "amount": 1}), type="glyph", subtype="")
SCRIBE = unit("U-SC", 3, 1, 1, 1, 1, abilities=[ability("activated", {"op": "draw", "player": "self", "amount": 1},
                                                        cost=1)])  # fmt: skip


def _answerable(*cards):
    """South on turn with a unit on b2; North holds ZAP, which can hit it, and a talent point to pay for it."""
    s = game(PAWN, ZAP, *cards)
    put(s, 0, "U-PW", "b2")
    give(s, 1, "T-ZP")
    s.tp[1] = 1
    return s


def _window_is_open(s) -> None:
    assert s.phase == RESPONSE_PHASE and s.current_player == 1
    play(s, "pass")
    assert s.phase == MAIN_PHASE and s.current_player == 0


def test_dg_15_5_equipping_an_item_opens_a_window():
    """DG-15.5: an item equipped on a bearer (no target to choose) may be answered."""
    s = _answerable(SWORD)
    give(s, 0, "I-SW")
    play(s, "equip I-SW b2")
    assert s.units[s.board[6]].atk == 3  # the item is on: the window opens after the action resolved
    _window_is_open(s)


def test_dg_15_5_an_ability_without_a_target_opens_a_window():
    """DG-15.5: using an activated ability that chooses nothing may be answered."""
    s = _answerable(SCRIBE)
    put(s, 0, "U-SC", "d2")
    hand = len(s.hand[0])
    play(s, "use d2 1")
    assert len(s.hand[0]) == hand + 1
    _window_is_open(s)


def test_dg_15_5_a_talent_or_glyph_without_a_target_opens_a_window():
    """DG-15.5: a talent that affects all friendly units, and a glyph that draws, may be answered."""
    s = _answerable(RALLY)
    give(s, 0, "T-RA")
    play(s, "play T-RA")
    assert s.units[s.board[6]].atk == 2
    _window_is_open(s)
    s = _answerable(RUNE)
    give(s, 0, "G-RU")
    play(s, "play G-RU")
    _window_is_open(s)
