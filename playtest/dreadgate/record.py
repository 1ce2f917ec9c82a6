"""Serialisation (seed + actions, compact snapshot) and the game log, beside State."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import Action, IllegalAction
from .cards import CardDef
from .describe import describe_action, hidden_from
from .effects import refresh_statics
from .notation import format_action
from .state import State
from .zones import ENGINE_VERSION, FORMATS, Unit


class RecordError(ValueError):
    """A record or snapshot that can't be loaded (unknown card, other rules than these, bad shape)."""


def new_game(decks: Sequence[Sequence[CardDef | Mapping[str, Any]]], seed: int, fmt: str = "standard") -> State:
    """A game from two deck lists (CardDef or dicts with the Card model's field names) and a seed."""
    lists = [[c if isinstance(c, CardDef) else CardDef.from_dict(dict(c)) for c in deck] for deck in decks]
    return State(lists, seed, fmt)


def to_record(state: State) -> dict[str, Any]:
    """The game as seed plus actions: enough to replay it exactly with the same card definitions."""
    return {
        "engine": ENGINE_VERSION,
        "format": FORMATS[state.fmt],
        "seed": state.seed,
        "decks": [[c.collector_number for c in deck] for deck in state.deck_lists],
        "actions": [list(a) for a in state.history],
    }


def _decks(record: Mapping[str, Any], cards: Mapping[str, CardDef]) -> list[list[CardDef]]:
    try:
        return [[cards[code] for code in deck] for deck in record["decks"]]
    except KeyError as exc:
        raise RecordError(f"decks: unknown card {exc.args[0]!r}") from exc
    except TypeError as exc:
        raise RecordError("decks: must be two lists of collector numbers") from exc


def _these_rules(record: Mapping[str, Any]) -> None:
    """RecordError for a record of other rules: only these are played here; a stored game of other rules is shown
    from its frames (docs/rules.md, RV-2, RV-4), never replayed by these."""
    if record.get("engine") != ENGINE_VERSION:
        raise RecordError(f"engine: played under rules version {record.get('engine')!r}, not these rules "
                          f"({ENGINE_VERSION}): its stored frames show it")  # fmt: skip


def from_record(record: Mapping[str, Any], cards: Mapping[str, CardDef]) -> State:
    """The game a record of these rules holds, replayed (RecordError for a record of other rules)."""
    _these_rules(record)
    state = State(_decks(record, cards), record["seed"], record["format"])
    for i, action in enumerate(record["actions"]):
        try:
            state.apply(tuple(action))
        except Exception as exc:
            raise RecordError(f"actions[{i}]: {exc}") from exc
    return state


def game_log(state: State, viewer: int = -1) -> list[str]:
    """The game's actions in notation, each written as it was played; for a seat `viewer` (0, 1), those it was shown
    (DG-15.7), for a spectator (-1) all."""
    fresh = state.replay(())
    out = []
    for action in state.history:
        if not hidden_from(fresh, action, viewer):
            out.append(format_action(fresh, action))
        fresh.apply(action)
    return out


# --- frames: what each step showed ----------------------------------------------------------------

FRAME_VIEWERS = ("0", "1", "all")  # each seat's view (DG-2.6), and every card (shown once the game is over)


def seen(state: State, viewer: str) -> dict[str, Any]:
    """What `viewer` sees of the position: a seat's observation ("0", "1"), or "all": the spectator's with both
    hands. Without the engine version: that belongs to the record, not to what a step shows."""
    if viewer == "all":
        obs = state.observation(-1)
        for seat in (0, 1):
            obs["players"][seat]["hand"] = [state.inst[i].code for i in state.hand[seat]]
    else:
        obs = state.observation(int(viewer))
    obs.pop("engine", None)
    return obs


def replay_frames(start: State, actions: Sequence[Sequence[int]],
                  viewers: Sequence[str] = FRAME_VIEWERS) -> tuple[list[dict[str, Any]], int | None]:
    """The frames of `actions` played from `start` (changed in place), and the index of the first action these
    rules refuse (None if they take them all). Frame k is the position after k actions: per viewer, what it saw
    (`seen`) and the words of action k as it read them (`said`; None at the start, and where the viewer was not
    shown the action, DG-15.7)."""
    frames: list[dict[str, Any]] = [{v: {"seen": seen(start, v), "said": None} for v in viewers}]
    for index, raw in enumerate(actions):
        action: Action = (int(raw[0]), int(raw[1]), int(raw[2]))
        if action not in start.legal_actions():
            return frames, index
        said = {v: None if hidden_from(start, action, seat) else describe_action(start, action, seat)
                for v in viewers for seat in (-1 if v == "all" else int(v),)}
        try:
            start.apply(action)
        except IllegalAction:
            return frames, index
        frames.append({v: {"seen": seen(start, v), "said": said[v]} for v in viewers})
    return frames, None


def game_frames(state: State, viewers: Sequence[str] = FRAME_VIEWERS) -> list[dict[str, Any]]:
    """What each step of the game so far showed each viewer (replay_frames); store them with core.frames.pack."""
    return replay_frames(state.replay(()), state.history, viewers)[0]


def game_frames_from(state: State, step: int, viewers: Sequence[str] = FRAME_VIEWERS) -> list[dict[str, Any]]:
    """`game_frames(state)[step:]`, worked out from the position before the action that led to `step` (a frame says
    that action's words) rather than from the start: the steps a move added, for core.frames.extend."""
    if step <= 0:
        return game_frames(state, viewers)
    return replay_frames(state.replay(state.history[:step - 1]), state.history[step - 1:], viewers)[0][1:]


# --- snapshot -------------------------------------------------------------------------------

_SCALARS = ("rs", "turn", "active", "ap", "rp", "phase", "decider", "ending", "winner", "condition")
_LISTS = ("deck", "hand", "boneyard", "beyond", "sideline", "beyond_score", "bone_score", "tp", "ap_next", "infl",
          "mulled", "revealed", "return_phase", "discards")  # fmt: skip


def to_snapshot(state: State) -> dict[str, Any]:
    """The whole state as plain JSON data; from_snapshot gives back an equal state."""
    snap: dict[str, Any] = {
        "engine": ENGINE_VERSION,
        "format": FORMATS[state.fmt],
        "seed": state.seed,
        "decks": [[c.collector_number for c in deck] for deck in state.deck_lists],
    }
    for name in _SCALARS:
        snap[name] = getattr(state, name)
    for name in _LISTS:
        snap[name] = _plain(getattr(state, name))
    snap["units"] = [u.snapshot() for u in state.units.values()]  # in play order: it orders legal actions
    snap["side_until"] = sorted([k, v] for k, v in state.side_until.items())
    snap["used"] = sorted([list(x) for x in state.used])
    snap["combat"] = None if state.combat is None else [
        state.combat[0], [list(x) for x in state.combat[1]], sorted([k, v] for k, v in state.combat[2].items())
    ]  # fmt: skip
    snap["pending"] = _plain(state.pending)
    snap["history"] = [list(a) for a in state.history]
    return snap


def _plain(value: Any) -> Any:
    """Tuples become lists, so that a snapshot equals its JSON round trip."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def from_snapshot(snap: Mapping[str, Any], cards: Mapping[str, CardDef]) -> State:
    """The state a snapshot of these rules holds, like from_record."""
    _these_rules(snap)
    state = State(_decks(snap, cards), snap["seed"], snap["format"])
    try:
        for name in _SCALARS:
            setattr(state, name, snap[name])
        for name in _LISTS:
            setattr(state, name, [list(x) if isinstance(x, list) else x for x in snap[name]])
        state.units = {}
        state.board = [-1] * 25
        state.statics, state.users, state.item_bearer = set(), set(), {}
        for row in snap["units"]:
            iid, owner, cell, vit, flying, dep, moved, att, sw, stun, items, sub_by, subbing, mods, kwmods = row
            u = Unit(iid, owner, state.inst[iid], cell, dep)
            u.vit, u.flying, u.moved, u.attacked, u.switched, u.stun = vit, bool(flying), moved, att, sw, stun
            u.items, u.subdued_by, u.subduing = list(items), sub_by, subbing
            u.mods = [tuple(m) for m in mods]
            u.kwmods = [(b, bool(g), t) for b, g, t in kwmods]
            u.recalc()
            u.flying = bool(flying)
            state.units[iid] = u
            if subbing < 0:  # a subduing unit shares its cell without holding it (DG-12.2)
                state.board[cell] = iid
            for item in items:
                state.item_bearer[item] = iid
        for iid in list(state.units) + list(state.item_bearer) + state.sideline[0] + state.sideline[1]:
            c = state.inst[iid]
            if c.has_static:
                state.statics.add(iid)
            if c.has_use:
                state.users.add(iid)
        state.side_until = {k: v for k, v in snap["side_until"]}
        state.used = {tuple(x) for x in snap["used"]}
        combat = snap["combat"]
        state.combat = None if combat is None else [combat[0], [tuple(x) for x in combat[1]], dict(combat[2])]
        state.pending = snap["pending"]
        state.history = [tuple(a) for a in snap["history"]]
        state.static_live = True
        refresh_statics(state)
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise RecordError(f"snapshot: {exc}") from exc
    return state
