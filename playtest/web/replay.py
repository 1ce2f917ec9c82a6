"""Stepping through a recorded sample game: the state after `step` actions, and the log so far."""

from __future__ import annotations

from typing import Any

from playtest.dreadgate import describe_action, new_game
from playtest.goldfish.board import game_view
from playtest.simulation.games import deck_cards


def replay_step(params: dict[str, Any], record: dict[str, Any], step: int) -> dict[str, Any]:
    decks = [deck_cards(d) for d in params["decks"]]
    names = {code: card["name"] for d in params["decks"] for code, card in d["cards"].items()}
    actions = [tuple(a) for a in record["actions"]]
    step = max(0, min(step, len(actions)))
    state = new_game(decks, record["seed"], record["format"])
    log = []
    for action in actions[:step]:
        log.append(describe_action(state, action, viewer=-1))
        state.apply(action)
    return {
        "view": game_view(state, names, reveal_all=True),
        "log": log,
        "step": step,
        "steps": len(actions),
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(actions) else None,
        "last": len(actions),
    }
