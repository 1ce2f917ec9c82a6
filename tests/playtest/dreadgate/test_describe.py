"""The describer: actions and refusals in words, with card names, the acting player and the rule."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playtest.dreadgate import (
    IllegalAction,
    describe_action,
    describe_log,
    describe_refusal,
    hidden_from,
    new_game,
    parse_action,
)
from playtest.dreadgate.actions import DEPLOY, DRAW, END, KEEP, MULLIGAN
from playtest.dreadgate.board import parse_cell

from .factories import FILLER, ability, end_turn, game, give, item, put, talent, unit
from .test_properties import FORMATS, SETTINGS, play_random, start

PAGE = replace(unit("U-PAGE", 2, 1, 1, 1, 1), name="Ardent Page")
KNIGHT = replace(unit("U-KNIGHT", 4, 3, 1, 1, 1), name="Ardent Knight")
GOLEM = replace(unit("U-GOLEM", 5, 1, 3, 1, 1), name="Iron Golem")
GIANT = replace(unit("U-GIANT", 9, 5, 5, 1, 1), name="Stone Giant")
SWORD = replace(item("I-SWORD", ability("equipped", {"op": "modify", "stat": "attack", "amount": 1,
                                                     "duration": "while_source", "target": {"select": "bearer"}})),
                name="Short Sword")  # fmt: skip
BOLT = replace(talent("T-BOLT", ability("play", {"op": "damage", "amount": 1,
                                                 "target": {"select": "chosen", "side": "enemy"}}), cost=1),
               name="Spark")  # fmt: skip


def action(s, text):
    return parse_action(s, text)


def test_an_action_names_the_cards_and_the_player_as_the_viewer_sees_them():
    s = game(PAGE, KNIGHT, GOLEM)  # South (seat 0) is on turn
    give(s, 0, "U-PAGE")
    deploy = (DEPLOY, s.by_code["U-PAGE"], parse_cell("a1"))
    assert describe_action(s, deploy, viewer=0) == "You deploy Ardent Page on a1"
    assert describe_action(s, deploy, viewer=1) == "The opponent deploys Ardent Page on a1"
    assert describe_action(s, deploy, viewer=-1) == "South deploys Ardent Page on a1"
    put(s, 0, "U-KNIGHT", "b2")
    put(s, 1, "U-GOLEM", "b3")
    attack = action(s, "attack b2 b3")
    assert describe_action(s, attack, viewer=1) == "The opponent attacks Iron Golem with Ardent Knight"
    assert describe_action(s, attack, viewer=0) == "You attack Iron Golem with Ardent Knight"
    assert describe_action(s, action(s, "move b2-c2"), viewer=0) == "You move Ardent Knight from b2 to c2"
    assert describe_action(s, (END, 0, 0), viewer=0) == "You end your turn"
    assert describe_action(s, (END, 0, 0), viewer=1) == "The opponent ends their turn"
    assert describe_action(s, (DRAW, 0, 0), viewer=-1) == "South draws a card"


def test_cards_from_the_hand_items_and_talents_are_named_too():
    s = game(KNIGHT, GOLEM, SWORD, BOLT)
    put(s, 0, "U-KNIGHT", "b2")
    put(s, 1, "U-GOLEM", "b4")
    give(s, 0, "I-SWORD")
    give(s, 0, "T-BOLT")
    assert describe_action(s, action(s, "equip I-SWORD b2"), 0) == "You equip Ardent Knight with Short Sword"
    assert describe_action(s, action(s, "play T-BOLT"), 1) == "The opponent plays Spark"
    assert describe_action(s, action(s, "recycle T-BOLT"), 0) == "You recycle Spark"


def test_the_mulligan_is_described_for_whoever_decides_it():
    s = game(PAGE, keep=False)
    assert describe_action(s, (KEEP, 0, 0), viewer=0) == "You keep your hand"
    assert describe_action(s, (MULLIGAN, 0, 0), viewer=1) == "The opponent takes a mulligan"


def test_a_refusal_names_the_cards_and_cites_its_rule():
    s = game(GIANT)
    give(s, 0, "U-GIANT")
    with pytest.raises(IllegalAction) as refused:
        s.apply((DEPLOY, s.by_code["U-GIANT"], parse_cell("a1")))
    assert describe_refusal(s, refused.value) == "Stone Giant costs 9; you have 4 points (rule DG-7.3)"
    with pytest.raises(IllegalAction) as refused:
        s.apply((DEPLOY, s.by_code["U-GIANT"], parse_cell("a3")))
    assert describe_refusal(s, refused.value) == "Units are deployed on your back rank (rule DG-2.4)"


def test_the_log_describes_each_action_as_it_was_played():
    s = new_game([[PAGE, *FILLER], [PAGE, *FILLER]], seed=3)
    for played in [(KEEP, 0, 0), (KEEP, 0, 0), (DRAW, 0, 0)]:
        s.apply(played)
    end_turn(s)
    assert describe_log(s, viewer=0) == ["You keep your hand", "The opponent keeps their hand", "You draw a card",
                                         "You end your turn"]  # fmt: skip
    assert describe_log(s, viewer=1)[2:] == ["The opponent draws a card", "The opponent ends their turn"]
    assert describe_log(s)[0] == "South keeps their hand"


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 300), viewer=st.integers(-1, 1))
def test_every_legal_action_is_said_in_words_without_collector_numbers(seed, fmt, steps, viewer):
    s = start(seed, fmt)
    play_random(s, random.Random(seed), steps)
    codes = re.compile("|".join(re.escape(code) for code in s.by_code))
    subject = {-1: ("South ", "North "), 0: ("You ", "The opponent "), 1: ("The opponent ", "You ")}[viewer]
    names = sorted({c.card.name for c in s.defs}, key=len, reverse=True)  # the test cards' names hold their codes

    def numbered(words: str) -> bool:
        for name in names:
            words = words.replace(name, "")
        return bool(codes.search(words)) or "#" in words or "?" in words

    for legal in s.legal_actions():
        words = describe_action(s, legal, viewer)
        assert words.startswith(subject[s.current_player]), words
        assert not numbered(words), words
        assert "a card" not in words or legal[0] == DRAW, words  # every card is named
        assert "a unit" not in words and "an ability" not in words, words
    log = describe_log(s, viewer)
    replay, unseen = s.replay(()), 0
    for action in s.history:  # DG-15.7: the passes of the other seat's windows are not said to a seat
        unseen += hidden_from(replay, action, viewer)
        replay.apply(action)
    assert len(log) == len(s.history) - unseen and not any(numbered(line) for line in log)
