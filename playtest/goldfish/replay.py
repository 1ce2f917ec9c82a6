"""Stepping through a recorded sample game: the state after `step` actions, and the log so far.

A game is replayed by the rules it was played under (docs/rules.md, RV-2, RV-4); one whose rules this app no
longer has is named as such instead of replayed (RV-6).
"""

from __future__ import annotations

from typing import Any

from playtest.dreadgate.versions import engine_for, is_current
from playtest.goldfish.board import CardFaces, game_view
from playtest.simulation.games import deck_cards


def replay_step(params: dict[str, Any], record: dict[str, Any], step: int,
                faces: CardFaces | None = None, viewer: int | None = None, bottom: int | None = None) -> dict[str, Any]:
    """The replay after `step` actions: every card (`viewer` None: a finished game, a sample game), or only what
    the seat `viewer` may see (a game still running, DG-2.6); the board drawn from the side of the seat `bottom`
    (a table's person, whichever seat they had), else from the viewer's, or South's."""
    version = record.get("engine")
    actions = [tuple(a) for a in record["actions"]]
    rules = {"rules_version": None if is_current(version) else (version or "unknown")}
    engine = engine_for(version)
    if engine is None:
        return {"view": None, "log": [], "step": 0, "steps": len(actions), "previous": None, "next": None,
                "last": 0, **rules}  # fmt: skip
    decks = [deck_cards(d) for d in params["decks"]]
    faces = faces or CardFaces.from_decks(params["decks"])
    step = max(0, min(step, len(actions)))
    state = engine.new_game(decks, record["seed"], record["format"])
    log = []
    for action in actions[:step]:
        log.append(engine.describe_action(state, action, viewer=-1 if viewer is None else viewer))
        state.apply(action)
    return {
        "view": game_view(state, faces, reveal_all=True, bottom=bottom) if viewer is None
        else game_view(state, faces, viewer=viewer, bottom=bottom),
        "log": log,
        "step": step,
        "steps": len(actions),
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(actions) else None,
        "last": len(actions),
        **rules,
    }
