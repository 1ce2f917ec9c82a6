"""Records of other rules (docs/rules.md, RV-1 to RV-6): the engine plays its own rules only. A record of another
version is refused by name, never replayed by these rules; a stored game of older rules is shown from its frames."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from playtest.dreadgate import ENGINE_VERSION, RecordError, from_record, from_snapshot, to_record, to_snapshot

from . import older_rules
from .factories import FILLER

ROOT = Path(__file__).resolve().parents[3]


def cards():
    return {c.collector_number: c for c in FILLER}


def played(engine, seed=5, steps=40):
    s = engine.new_game([FILLER, FILLER], seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        s.apply(rnd.choice(s.legal_actions()))
    return s


def test_a_record_of_other_rules_is_refused_by_name_not_replayed_by_these():
    """RV-2, RV-6: the engine says which version the record names; the pages show its frames instead."""
    older = older_rules.to_record(played(older_rules))
    with pytest.raises(RecordError, match="0.9.0-test"):
        from_record(older, cards())
    record = {**to_record(played(older_rules.current)), "engine": "1.0.0"}
    with pytest.raises(RecordError, match="1.0.0"):
        from_record(record, cards())
    with pytest.raises(RecordError, match="0.0.1"):
        from_snapshot({**to_snapshot(played(older_rules.current)), "engine": "0.0.1"}, cards())


def test_a_record_of_these_rules_replays_as_before():
    game = played(older_rules.current, seed=9, steps=60)
    assert to_record(game)["engine"] == ENGINE_VERSION
    assert to_snapshot(from_record(to_record(game), cards())) == to_snapshot(game)


def test_the_app_keeps_no_engine_of_older_rules():
    """RV-2: the frozen copy of the 1.0.0 rules went once the stored games had their frames (playtest 0011)."""
    assert importlib.util.find_spec("playtest.older_rules") is None
    assert not (ROOT / "playtest" / "dreadgate" / "versions.py").exists()
    engine = ROOT / "playtest" / "dreadgate"
    assert not [p.name for p in engine.glob("*.py") if "importlib" in p.read_text()]
