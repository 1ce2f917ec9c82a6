"""Records played under older rules (docs/rules.md, RV-1 to RV-6): replayed by their own rules, never raising."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate import ENGINE_VERSION, RecordError, from_record, from_snapshot, to_record, to_snapshot
from playtest.dreadgate.versions import engine_for, is_current

from . import older_rules
from .factories import FILLER


def cards():
    return {c.collector_number: c for c in FILLER}


def played(engine, seed=5, steps=40):
    s = engine.new_game([FILLER, FILLER], seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        s.apply(rnd.choice(s.legal_actions()))
    return s


def test_the_current_version_is_kept_and_plays_this_engine():
    import playtest.dreadgate as engine

    assert engine_for(ENGINE_VERSION) is engine and is_current(ENGINE_VERSION)
    assert engine_for("0.0.1") is None and engine_for(None) is None and not is_current("0.0.1")


def test_a_record_of_older_rules_the_app_keeps_replays_by_those_rules(monkeypatch):
    """RV-2, RV-4: the older rules deal seven cards; replayed by the current ones it would be another game."""
    older_rules.keep(monkeypatch)
    game = played(older_rules)
    record = older_rules.to_record(game)
    again = from_record(record, cards())
    assert isinstance(again, older_rules.OlderState)
    assert again.hand == game.hand and again.deck == game.deck and again.history == game.history
    opening = {**record, "actions": []}
    assert [len(hand) for hand in from_record(opening, cards()).hand] == [7, 7]
    assert [len(hand) for hand in from_record({**opening, "engine": ENGINE_VERSION}, cards()).hand] == [6, 6]


def test_a_record_of_rules_the_app_does_not_have_is_refused_by_name_not_replayed_by_other_rules():
    """RV-6: the engine says which version it lacks; the pages show that instead of an error."""
    record = {**to_record(played(older_rules.current)), "engine": "0.0.1"}
    with pytest.raises(RecordError, match="0.0.1"):
        from_record(record, cards())
    with pytest.raises(RecordError, match="0.0.1"):
        from_snapshot({**to_snapshot(played(older_rules.current)), "engine": "0.0.1"}, cards())


def test_a_record_of_the_current_rules_replays_as_before():
    game = played(older_rules.current, seed=9, steps=60)
    assert to_snapshot(from_record(to_record(game), cards())) == to_snapshot(game)


def test_the_rules_of_1_0_0_are_kept_frozen_and_replay_their_records():
    """RV-2: the first rules were frozen when 1.1.0 changed them; a 1.0.0 record replays by them, and that engine
    takes the current engine's card definitions (a goldfish table or a replay builds its decks with those)."""
    import playtest.older_rules.dreadgate_1_0_0 as first

    assert engine_for("1.0.0") is first and first.ENGINE_VERSION == "1.0.0" != ENGINE_VERSION
    assert not is_current("1.0.0")
    game = played(first, seed=3, steps=60)
    record = first.to_record(game)
    assert record["engine"] == "1.0.0"
    again = from_record(record, cards())
    assert isinstance(again, first.State) and not isinstance(again, type(played(older_rules.current, steps=0)))
    assert first.to_snapshot(again) == first.to_snapshot(game)
    assert from_snapshot(first.to_snapshot(game), cards()).history == game.history
    opening = {**record, "actions": [[18, 0, 0], [18, 0, 0]]}  # both keep: the first turn begins
    assert from_record(opening, cards()).ap == 3  # its DG-5.2
    assert from_record({**opening, "engine": ENGINE_VERSION}, cards()).ap == 4
