"""What one player may see of a game (DG-2.6): plain data read from the game's zones, for State.observation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.crafts import CRAFT_ORDER

from .board import SEAT_NAMES, cell_name
from .cards import KEYWORD_BITS
from .zones import ENGINE_VERSION, FORMATS, MAIN_PHASE, PHASES, RESPONSE_PHASE, Game, Unit


def _codes(g: Game, iids: Iterable[int]) -> list[str]:
    return [g.inst[i].code for i in iids]


def _unit_view(g: Game, u: Unit) -> dict[str, Any]:
    return {
        "cell": cell_name(u.cell), "card": u.c.code, "name": u.c.card.name, "owner": u.owner, "vitality": u.vit,
        "attack": u.atk, "defense": u.dfn, "range": u.rng, "maneuver": u.mnv, "flying_maneuver": u.fmnv,
        "flying": u.flying, "keywords": [k for k, bit in KEYWORD_BITS.items() if u.kw & bit],
        "items": _codes(g, u.items), "subdued": u.subdued_by >= 0, "subduing": u.subduing >= 0,
        "fresh": u.deployed == g.turn, "moved": u.moved == g.turn, "attacked": u.attacked == g.turn,
        "stunned": u.stun >= g.turn,
    }  # fmt: skip


def observation(g: Game, player: int) -> dict[str, Any]:
    """What `player` (0 or 1; -1 for a spectator) may see: no deck order, no hand but their own (DG-2.6), and no
    response window offered to the other seat (DG-15.7)."""
    phase, deciding = g.phase, g.current_player
    if phase == RESPONSE_PHASE and player in (0, 1) and player != g.decider:
        phase, deciding = MAIN_PHASE, g.active  # play as it was before the window opened
    players = []
    for p in (0, 1):
        view: dict[str, Any] = {
            "seat": SEAT_NAMES[p],
            "deck": len(g.deck[p]),
            "hand_size": len(g.hand[p]),
            "boneyard": _codes(g, g.boneyard[p]),
            "beyond": _codes(g, g.beyond[p]),
            "sideline": _codes(g, g.sideline[p]),
            "talent_points": g.tp[p],
            "beyond_score": g.beyond_score[p],
            "boneyard_score": g.bone_score[p],
        }
        if p == player:
            view["hand"] = _codes(g, g.hand[p])
        players.append(view)
    obs: dict[str, Any] = {
        "engine": ENGINE_VERSION,
        "format": FORMATS[g.fmt],
        "turn": g.turn,
        "active": g.active,
        "phase": PHASES[phase],
        "current_player": deciding,
        "action_points": g.ap,
        "recycling_points": g.rp,
        "influence": {CRAFT_ORDER[i]: n for i, n in enumerate(g.infl) if n},
        "units": [_unit_view(g, g.units[i]) for i in sorted(g.units)],
        "players": players,
        "winner": g.winner,
        "condition": g.condition,
        "revealed": _codes(g, g.revealed[player]) if player in (0, 1) else [],
    }
    if g.combat is not None:
        obs["combat"] = {
            "target": g.combat[0] in g.units and cell_name(g.units[g.combat[0]].cell),
            "attackers": [cell_name(g.units[a].cell) for a, _ in g.combat[1] if a in g.units],
        }
    if g.pending is not None:
        obs["playing"] = g.defs[g.pending[2]].code
    if g.discards and player == g.decider:
        victim = g.discards[0][1]
        obs["discard_from"] = _codes(g, g.hand[victim])
    return obs
