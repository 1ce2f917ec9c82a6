"""Property tests: random legal play keeps every invariant; undo, replay and snapshots are exact."""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from playtest.dreadgate import (
    IllegalAction,
    format_action,
    from_record,
    from_snapshot,
    game_log,
    new_game,
    parse_action,
    to_record,
    to_snapshot,
)
from playtest.dreadgate.board import GATE
from playtest.dreadgate.cards import KW_AVIATION, Compiled
from playtest.dreadgate.rules import check
from playtest.dreadgate.state import OVER_PHASE, TACTICAL, Unit

from .factories import ability, gateway, rich_deck

FORMATS = st.sampled_from(["standard", "quick", "tactical"])
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=1)
def deck():
    gate = gateway(ability("static", {"op": "modify", "stat": "maneuver", "amount": 1, "duration": "while_source",
                                      "target": {"select": "all", "side": "friendly",
                                                 "filter": {"type": ["legend"]}}}))  # fmt: skip
    return rich_deck() + [gate]


def tactical_deck():
    return [c for c in deck() if c.type in ("unit", "item")]


def start(seed: int, fmt: str):
    d = tactical_deck() if fmt == "tactical" else deck()
    return new_game([d, d], seed, fmt)


def cards():
    return {c.collector_number: c for c in deck()}


def check_invariants(s) -> None:
    """Invariants of DG-1 to DG-18 that hold after every action."""
    # Every card is in exactly one place (DG-2.5).
    seen = []
    for p in (0, 1):
        seen += s.deck[p] + s.hand[p] + s.boneyard[p] + s.beyond[p] + s.sideline[p]
    for u in s.units.values():
        seen.append(u.iid)
        seen += u.items
    assert sorted(seen) == list(range(len(s.inst)))
    for cell, occ in enumerate(s.board):
        if occ >= 0:
            u = s.units[occ]
            assert u.cell == cell and u.subduing < 0
    for u in s.units.values():
        assert 1 <= u.vit <= u.c.vit  # DG-10.9: a unit at 0 is gone; DG-3.2: never above printed
        if u.subduing >= 0:  # DG-12.2: a subduer shares the cell of the unit it subdues
            o = s.units[u.subduing]
            assert o.cell == u.cell and o.subdued_by == u.iid and o.owner != u.owner and not o.flying
        else:
            assert s.board[u.cell] == u.iid
        if s.fmt != TACTICAL:
            assert u.cell != GATE  # DG-2.3
        assert not u.flying or u.kw & KW_AVIATION  # DG-11
        assert u.atk >= 0 and u.dfn >= 0 and u.rng >= 1 and u.mnv >= 0  # DG-3.2
    assert s.ap >= 0 and s.rp >= 0 and min(s.tp) >= 0  # DG-5.1
    for p in (0, 1):
        assert s.beyond_score[p] <= sum(s.inst[i].vit for i in s.beyond[p])  # DG-9.1
        assert s.bone_score[p] <= sum(s.inst[i].vit for i in s.boneyard[p] if s.inst[i].kind in ("unit", "legend"))
    assert s.turn <= 100  # DG-1.8
    if s.phase == OVER_PHASE:
        assert s.legal_actions() == [] and s.winner in (0, 1, 2)
    else:
        actions = s.legal_actions()
        assert actions, "a game that is not over always has an action"
        assert len(set(actions)) == len(actions)
        for a in actions:
            check(s, a)  # every listed action is accepted by the rules check


def play_random(s, rnd: random.Random, steps: int, every=None) -> None:
    for _ in range(steps):
        if s.is_over():
            return
        s.apply(rnd.choice(s.legal_actions()))
        if every:
            every(s)


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS)
def test_random_legal_play_never_breaks_an_invariant(seed, fmt):
    s = start(seed, fmt)
    check_invariants(s)
    play_random(s, random.Random(seed), 600, every=check_invariants)


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 300))
def test_undo_restores_the_exact_state(seed, fmt, steps):
    s = start(seed, fmt)
    rnd = random.Random(seed)
    play_random(s, rnd, steps)
    for _ in range(3):
        if s.is_over():
            break
        before = to_snapshot(s)
        action = rnd.choice(s.legal_actions())
        s.apply(action)
        assert s.undo() == action
        assert to_snapshot(s) == before
        s.apply(action)


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 400))
def test_replaying_seed_and_actions_reproduces_the_state(seed, fmt, steps):
    s = start(seed, fmt)
    play_random(s, random.Random(seed), steps)
    again = from_record(to_record(s), cards())
    assert to_snapshot(again) == to_snapshot(s)


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 400))
def test_snapshot_round_trips(seed, fmt, steps):
    s = start(seed, fmt)
    rnd = random.Random(seed)
    play_random(s, rnd, steps)
    snap = to_snapshot(s)
    assert json.loads(json.dumps(snap)) == snap  # plain JSON data
    loaded = from_snapshot(json.loads(json.dumps(snap)), cards())
    assert to_snapshot(loaded) == to_snapshot(s)
    assert loaded.legal_actions() == s.legal_actions()
    # and both continue identically
    tail = random.Random(seed + 1)
    for _ in range(40):
        if s.is_over():
            break
        action = tail.choice(s.legal_actions())
        s.apply(action)
        loaded.apply(action)
    assert to_snapshot(loaded) == to_snapshot(s)


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 300))
def test_notation_round_trips_for_every_legal_action(seed, fmt, steps):
    s = start(seed, fmt)
    play_random(s, random.Random(seed), steps)
    for action in s.legal_actions():
        assert parse_action(s, format_action(s, action)) == action


@SETTINGS
@given(seed=st.integers(0, 2**40), steps=st.integers(0, 200), kind=st.integers(0, 19), a=st.integers(-2, 140),
       b=st.integers(-2, 30))  # fmt: skip
def test_an_action_is_refused_exactly_when_it_is_not_legal(seed, steps, kind, a, b):
    s = start(seed, "standard")
    play_random(s, random.Random(seed), steps)
    action = (kind, a, b)
    before = to_snapshot(s)
    legal = action in set(s.legal_actions())
    try:
        s.apply(action)
        accepted = True
    except Exception as exc:
        assert type(exc).__name__ == "IllegalAction" and exc.rule.startswith("DG-")
        accepted = False
        assert to_snapshot(s) == before  # a refusal leaves the state unchanged
    assert accepted == legal


_WORDS = st.sampled_from(["move", "attack", "deploy", "use", "target", "equip", "defend", "fly", "ground", "play",
                          "instant", "discard", "recycle", "end", "draw", "keep", "strike", "pass"])  # fmt: skip
_TOKENS = st.one_of(st.text(max_size=8), st.sampled_from(["a1", "c3", "e5", "b2-b3", "c3.s", "c3.n", "U-F00",
                                                          "L-SOR-01", "I-ENG-03", "b2/I-ENG-01", "0", "1", "99",
                                                          "ne", "-", ".", "/"]))  # fmt: skip


@SETTINGS
@given(seed=st.integers(0, 2**40), steps=st.integers(0, 200), text=st.text(max_size=40),
       word=_WORDS, args=st.lists(_TOKENS, max_size=3))  # fmt: skip
def test_the_parser_raises_only_its_own_error(seed, steps, text, word, args):
    from playtest.dreadgate import NotationError

    s = start(seed, "standard")
    play_random(s, random.Random(seed), steps)
    for candidate in (text, " ".join([word, *args])):
        try:
            action = parse_action(s, candidate)
        except NotationError as exc:
            assert 0 <= exc.position <= len(candidate)
        else:
            assert isinstance(action, tuple) and len(action) == 3


@SETTINGS
@given(seed=st.integers(0, 2**40), steps=st.integers(0, 300), pick=st.integers(0, 10**6), field=st.integers(0, 2),
       delta=st.sampled_from([-2, -1, 1, 2, 5]))  # fmt: skip
def test_a_near_miss_of_a_legal_action_is_refused_unless_it_is_legal_too(seed, steps, pick, field, delta):
    """Shifting one part of a legal action gives an action that the rules check accepts iff it is listed."""
    s = start(seed, "standard")
    play_random(s, random.Random(seed), steps)
    if s.is_over():
        return
    actions = s.legal_actions()
    near = list(actions[pick % len(actions)])
    near[field] += delta
    near = tuple(near)
    before = to_snapshot(s)
    try:
        s.apply(near)
    except Exception as exc:
        assert type(exc).__name__ == "IllegalAction" and exc.rule.startswith("DG-"), repr(exc)
        assert near not in actions
        assert to_snapshot(s) == before
    else:
        assert near in actions


# --- undo and copy ---------------------------------------------------------------------------

_READ_ONLY = {"defs", "by_code", "inst", "owner_of", "gateway", "deck_lists"}  # card tables, shared by design
_CACHES = {"_legal", "_legal_undo", "_undo", "_j", "_stamp"}


def _plain_value(value):
    if isinstance(value, Unit):
        return ("unit", tuple(_plain_value(getattr(value, name)) for name in Unit.__slots__))
    if isinstance(value, Compiled):
        return ("card", value.code)
    if isinstance(value, dict):
        return ("dict", [(_plain_value(k), _plain_value(v)) for k, v in value.items()])  # order counts
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(_plain_value(v) for v in value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_plain_value(v) for v in value])
    return value


def full_state(s) -> dict:
    """Every part of a game that can change: each zone in order, every field of every unit, the scores, the
    random source, the history (the log), the pending choices; everything but caches and the card tables."""
    return {name: _plain_value(value) for name, value in vars(s).items() if name not in _READ_ONLY | _CACHES}


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 400), depth=st.integers(1, 12))
# A talent that adds influence, then a deploy that spends it: both undone must give the influence back as it was.
@example(seed=22879, fmt="standard", steps=150, depth=3)
def test_apply_then_undo_restores_every_part_of_the_state(seed, fmt, steps, depth):
    s = start(seed, fmt)
    rnd = random.Random(seed)
    play_random(s, rnd, steps)
    if s.is_over():
        return
    before = full_state(s)
    log = game_log(s)
    for action in s.legal_actions():  # every action the position allows, each taken back
        s.apply(action)
        assert s.undo() == action
        assert full_state(s) == before, format_action(s, action)
    played = []
    for _ in range(depth):  # several actions deep, then all taken back
        if s.is_over():
            break
        played.append(rnd.choice(s.legal_actions()))
        s.apply(played[-1])
    for action in reversed(played):
        assert s.undo() == action
    assert full_state(s) == before
    assert game_log(s) == log and s.rs == from_record(to_record(s), cards()).rs


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 400))
def test_play_after_an_undo_goes_on_as_if_the_action_had_never_been_played(seed, fmt, steps):
    s = start(seed, fmt)
    rnd = random.Random(seed)
    play_random(s, rnd, steps)
    if s.is_over():
        return
    fresh = from_record(to_record(s), cards())
    s.apply(rnd.choice(s.legal_actions()))
    s.undo()
    assert s.legal_actions() == fresh.legal_actions()
    tail = random.Random(seed + 1)
    for _ in range(60):
        if s.is_over():
            break
        action = tail.choice(s.legal_actions())
        s.apply(action)
        fresh.apply(action)
    assert full_state(s) == full_state(fresh)


def _mutable_parts(value, found, seen):
    """Every list, dict, set and unit reachable from value (by identity)."""
    if isinstance(value, (int, str, float, bool, type(None), Compiled)) or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, (list, dict, set, Unit)):
        found[id(value)] = value
    if isinstance(value, dict):
        for k, v in value.items():
            _mutable_parts(k, found, seen)
            _mutable_parts(v, found, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _mutable_parts(v, found, seen)
    elif isinstance(value, Unit):
        for name in Unit.__slots__:
            _mutable_parts(getattr(value, name), found, seen)


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 400))
def test_a_copy_is_equal_and_independent(seed, fmt, steps):
    s = start(seed, fmt)
    rnd = random.Random(seed)
    play_random(s, rnd, steps)
    c = s.copy()
    assert full_state(c) == full_state(s)
    assert c.legal_actions() == s.legal_actions()
    mine, theirs = {}, {}
    for name, value in vars(s).items():
        if name not in _READ_ONLY:
            _mutable_parts(value, mine, set())
    for name, value in vars(c).items():
        if name not in _READ_ONLY:
            _mutable_parts(value, theirs, set())
    assert not mine.keys() & theirs.keys(), "the copy shares a mutable part with the original"
    before = full_state(s)
    tail = random.Random(seed + 1)
    for _ in range(60):  # the copy plays on; the original does not move
        if c.is_over():
            break
        c.apply(tail.choice(c.legal_actions()))
    assert full_state(s) == before
    with pytest.raises(IllegalAction):  # a fresh copy takes back only what was applied to it
        s.copy().undo()
