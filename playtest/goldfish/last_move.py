"""The opponent's last action, as the table shows it: the cells it touched, each with its part (where a unit came
from, where it went to, the target of an attack or a card), and the action in words.

Read from the game's history, replayed: each action is looked at in the position it was played in. The last run of
the opponent's actions counts; within it the latest one that touches the board is highlighted and said (an "end its
turn" touches none); a run that touches no cell is said by its latest action. The same pass tells whether the player
on turn has acted in it yet: a response window before they have is the one at the start of the turn (DG-15.6); and
gives the log as the person reads it and which actions they were shown (DG-15.7), so that a table's page replays its
game once for all of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from playtest.dreadgate import State, describe_action, hidden_from
from playtest.dreadgate.actions import (
    ATTACK,
    DEFEND,
    DEPLOY,
    EQUIP,
    FLY,
    GROUND,
    MOVE,
    STRIKE,
    TARGET_UNIT,
    USE,
    Action,
)
from playtest.dreadgate.board import cell_name

# The parts a cell plays in an action, in the order a cell that plays several names them
PARTS = ("from", "to", "target")
PART_WORDS = {"from": "it came from here", "to": "it went here", "target": "its target"}


@dataclass(frozen=True, slots=True)
class LastMove:
    words: str  # the action in words ("The opponent attacks …")
    cells: dict[str, tuple[str, ...]] = field(default_factory=dict)  # cell name -> its parts (PARTS order)


def action_cells(state: State, action: Action) -> dict[str, set[str]]:
    """The cells `action` touches, played in `state` (before it is applied), by the part each plays."""
    kind, a, b = action
    parts: dict[str, set[str]] = {}

    def mark(iid_or_cell: int | None, part: str, *, unit: bool = True) -> None:
        if unit:
            found = state.units.get(iid_or_cell) if iid_or_cell is not None else None
            if found is None:
                return
            iid_or_cell = found.cell
        if iid_or_cell is not None and iid_or_cell >= 0:
            parts.setdefault(cell_name(iid_or_cell), set()).add(part)

    if kind == DEPLOY:
        mark(b, "to", unit=False)
    elif kind == MOVE:
        mark(a, "from")
        mark(b, "to", unit=False)
    elif kind == ATTACK:
        mark(a, "from")
        mark(b, "target")
    elif kind == STRIKE and state.combat is not None:
        for attacker, _ in state.combat[1]:
            mark(attacker, "from")
        mark(state.combat[0], "target")
    elif kind == EQUIP:
        mark(b, "target")
    elif kind in (TARGET_UNIT, DEFEND):
        mark(a, "target")
    elif kind in (USE, FLY, GROUND):
        mark(a, "from")
    return parts


def _moved(before: dict[int, int], state: State) -> dict[str, set[str]]:
    """Units an action moved by its effect (pushed, pulled, swapped): where each came from and went to."""
    parts: dict[str, set[str]] = {}
    for iid, unit in state.units.items():
        was = before.get(iid)
        if was is not None and was != unit.cell:
            parts.setdefault(cell_name(was), set()).add("from")
            parts.setdefault(cell_name(unit.cell), set()).add("to")
    return parts


@dataclass(frozen=True, slots=True)
class PlayRead:
    last_move: LastMove | None  # the opponent's last action, as opponent_last_move says it
    turn_untouched: bool  # the player on turn has taken no action in this turn yet (their turn has just begun)
    log: tuple[str, ...] = ()  # the actions the person was shown, in words (describe_log's)
    seen: tuple[bool, ...] = ()  # per action: shown to the person (not a pass they may not see, DG-15.7)
    theirs: tuple[bool, ...] = ()  # per action: the opponent's


def opponent_last_move(start: State, actions: Sequence[Action], me: int) -> LastMove | None:
    """The opponent's last action among `actions`, played from the position `start` (changed: pass a replay or a
    copy), as the person in seat `me` sees it; None before the opponent has acted. A pass the person is not shown
    (a window of the opponent's own, DG-15.7) counts as not played: it is neither marked nor said."""
    return read_play(start, actions, me).last_move


def read_play(start: State, actions: Sequence[Action], me: int) -> PlayRead:
    """The opponent's last action (opponent_last_move), whether the player on turn has acted in the turn `actions`
    end in, the log and which actions the person was shown, in one replay of them."""
    words, latest = "", ""
    cells: dict[str, set[str]] = {}
    running = False  # inside a run of the opponent's actions
    acted_in = -1  # the last turn in which its player on turn took an action
    log: list[str] = []
    seen: list[bool] = []
    theirs: list[bool] = []
    for action in actions:
        if start.current_player == start.active:
            acted_in = start.turn
        mine, hidden = start.current_player == me, hidden_from(start, action, me)
        seen.append(not hidden)
        theirs.append(not mine)
        if mine or hidden:
            if mine:
                running = False  # the person acted: the opponent's next action starts a new run
            if not hidden:
                log.append(describe_action(start, action, viewer=me))
            start.apply(action)  # a hidden pass: as if not played, in no run
            continue
        if not running:
            running, words, cells = True, "", {}  # a new run: the one before is no longer the last
        latest = describe_action(start, action, viewer=me)
        log.append(latest)
        touched = action_cells(start, action)
        before = {iid: u.cell for iid, u in start.units.items()}
        start.apply(action)
        for name, parts in _moved(before, start).items():
            touched.setdefault(name, set()).update(parts)
        if touched:
            words, cells = latest, touched
    untouched = acted_in != start.turn
    said = (tuple(log), tuple(seen), tuple(theirs))
    if not latest:
        return PlayRead(None, untouched, *said)
    ordered = {name: tuple(p for p in PARTS if p in parts) for name, parts in cells.items()}
    return PlayRead(LastMove(words=words or latest, cells=ordered), untouched, *said)
