"""What the goldfish table page shows: the board from the player's side, the hand, and every legal
action, both as a complete list and as targets on the board for the selected card or unit.

Choosing goes by what a card player touches: a card in hand (its deploy cells, the units an item may equip,
or a menu to play or recycle it), a unit on the board (its moves and its attack targets, told apart by style
and icon, and a menu of its abilities), or, when the rules ask a question (a talent's target, the direction
and distance a unit is moved, the defence step), the answers straight on the board. Everything else is a
button of the turn bar.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from core.crafts import CRAFT_ORDER
from playtest.dreadgate import State, describe_action, format_action, why_not_played
from playtest.dreadgate.actions import (
    ATTACK,
    DEFEND,
    DEPLOY,
    EQUIP,
    FLY,
    GROUND,
    MOVE,
    PLAY,
    RECYCLE,
    TARGET_DIR,
    TARGET_DIST,
    TARGET_UNIT,
    USE,
    Action,
)
from playtest.dreadgate.board import cell_name, direction_between, turn_dir
from playtest.dreadgate.state import MULLIGAN_PHASE, RESPONSE_PHASE
from playtest.goldfish.board import CardFaces, game_view
from playtest.goldfish.last_move import PART_WORDS, PlayRead, read_play
from playtest.goldfish.services import human_seat

HAND_KINDS = {DEPLOY, EQUIP, PLAY, RECYCLE}  # a: the card's definition index (instants: the turn bar, at once)
UNIT_KINDS = {MOVE, ATTACK, USE, GROUND, FLY}  # a: the unit's instance id
# answers to a question of the rules, chosen on the board at once: a talent's target unit, or the direction or
# distance a unit is moved (DG-18.7), on the cell it points at
ANSWER_KINDS = {TARGET_UNIT, TARGET_DIR, TARGET_DIST}
# The defence step (DG-10.8): the defender picks an attacker on the board, then how much defense it gets.
PICK_KINDS = {DEFEND}  # a: the attacker's instance id
# The word on a lit cell where the notation's first word would not say it ("target n", "distance 2")
ANSWER_VERBS = {TARGET_DIR: "this way", TARGET_DIST: "stop here"}
# The style of a lit cell, by the action that lands there: each has its own outline and icon, not a colour alone.
TARGET_STYLES = {DEPLOY: "deploy", MOVE: "move", ATTACK: "attack", EQUIP: "equip", TARGET_UNIT: "aim",
                 TARGET_DIR: "move", TARGET_DIST: "move", DEFEND: "defend"}


def encode(action: Action) -> str:
    return ",".join(str(n) for n in action)


def decode(text: str) -> Action | None:
    """'k,a,b' from a form back to an action; None if it is not three integers."""
    parts = (text or "").split(",")
    if len(parts) != 3:
        return None
    try:
        kind, a, b = (int(p) for p in parts)
    except ValueError:
        return None
    return (kind, a, b)


def _target_cell(state: State, action: Action, answers: dict[Action, int]) -> str | None:
    """The cell an action lands on, if any; `answers` maps a move's direction or distance to its cell."""
    kind, a, b = action
    if kind in (DEPLOY, MOVE):
        return cell_name(b)
    if kind in (ATTACK, EQUIP) and b in state.units:
        return cell_name(state.units[b].cell)
    if kind == TARGET_UNIT and a in state.units:
        return cell_name(state.units[a].cell)
    if action in answers:
        return cell_name(answers[action])
    return None


def _choice(state: State, action: Action, me: int, turn: int = 0) -> dict[str, Any]:
    """An action as a form value, its notation, and its words from the engine's describer without the
    'You' ("Deploy Ardent Page on a5"); `turn`: where its arrow points (_arrow_turns)."""
    text = format_action(state, action)
    words = describe_action(state, action, viewer=me)
    label = words[4:5].upper() + words[5:] if words.startswith("You ") else words
    verb = ANSWER_VERBS.get(action[0]) or text.split(" ", 1)[0]
    return {"value": encode(action), "text": text, "label": label, "verb": verb, "turn": turn,
            "action": action, "style": TARGET_STYLES.get(action[0], "act"), "recycles": action[0] == RECYCLE}


def _arrow_turns(state: State, legal: list[Action], answers: dict[Action, int], me: int) -> dict[Action, int]:
    """Where the arrow of each move points, in eighths of a circle clockwise from forward (up on the person's
    board): a maneuver from its unit toward its cell; a direction of an effect's move is named from its
    chooser's side already (DG-18.7); its distances run along the line their cells make (there are two or more,
    or the rules would not ask)."""
    turns = {action: action[1] for action in answers if action[0] == TARGET_DIR}
    for action in legal:
        unit = state.units.get(action[1]) if action[0] == MOVE else None
        way = direction_between(unit.cell, action[2]) if unit is not None else None
        if way is not None:
            turns[action] = turn_dir(way, me)
    first, second = answers.get((TARGET_DIST, 1, 0)), answers.get((TARGET_DIST, 2, 0))
    way = direction_between(first, second) if first is not None and second is not None else None
    if way is not None:
        turns.update({action: turn_dir(way, me) for action in answers if action[0] == TARGET_DIST})
    return turns


def _owner_of_choice(state: State, action: Action, answers: dict[Action, int]) -> str:
    """What a choice belongs to on the page: 'h<d>' a hand card, 'u<iid>' a unit, 'board' an answer on the
    board, '' the turn bar."""
    kind, a, _ = action
    if kind in HAND_KINDS:
        return f"h{a}"
    if kind in UNIT_KINDS | PICK_KINDS and a in state.units:
        return f"u{a}"
    if kind in ANSWER_KINDS and _target_cell(state, action, answers):
        return "board"
    return ""


def _window(state: State, turn_untouched: bool) -> str:
    """The person's response window open now (DG-15.6), if any: "end" when the opponent has ended its turn, "start"
    when its turn has begun and it has not acted yet, "action" after one of its actions; "" for none."""
    if state.phase != RESPONSE_PHASE:
        return ""
    if state.ending:
        return "end"
    return "start" if turn_untouched else "action"


def ending_words(condition: str, won: bool | None) -> str:
    """How a game ended, in a sentence for its person (`won`: None for a draw), with the rule that ended it."""
    words = {
        "beyond": ("your units through the Gateway reached the win total" if won else
                   "the opponent's units through the Gateway reached the win total") + " (rule DG-1.2)",
        "boneyard": ("the opponent's killed units reached their boneyard total" if won else
                     "your killed units reached your boneyard total") + " (rule DG-1.6)",
        "simultaneous": "both players reached a win total by the same action (rule DG-1.7)",
        "turn limit": "the turn limit came with no winner (rule DG-1.8)",
        "turn limit: boneyard": "the turn limit came, and the boneyards decided it (rule DG-1.9)",
        "turn limit: battlefield": "the turn limit came, and the units on the battlefield decided it (rule DG-1.9)",
        "you conceded": "you conceded",
    }
    return words.get(condition, condition)


def table_view(state: State, faces: CardFaces, selection: str = "", *, watching: bool = False,
               conceded: bool = False, log: list[str] | None = None, play: PlayRead | None = None) -> dict[str, Any]:
    """`watching`: a past position, shown while the opponent's actions play out; nothing to choose in it.
    `conceded`: the person gave the game up (services.table_concede): it is over, the opponent the winner.
    `log`: the log's lines where the game has none to replay (a position set up by hand). `play`: the game read
    already (read_play of `state`'s whole history), not replayed again."""
    me = human_seat(state)
    view = game_view(state, faces, viewer=me)
    if conceded:
        view["winner"], view["condition"] = 1 - me, "you conceded"
    view["ending"] = ending_words(view["condition"], view["winner"] == me if view["winner"] >= 0 else None)
    yours = not watching and not conceded and not state.is_over() and state.current_player == me
    legal = state.legal_actions() if yours else []
    answers = state.answer_cells() if legal else {}
    turns = _arrow_turns(state, legal, answers, me)
    choices = [_choice(state, a, me, turns.get(a, 0)) for a in legal]

    def target_cell(action: Action) -> str | None:
        return _target_cell(state, action, answers)

    by_owner: dict[str, list[dict[str, Any]]] = {}
    for choice in choices:
        by_owner.setdefault(_owner_of_choice(state, choice["action"], answers), []).append(choice)
    if selection not in by_owner or selection == "board":
        selection = ""  # nothing of that card or unit may be done now (or it is gone): no selection
    hand_counts = Counter(state.inst[iid].index for iid in state.hand[me])
    hand = [{**faces.card(state.defs[d].code), "d": d, "count": n, "key": f"h{d}",
             "selectable": f"h{d}" in by_owner, "selected": selection == f"h{d}",
             # where the card may be dropped (a deploy cell, a unit to equip): "cell=value;..." for dragging
             "drops": ";".join(f"{cell}={c['value']}" for c in by_owner.get(f"h{d}", [])
                               if (cell := target_cell(c["action"])))}
            for d, n in sorted(hand_counts.items(), key=lambda kv: state.defs[kv[0]].card.name)]
    selected = by_owner.get(selection, []) if selection else []
    lit = [c for c in selected + by_owner.get("board", []) if target_cell(c["action"])]
    targets: dict[str, list[dict[str, Any]]] = {}
    for choice in lit:
        targets.setdefault(target_cell(choice["action"]) or "", []).append(choice)
    iid_at = {cell_name(u.cell): u.iid for u in state.units.values()}
    # the game replayed from its start; a position set up by hand (`log` given) has no history to replay
    if play is None and log is None:
        play = read_play(state.replay(()), state.history, me)
    last_move = play.last_move if play else None
    last_cells = last_move.cells if last_move else {}
    for row in view["grid"]:
        for cell in row:
            cell["last"] = [{"part": part, "words": PART_WORDS[part]} for part in last_cells.get(cell["name"], ())]
            cell["targets"] = targets.get(cell["name"], [])
            iid = iid_at.get(cell["name"])
            # a unit that is the one target on its cell is itself the thing clicked (equipped, aimed at, attacked),
            # so no button covers it; a cell with two choices keeps its buttons
            cell["unit_target"] = cell["targets"][0] if iid is not None and len(cell["targets"]) == 1 else None
            picks = {c["style"] for c in by_owner.get(f"u{iid}", []) if c["action"][0] in PICK_KINDS}
            cell["styles"] = sorted({c["style"] for c in cell["targets"]} | picks)
            cell["select"] = f"u{iid}" if f"u{iid}" in by_owner else ""
            cell["selected"] = bool(selection) and selection == f"u{iid}"
    selected_name = why_not = ""
    if selection.startswith("h"):
        selected_name = state.defs[int(selection[1:])].card.name
        if all(c["action"][0] == RECYCLE for c in selected):  # only recycled: say what keeps it from play
            d = int(selection[1:])
            why_not = why_not_played(state, me, next(i for i in state.hand[me] if state.inst[i].index == d))
    elif selection.startswith("u"):
        selected_name = state.units[int(selection[1:])].c.card.name
    asked = {kind for kind, _, _ in answers}
    if asked:  # the rules' question is a direction or a distance, not a target unit (DG-18.7)
        view["phase_words"] = "choosing a direction" if TARGET_DIR in asked else "choosing how far it moves"
    view.update({
        # the opponent's last action, highlighted on the board and said in words (a live region)
        "last_move": last_move and {"words": last_move.words, "cells": sorted(last_cells)},
        "hand_total": sum(hand_counts.values()), "log": list(play.log) if log is None else log,
        "me": me, "me_name": "South" if me == 0 else "North", "yours": yours, "choices": choices,
        "hand": hand, "selection": selection, "selected_name": selected_name, "why_not": why_not,
        # what the selection may do that lands on no cell: play a talent, recycle, use an ability, take flight
        "menu": [c for c in selected if not target_cell(c["action"])],
        "bar": by_owner.get("", []),
        "answering": bool(by_owner.get("board")) or any(c["action"][0] in PICK_KINDS for c in choices),
        # the action points left: the person's own, in their turn (a defence or an answer in the opponent's turn
        # spends none; the opening hand is before any)
        "ap": state.ap if state.active == me and state.phase != MULLIGAN_PHASE else None,
        # and the points that pay a cost before them, in their order (DG-7.3): influence by craft, then recycling
        # points; talent points, kept into the opponent's turn for instants (DG-5.6, DG-15.4)
        "influence": [(CRAFT_ORDER[i], n) for i, n in enumerate(state.infl) if n] if state.active == me else [],
        "rp": state.rp if state.active == me and state.phase != MULLIGAN_PHASE else 0,
        # DG-15.5: the person may answer with an instant (paid in talent points) or pass, in a window after the
        # opponent's action, at the start of its turn or at its end (DG-15.6): which one, so that the page says it
        "window": _window(state, play.turn_untouched if play else False) if yours else "",
        "talent_points": state.tp[me],
    })
    me_player = view["players"][me]
    view["you"], view["opponent"] = me_player, view["players"][1 - me]
    return view


def table_controls(view: dict[str, Any] | None, *, over: bool, undoable: bool, against_ai: bool) -> dict[str, bool]:
    """Which of the table's controls the game allows now (`over`: the game as it stands, not the step watched): a
    control the state does not allow is not shown. Once the game is over only "Play again", "Open the replay" and
    "New game" are left (the game-over panel)."""
    running = view is not None and not over
    return {
        "undo": running and undoable,  # DG-4.6: a finished game can't be undone
        "ai_turn": running and bool(view and view["yours"]),  # the person's decision, not a past step watched
        "dummy": running and not against_ai,
        "command": running,
        "choices": running,
        "replay_so_far": running,
        "concede": running,
    }
