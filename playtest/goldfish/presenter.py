"""What the goldfish table page shows: the board from the player's side, the hand, and every legal
action, both as a complete list and as targets on the board for the selected card or unit."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from playtest.dreadgate import State, describe_log
from playtest.dreadgate.actions import ATTACK, DEPLOY, EQUIP, MOVE, Action
from playtest.dreadgate.board import cell_name
from playtest.dreadgate.notation import format_action
from playtest.dreadgate.state import RESPONSE_PHASE
from playtest.goldfish.board import game_view
from playtest.goldfish.services import human_seat

HAND_KINDS = {DEPLOY, EQUIP}
UNIT_KINDS = {MOVE, ATTACK}


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


def _target_cell(state: State, action: Action) -> str | None:
    kind, a, b = action
    if kind in (DEPLOY, MOVE):
        return cell_name(b)
    if kind in (ATTACK, EQUIP) and b in state.units:
        return cell_name(state.units[b].cell)
    return None


def _choice(state: State, action: Action, names: dict[str, str]) -> dict[str, Any]:
    """An action as a form value, its notation, and a label that names cards instead of numbering them."""
    text = format_action(state, action)
    label = " ".join(names.get(word, word) for word in text.split(" "))
    return {"value": encode(action), "text": text, "label": label, "verb": text.split(" ", 1)[0], "action": action}


def table_view(state: State, names: dict[str, str], selection: str = "", *,
               describe: Callable[..., list[str]] = describe_log) -> dict[str, Any]:
    """`describe` gives the log in words by the rules the table plays under (RV-5)."""
    me = human_seat(state)
    view = game_view(state, names, viewer=me)
    yours = not state.is_over() and state.current_player == me
    legal = state.legal_actions() if yours else []
    choices = [_choice(state, a, names) for a in legal]
    hand_counts = Counter(state.inst[iid].index for iid in state.hand[me])
    hand = [{"d": d, "name": state.defs[d].card.name, "code": state.defs[d].code, "count": n,
             "selectable": any(c["action"][0] in HAND_KINDS and c["action"][1] == d for c in choices)}
            for d, n in sorted(hand_counts.items(), key=lambda kv: state.defs[kv[0]].card.name)]
    selectable_units = {u.iid for u in state.units.values() if u.owner == me
                        and any(c["action"][0] in UNIT_KINDS and c["action"][1] == u.iid for c in choices)}
    kinds = HAND_KINDS if selection.startswith("h") else UNIT_KINDS if selection.startswith("u") else set()
    try:
        selected = int(selection[1:]) if kinds else None
    except ValueError:
        selected, kinds = None, set()
    targets: dict[str, list[dict]] = {}
    for choice in choices:
        kind, a, _ = choice["action"]
        if kind in kinds and a == selected:
            cell = _target_cell(state, choice["action"])
            if cell:
                targets.setdefault(cell, []).append(choice)
    iid_at = {cell_name(u.cell): u.iid for u in state.units.values()}
    for row in view["grid"]:
        for cell in row:
            cell["targets"] = targets.get(cell["name"], [])
            iid = iid_at.get(cell["name"])
            cell["select"] = f"u{iid}" if iid in selectable_units else ""
            cell["selected"] = bool(selected is not None and selection.startswith("u") and iid == selected)
    for card in hand:
        card["selected"] = selection == f"h{card['d']}"
    view.update({
        "hand_total": sum(hand_counts.values()), "log": describe(state, viewer=me),
        "me": me, "me_name": "South" if me == 0 else "North", "yours": yours, "choices": choices,
        "hand": hand, "selection": selection if selected is not None else "",
        "selected_name": (state.defs[selected].card.name if selection.startswith("h") and selected in hand_counts
                          else state.units[selected].c.card.name if selected in state.units else ""),
        "ap": state.ap,
        # DG-15.5: the opponent acted and the person may answer with an instant (paid in talent points) or pass
        "window": yours and state.phase == RESPONSE_PHASE, "talent_points": state.tp[me],
    })
    return view
