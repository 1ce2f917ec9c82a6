"""The text form of actions (DG-19.1): format an action against a state, parse text back into one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    ATTACK, DEFEND, DEPLOY, DISCARD, DRAW, END, EQUIP, FLY, GROUND, INSTANT, KEEP, MOVE, MULLIGAN, NO_BEARER, PASS,
    PLAY, RECYCLE, STRIKE, TARGET_DIR, TARGET_DIST, TARGET_UNIT, USE, Action,
)  # fmt: skip
from .board import DIRECTION_NAMES, SEAT_NAMES, cell_name, parse_cell

if TYPE_CHECKING:
    from .state import State

_WORDS = {END: "end", DRAW: "draw", STRIKE: "strike", PASS: "pass", KEEP: "keep", MULLIGAN: "mulligan"}
_BY_WORD = {v: k for k, v in _WORDS.items()}


# The longest part of a text an error repeats: a longer one is cut to its start, so that a long paste is not echoed
# back whole (the text itself stays where it was typed)
ECHO_MOST = 24


def _echo(tok: str) -> str:
    return tok if len(tok) <= ECHO_MOST else tok[:ECHO_MOST - 1] + "…"


class NotationError(ValueError):
    """Text that is not an action of this game; `position` is the offset of the offending part."""

    def __init__(self, message: str, position: int):
        self.message = message
        self.position = position
        super().__init__(f"{message} (at character {position + 1})")


def unit_ref(state: State, iid: int) -> str:
    u = state.units.get(iid)
    if u is None:
        return f"#{iid}"
    name = cell_name(u.cell)
    if u.subdued_by >= 0 or u.subduing >= 0:
        name += "." + SEAT_NAMES[u.owner]
    return name


def format_action(state: State, action: Action) -> str:
    kind, a, b = action
    if kind in _WORDS:
        return _WORDS[kind]
    code = state.defs[a].code if kind in (DEPLOY, RECYCLE, EQUIP, PLAY, INSTANT, DISCARD) else ""
    if kind == DEPLOY:
        return f"deploy {code} {cell_name(b)}"
    if kind == RECYCLE:
        return f"recycle {code}"
    if kind == MOVE:
        return f"move {unit_ref(state, a)}-{cell_name(b)}"
    if kind == ATTACK:
        return f"attack {unit_ref(state, a)} {unit_ref(state, b)}"
    if kind == DEFEND:
        return f"defend {unit_ref(state, a)} {b}"
    if kind == EQUIP:
        return f"equip {code}" if b == NO_BEARER else f"equip {code} {unit_ref(state, b)}"
    if kind == PLAY:
        return f"play {code}"
    if kind == INSTANT:
        return f"instant {code}"
    if kind == USE:
        if a in state.units:
            return f"use {unit_ref(state, a)} {b + 1}"
        bearer = state.item_bearer.get(a)
        item = state.inst[a].code
        if bearer is not None:
            return f"use {unit_ref(state, bearer)}/{item} {b + 1}"
        return f"use {item} {b + 1}"
    if kind == GROUND:
        return f"ground {unit_ref(state, a)}"
    if kind == FLY:
        return f"fly {unit_ref(state, a)}"
    if kind == TARGET_UNIT:
        return f"target {unit_ref(state, a)}"
    if kind == TARGET_DIR:
        return f"target {DIRECTION_NAMES[a]}"
    if kind == DISCARD:
        return f"discard {code}"
    if kind == TARGET_DIST:
        return f"distance {a}"
    return f"?{kind}"


def parse_action(state: State, text: str) -> Action:
    """The action a text names, for the player who decides now. Raises only NotationError."""
    if not isinstance(text, str):
        raise NotationError("an action is text", 0)
    tokens: list[tuple[str, int]] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        j = i
        while j < len(text) and not text[j].isspace():
            j += 1
        tokens.append((text[i:j], i))
        i = j
    if not tokens:
        raise NotationError("empty action", 0)
    word, pos = tokens[0]
    word = word.lower()
    args = tokens[1:]
    p = state.current_player

    def need(n: int, usage: str) -> None:
        if len(args) != n:
            where = args[n][1] if len(args) > n else len(text)
            raise NotationError(f"'{_echo(word)}' is written: {usage}", where)

    if word in _BY_WORD:
        need(0, word)
        return (_BY_WORD[word], 0, 0)
    if word == "deploy":
        need(2, "deploy <card> <cell>")
        return (DEPLOY, _card(state, *args[0]), _cell(*args[1]))
    if word in ("recycle", "play", "instant", "discard"):
        need(1, f"{word} <card>")
        kind = {"recycle": RECYCLE, "play": PLAY, "instant": INSTANT, "discard": DISCARD}[word]
        return (kind, _card(state, *args[0]), 0)
    if word == "move":
        need(1, "move <from>-<to>")
        tok, at = args[0]
        if "-" not in tok:
            raise NotationError("a maneuver is written <from>-<to>, e.g. b1-b3", at)
        src, dst = tok.split("-", 1)
        return (MOVE, _unit(state, src, at, p, "own"), _cell(dst, at + len(src) + 1))
    if word == "attack":
        need(2, "attack <from> <target>")
        return (ATTACK, _unit(state, *args[0], p, "own"), _unit(state, *args[1], p, "enemy"))
    if word == "defend":
        need(2, "defend <attacker> <points>")
        return (DEFEND, _unit(state, *args[0], p, "enemy"), _int(*args[1]))
    if word == "equip":
        if len(args) == 1:
            return (EQUIP, _card(state, *args[0]), NO_BEARER)
        need(2, "equip <card> [<bearer>]")
        return (EQUIP, _card(state, *args[0]), _unit(state, *args[1], p, "own"))
    if word in ("ground", "fly"):
        need(1, f"{word} <cell>")
        return (GROUND if word == "ground" else FLY, _unit(state, *args[0], p, "own"), 0)
    if word == "target":
        need(1, "target <cell> or target <direction>")
        tok, at = args[0]
        if tok.lower() in DIRECTION_NAMES:
            return (TARGET_DIR, DIRECTION_NAMES.index(tok.lower()), 0)
        return (TARGET_UNIT, _unit(state, tok, at, p, "any"), 0)
    if word == "distance":
        need(1, "distance <cells>")
        return (TARGET_DIST, _int(*args[0]), 0)
    if word == "use":
        need(2, "use <source> <n>")
        tok, at = args[0]
        n = _int(*args[1]) - 1
        if n < 0:
            raise NotationError("abilities are numbered from 1", args[1][1])
        if "/" in tok:
            holder, code = tok.split("/", 1)
            bearer = _unit(state, holder, at, p, "own")
            d = _card(state, code, at + len(holder) + 1)
            item = state.item_for(p, bearer, d, n)
            if item < 0:
                raise NotationError(f"the unit on {_echo(holder)} bears no {_echo(code)}", at + len(holder) + 1)
            return (USE, item, n)
        if parse_cell(tok.split(".")[0].lower()) is not None:
            return (USE, _unit(state, tok, at, p, "own"), n)
        d = _card(state, tok, at)
        item = state.item_for(p, -1, d, n) if p >= 0 else -1
        if item < 0:
            raise NotationError(f"{_echo(tok)} is not on your sideline", at)
        return (USE, item, n)
    raise NotationError(f"unknown action '{_echo(word)}'", pos)


def _int(tok: str, at: int) -> int:
    if not tok.isdigit() or len(tok) > 3:
        raise NotationError(f"'{_echo(tok)}' is not a number", at)
    return int(tok)


def _cell(tok: str, at: int) -> int:
    cell = parse_cell(tok.lower())
    if cell is None:
        raise NotationError(f"'{_echo(tok)}' is not a cell (a1 to e5)", at)
    return cell


def _card(state: State, tok: str, at: int) -> int:
    d = state.by_code.get(tok) if tok else None
    if d is None:
        d = state.by_code.get(tok.upper())
    if d is None:
        raise NotationError(f"no card '{_echo(tok)}' in this game", at)
    return d


def _unit(state: State, tok: str, at: int, player: int, side: str) -> int:
    name, _, seat = tok.lower().partition(".")
    cell = _cell(name, at)
    if seat and seat not in SEAT_NAMES:
        raise NotationError(f"'.{_echo(seat)}' names no seat; use .s or .n", at + len(name))
    occ = state.board[cell]
    found = []
    if occ >= 0:
        found.append(occ)
        u = state.units[occ]
        if u.subdued_by >= 0:
            found.append(u.subdued_by)
    if seat:
        found = [i for i in found if state.units[i].owner == SEAT_NAMES.index(seat)]
    elif side == "own":
        found = [i for i in found if state.units[i].owner == player]
    elif side == "enemy":
        found = [i for i in found if state.units[i].owner != player]
    if not found:
        raise NotationError(f"no {'' if side == 'any' else side + ' '}unit on {name}", at)
    if len(found) > 1:
        raise NotationError(f"two units share {name}: write {name}.s or {name}.n", at)
    return found[0]
