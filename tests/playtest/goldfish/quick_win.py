"""A Quick-format deck that wins by the Beyond in a few turns, and the next step of a plan that wins with it
while it deploys, moves, attacks a training dummy, plays a talent and a glyph and equips an item on the way.
The browser test plays each step by clicking; the plan only decides which step comes next."""

from __future__ import annotations

import random

from cards.models import Card
from decks.cardinfo import Entry
from decks.selectors import card_info
from decks.services import deck_create
from playtest.dreadgate import State
from playtest.dreadgate.actions import (
    ATTACK,
    DEPLOY,
    DRAW,
    END,
    EQUIP,
    KEEP,
    MOVE,
    PASS,
    PLAY,
    STRIKE,
    TARGET_UNIT,
    Action,
)  # fmt: skip
from playtest.dreadgate.board import GATE, cell_name

# vitality 3 (a maneuver and a deploy fill a turn's 4 action points), forward maneuver 3, forward attack, range 3
RUNNERS = ["U-31133", "U-31233", "U-31533", "U-31933", "U-32033", "U-32233"]
TALENT, GLYPH, ITEM = "T-CHA-03", "G-ENG-02", "I-ENG-01"  # Sharpened Steel, Glyph of Overdrive, Repeating Crossbow


def quick_deck(owner):
    cards = {c.collector_number: c for c in Card.objects.filter(collector_number__in=[*RUNNERS, TALENT, GLYPH, ITEM])}
    entries = [Entry(card_info(cards[code]), 4) for code in [*RUNNERS, TALENT, GLYPH, ITEM]]
    return deck_create(owner=owner, name="Quick runners", format="quick", entries=entries)


GUARD_UNITS = ["U-31133", "U-31233", "U-31533", "U-31933", "U-32033", "U-32233", "U-31033"]
GUARD_INSTANTS = ["T-CHA-07", "T-DIV-08"]  # Feint and Penance: instants that weaken an enemy unit


def guarded_deck(owner):
    """Units and instants, to answer the AI in a response window (DG-15.5)."""
    codes = GUARD_UNITS + GUARD_INSTANTS
    cards = {c.collector_number: c for c in Card.objects.filter(collector_number__in=codes)}
    return deck_create(owner=owner, name="Guarded", format="quick",
                       entries=[Entry(card_info(cards[code]), 4) for code in codes])


def waiting_step(state: State) -> Action:
    """Keep, deploy what may be deployed, let the AI's actions stand, end the turn: waiting for a window."""
    legal = state.legal_actions()
    for kind in (KEEP, DEPLOY, PASS, END):
        action = next((a for a in legal if a[0] == kind), None)
        if action:
            return action
    return legal[0]


def advancing_step(state: State, rng: random.Random) -> Action:
    """Keep, deploy, let the AI's actions stand, and mostly march forward before ending the turn: units that
    come close enough for the AI to attack one of them with two at once (the defence step, DG-10.8)."""
    legal = state.legal_actions()
    for kind in (KEEP, DEPLOY, PASS):
        action = next((a for a in legal if a[0] == kind), None)
        if action:
            return action
    forward = [a for a in legal if a[0] == MOVE and a[2] != GATE]
    if forward and rng.random() < 0.7:
        ahead = 1 if state.current_player == 0 else -1  # South moves toward rank 5, North toward rank 1
        return max(forward, key=lambda a: int(cell_name(a[2])[1]) * ahead)
    return next((a for a in legal if a[0] == END), legal[0])


def attacking_step(state: State, rng: random.Random) -> Action:
    """Strike and attack whenever possible, otherwise march forward as `advancing_step` does."""
    legal = state.legal_actions()
    for kind in (STRIKE, ATTACK):
        action = next((a for a in legal if a[0] == kind), None)
        if action:
            return action
    return advancing_step(state, rng)


def dummy_cell(me: int) -> str:
    return "b5" if me == 0 else "b1"


def next_step(state: State, me: int, done: set[str]) -> Action:
    """The plan's next action (`done` gathers the kinds of steps already taken: attack, talent, glyph, item)."""
    legal = state.legal_actions()
    code = {a: state.defs[a[1]].code for a in legal if a[0] in (PLAY, EQUIP, DEPLOY)}
    home, lane = ("c1", "b1") if me == 0 else ("c5", "b5")
    mine = [u for u in state.units.values() if u.owner == me]

    def first(test) -> Action | None:
        return next((a for a in legal if test(a)), None)

    steps = [
        first(lambda a: a[0] == KEEP),
        first(lambda a: a[0] == TARGET_UNIT),
        first(lambda a: a[0] == STRIKE),
        "item" not in done and first(lambda a: a[0] == EQUIP and code[a] == ITEM and a[2] in state.units),
        "glyph" not in done and first(lambda a: a[0] == PLAY and code[a] == GLYPH),
        "talent" not in done and len(mine) >= 2 and first(lambda a: a[0] == PLAY and code[a] == TALENT),
        "attack" not in done and first(lambda a: a[0] == ATTACK),
        first(lambda a: a[0] == MOVE and a[2] == GATE),
        "attack" not in done and first(lambda a: a[0] == MOVE and cell_name(a[2]) == "b3"),
        "attack" not in done and not any(cell_name(u.cell)[0] == "b" for u in mine)
        and first(lambda a: a[0] == DEPLOY and cell_name(a[2]) == lane and code[a] in RUNNERS),
        first(lambda a: a[0] == DEPLOY and cell_name(a[2]) == home and code[a] in RUNNERS),
        not any(state.defs[state.inst[i].index].code in RUNNERS for i in state.hand[me])
        and first(lambda a: a[0] == DRAW),
        first(lambda a: a[0] == END),
    ]
    return next(step for step in steps if step)


def kind_of_step(state: State, action: Action) -> str:
    kind = action[0]
    if kind == ATTACK:
        return "attack"
    if kind == EQUIP:
        return "item"
    if kind == PLAY:
        return "glyph" if state.defs[action[1]].code == GLYPH else "talent"
    return ""
