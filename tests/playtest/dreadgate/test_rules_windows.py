"""Scenario tests for the response windows of DG-15.5: after which actions the opponent may answer.

Each test reaches its window through cards and actions, and each action here opens its window without a target
to choose (a chosen target leads to the window by another path, tested in test_rules_cards.py), so that a rule
broken for one kind of action fails here: `make mutate` checks it (tests/mutation/mutants.py).
"""

from __future__ import annotations

from playtest.dreadgate import hidden_from
from playtest.dreadgate.actions import PASS
from playtest.dreadgate.record import replay_frames
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


# --- DG-15.6: after a draw, at the start and at the end of a turn -----------------------------------


def test_dg_15_6_a_draw_opens_a_window_each_time():
    """DG-15.6: drawing is an action of the text; four draws, four windows while North can answer."""
    s = _answerable()
    s.tp[1] = 4
    for _ in range(4):
        play(s, "draw")
        _window_is_open(s)
    assert s.ap == 0


def test_dg_15_6_the_end_of_a_turn_opens_a_window_before_the_turn_lapses():
    """DG-15.6: South ends its turn; North may answer while South's end-of-turn effects still apply, and the
    turn ends when the window closes (after a pass, or after its last instant); undo takes it all back."""
    s = _answerable(RALLY)
    give(s, 0, "T-RA")
    s.tp[1] = 0  # no window after the talent
    play(s, "play T-RA")
    s.tp[1] = 1
    play(s, "end")
    pawn = s.units[s.board[6]]
    assert s.phase == RESPONSE_PHASE and s.current_player == 1 and s.turn == 1 and pawn.atk == 2
    play(s, "instant T-ZP")  # the one enemy unit: chosen at once; no talent point left, so the turn ends
    assert pawn.vit == 2 and pawn.atk == 1 and s.turn == 2 and s.active == 1 and s.phase == MAIN_PHASE
    s.undo()
    assert s.phase == RESPONSE_PHASE and s.turn == 1 and pawn.atk == 2 and pawn.vit == 3
    play(s, "pass")
    assert s.turn == 2 and s.active == 1 and s.current_player == 1


def test_dg_15_6_the_start_of_a_turn_opens_a_window_before_its_player_acts():
    """DG-15.6: North's turn begins (its points set); South, who can answer, decides first."""
    s = game(PAWN, ZAP)
    put(s, 1, "U-PW", "b4")
    give(s, 0, "T-ZP")
    s.tp[0] = 1
    play(s, "end")  # no window for North: it holds nothing
    assert s.turn == 2 and s.active == 1 and s.ap == 4
    assert s.phase == RESPONSE_PHASE and s.current_player == 0
    play(s, "pass")
    assert s.phase == MAIN_PHASE and s.current_player == 1


def test_dg_15_6_no_window_after_recycling():
    """DG-15.6: recycling is no action of the text (it costs no AP, DG-5.4)."""
    s = _answerable()
    give(s, 0, "U-F00")
    play(s, "recycle U-F00")
    assert s.phase == MAIN_PHASE and s.current_player == 0


# --- DG-15.7: a window is the responder's own ---------------------------------------------------------


def _draw_seen_by(viewer: str, tp: int):
    """South draws with North holding ZAP and `tp` talent points (North passes any window): the frames of it."""
    s = _answerable()
    s.tp[1] = tp
    start = s.copy()
    play(s, "draw")
    if s.phase == RESPONSE_PHASE:
        assert hidden_from(s, (PASS, 0, 0), 0) and not hidden_from(s, (PASS, 0, 0), 1)
        assert not hidden_from(s, (PASS, 0, 0), -1)
        play(s, "pass")
    frames, refused = replay_frames(start, s.history[len(start.history):])
    assert refused is None
    return [f[viewer] for f in frames[1:]]


def test_dg_15_7_a_window_passed_reads_to_the_other_seat_as_no_window():
    """DG-15.7: South draws; North, who holds an instant, passes its window, or has no talent point and gets none.
    South's words and views read the same either way (the pass is not said to it, and while the window is open
    South sees play as before it opened); North's read the pass, and so do every card's."""
    passed, none = _draw_seen_by("0", tp=1), _draw_seen_by("0", tp=0)
    assert [f["said"] for f in passed] == ["You draw a card", None]
    assert [f["said"] for f in none] == ["You draw a card"]
    assert passed[0]["seen"] == passed[1]["seen"] == none[0]["seen"] | {"players": passed[0]["seen"]["players"]}
    assert (passed[0]["seen"]["phase"], passed[0]["seen"]["current_player"]) == ("main", 0)
    north, every = _draw_seen_by("1", tp=1), _draw_seen_by("all", tp=1)
    assert north[0]["seen"]["phase"] == "response" and north[0]["seen"]["current_player"] == 1
    assert north[1]["said"] == "You let it stand, without an instant"
    assert every[1]["said"] == "North lets it stand, without an instant"
