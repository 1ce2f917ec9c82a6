"""Actions and refusals in words, for a person watching the game: card names, the acting player, the rule.

    describe_action(state, (DEPLOY, d, cell), viewer=0)   # "You deploy Ardent Page on a5"
    describe_action(state, (ATTACK, a, b), viewer=0)      # "The opponent attacks Iron Golem with Ardent Knight"
    describe_refusal(state, refused)                      # "Ardent Page costs 5; you have 3 points (rule DG-7.3)"
    describe_log(state, viewer)                           # every action of the game so far, as it was played
    hidden_from(state, (PASS, 0, 0), viewer=0)            # a pass the viewer is not shown (DG-15.7)

An action is described against the state it is played in (before `apply`). The viewer is the seat watching:
its own actions read "You ...", the other seat's "The opponent ..."; a spectator (-1, the replay viewer) reads
"South ..." and "North ...". Pure functions of the state; nothing here changes it.
"""

from __future__ import annotations

import re

from .actions import (
    ATTACK, DEFEND, DEPLOY, DISCARD, DRAW, END, EQUIP, FLY, GROUND, INSTANT, KEEP, MOVE, MULLIGAN, NO_BEARER, PASS,
    PLAY, RECYCLE, STRIKE, TARGET_DIR, TARGET_DIST, TARGET_UNIT, USE, Action, IllegalAction,
)  # fmt: skip
from .board import BACK_RANK, DIRECTION_NAMES, GATE, cell_name
from .state import State
from .zones import RESPONSE_PHASE, TACTICAL, Game

SEATS = ("South", "North")


class _Actor:
    """The acting player as the viewer names them, with the verb forms that go with that name."""

    __slots__ = ("seat", "you", "name")

    def __init__(self, seat: int, viewer: int):
        self.seat = seat
        self.you = seat == viewer
        if self.you:
            self.name = "You"
        elif viewer in (0, 1):
            self.name = "The opponent"
        else:
            self.name = SEATS[seat] if seat in (0, 1) else "Nobody"

    def says(self, verb: str, rest: str = "") -> str:
        """'You deploy ...' or 'The opponent deploys ...'."""
        if not self.you:
            verb = _third_person(verb)
        return f"{self.name} {verb}{' ' + rest if rest else ''}"

    @property
    def their(self) -> str:
        return "your" if self.you else "their"


def _third_person(verb: str) -> str:
    head, _, tail = verb.partition(" ")
    if head.endswith(("s", "sh", "ch")):
        head += "es"
    else:
        head += "s"
    return f"{head} {tail}" if tail else head


def _whose(seat: int, viewer: int) -> str:
    if seat == viewer:
        return "your"
    return "the opponent's" if viewer in (0, 1) else f"{SEATS[seat]}'s"


def _card(g: Game, d: int) -> str:
    return g.defs[d].card.name if 0 <= d < len(g.defs) else "a card"


def _unit(g: Game, iid: int) -> str:
    u = g.units.get(iid)
    return u.c.card.name if u is not None else "a unit"


def describe_action(state: Game, action: Action, viewer: int = -1) -> str:
    """The action in words, for `viewer` (0 or 1; -1 for a spectator), as it is played in `state`."""
    kind, a, b = action
    who = _Actor(state.current_player, viewer)
    g = state
    if kind == END:
        return who.says("end", f"{who.their} turn")
    if kind == DRAW:
        return who.says("draw", "a card")
    if kind == DEPLOY:
        return who.says("deploy", f"{_card(g, a)} on {cell_name(b)}")
    if kind == RECYCLE:
        return who.says("recycle", _card(g, a))
    if kind == MOVE:
        u = g.units.get(a)
        start = f" from {cell_name(u.cell)}" if u is not None else ""
        if b == GATE and g.fmt != TACTICAL:
            return who.says("move", f"{_unit(g, a)}{start} into the Gateway")
        there = g.board[b] if 0 <= b < len(g.board) else -1
        onto = f", onto {_unit(g, there)}" if there >= 0 and there != a else ""
        return who.says("move", f"{_unit(g, a)}{start} to {cell_name(b)}{onto}")
    if kind == ATTACK:
        return who.says("attack", f"{_unit(g, b)} with {_unit(g, a)}")
    if kind == STRIKE:
        target = g.combat[0] if g.combat is not None else -1
        return who.says("strike", _unit(g, target))
    if kind == DEFEND:
        points = "defense point" if b == 1 else "defense points"
        return who.says("put", f"{b} {points} against {_unit(g, a)}")
    if kind == PASS:
        if g.phase == RESPONSE_PHASE:
            return who.says("let", "it stand, without an instant")  # DG-15.5
        return who.says("pass")
    if kind == EQUIP:
        c = g.defs[a] if 0 <= a < len(g.defs) else None
        if b != NO_BEARER:
            return who.says("equip", f"{_unit(g, b)} with {_card(g, a)}")
        if c is not None and c.consumable:
            return who.says("use", _card(g, a))
        return who.says("put", f"{_card(g, a)} on {who.their} sideline")
    if kind == PLAY:
        return who.says("play", _card(g, a))
    if kind == INSTANT:
        return who.says("play", f"{_card(g, a)} as an instant")
    if kind == USE:
        return who.says("use", _ability(g, a, b))
    if kind == GROUND:
        return who.says("ground", _unit(g, a))
    if kind == FLY:
        return who.says("take", f"{_unit(g, a)} into the air")
    if kind == TARGET_UNIT:
        u = g.units.get(a)
        where = f" on {cell_name(u.cell)}" if u is not None else ""
        return who.says("target", f"{_unit(g, a)}{where}")
    if kind == TARGET_DIR:
        return who.says("choose", f"the direction {DIRECTION_NAMES[a] if 0 <= a < 8 else '?'}")
    if kind == TARGET_DIST:
        return who.says("choose", f"to move it {a} cell{'' if a == 1 else 's'}")
    if kind == DISCARD:
        victim = g.discards[0][1] if g.discards else who.seat
        if victim == who.seat:
            return who.says("discard", _card(g, a))
        return who.says("discard", f"{_card(g, a)} from {_whose(victim, viewer)} hand")
    if kind == KEEP:
        return who.says("keep", f"{who.their} hand")
    if kind == MULLIGAN:
        return who.says("take", "a mulligan")
    return who.says("take", "an action the rules do not know")


def _ability(g: Game, src: int, idx: int) -> str:
    c = g.inst[src] if 0 <= src < len(g.inst) else None
    if c is None or not 0 <= idx < len(c.abilities):
        return "an ability"
    name = c.abilities[idx].get("name") or f"ability {idx + 1}"
    return f"{c.card.name}'s {name}"


_CODES: dict[int, tuple[dict[str, int], re.Pattern[str] | None]] = {}


def _codes(g: Game) -> re.Pattern[str] | None:
    """A pattern of the game's collector numbers (cached per card table)."""
    hit = _CODES.get(id(g.by_code))
    if hit is None or hit[0] is not g.by_code:
        if len(_CODES) > 256:
            _CODES.clear()
        codes = sorted(g.by_code, key=len, reverse=True)
        pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, codes)) + r")(?![\w-])") if codes else None
        hit = _CODES[id(g.by_code)] = (g.by_code, pattern)
    return hit[1]


def refusal_words(state: Game, refused: IllegalAction) -> str:
    """The refusal's message with the cards by name, as a sentence; without the rule (for a page that links it)."""
    pattern = _codes(state)
    message = refused.message
    if pattern is not None:
        message = pattern.sub(lambda m: _card(state, state.by_code[m.group(1)]), message)
    return f"{message[:1].upper()}{message[1:]}"


def describe_refusal(state: Game, refused: IllegalAction) -> str:
    """The refusal in words: the cards by name, then the rule it cites ("... (rule DG-7.3)")."""
    return f"{refusal_words(state, refused)} (rule {refused.rule})"


def natural_play(state: State, seat: int, card: int) -> Action:
    """The action that would play a hand card (its instance index): deploy it, play it, or equip it."""
    c = state.inst[card]
    if c.kind in ("unit", "legend"):
        free = [cell for cell in BACK_RANK[seat] if state.board[cell] < 0]
        return (DEPLOY, c.index, free[0] if free else BACK_RANK[seat][0])
    if c.kind == "item" and (c.consumable or c.battlefield_item):
        return (EQUIP, c.index, NO_BEARER)  # played without a bearer (DG-14.2, DG-14.3): a refusal is its target's
    if c.kind == "item":
        bearers = [u.iid for u in state.units.values() if u.owner == seat]
        return (EQUIP, c.index, bearers[0] if bearers else NO_BEARER)
    return (PLAY, c.index, 0)  # on its own turn a seat plays an instant like any talent, for AP (DG-15.3)


def why_not_played(state: State, seat: int, card: int) -> str:
    """Why the rules refuse to play a hand card now, in words with the rule; "" when it can be played after all.
    The state is left as it was."""
    try:
        state.apply(natural_play(state, seat, card))
    except IllegalAction as refused:
        return describe_refusal(state, refused)
    state.undo()
    return ""


def hidden_from(state: Game, action: Action, viewer: int) -> bool:
    """Whether the seat `viewer` is not shown `action`, played in `state`: a pass in a response window offered to
    the other seat, which would tell that it held an instant it could play (DG-15.7)."""
    return action[0] == PASS and state.phase == RESPONSE_PHASE and viewer in (0, 1) and state.decider != viewer


def describe_log(state: State, viewer: int = -1) -> list[str]:
    """The game's actions so far in words, each described as it was played, but those hidden from the viewer."""
    fresh = state.replay(())
    out = []
    for action in state.history:
        if not hidden_from(fresh, action, viewer):
            out.append(describe_action(fresh, action, viewer))
        fresh.apply(action)
    return out
