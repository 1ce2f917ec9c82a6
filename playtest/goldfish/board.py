"""Presenting a Dreadgate game (a replay step or a live table) for the templates: pure data."""

from __future__ import annotations

from typing import Any

from playtest.dreadgate import State
from playtest.dreadgate.board import FILES, GATE, SEAT_NAMES, SIZE, cell_name


def grid(obs: dict[str, Any], gate: bool = True, flip: bool = False) -> list[list[dict[str, Any]]]:
    """The 5x5 battlefield as rows from rank 5 (North's back rank) down to rank 1 (South's);
    turned half a circle (`flip`) when North looks at it, so that forward is always up."""
    units = {u["cell"]: u for u in obs["units"]}
    rows = []
    ranks = range(1, SIZE + 1) if flip else range(SIZE, 0, -1)
    for rank in ranks:
        row = []
        for file in reversed(FILES) if flip else FILES:
            name = f"{file}{rank}"
            row.append({"name": name, "gate": gate and name == cell_name(GATE), "unit": units.get(name)})
        rows.append(row)
    return rows


def game_view(state: State, names: dict[str, str], *, reveal_all: bool = False, viewer: int = 0) -> dict[str, Any]:
    """Board, zones and scores; both hands for a replay (`reveal_all`), else the viewer's only."""
    obs = state.observation(viewer)  # the state's own engine: a game of older rules is shown by them (RV-4)
    if reveal_all:
        other = state.observation(1 - viewer)
        obs["players"][1 - viewer]["hand"] = other["players"][1 - viewer]["hand"]
    for player in obs["players"]:
        for zone in ("hand", "boneyard", "beyond", "sideline"):
            if zone in player:
                player[zone] = [{"code": c, "name": names.get(c, c)} for c in player[zone]]
    obs["grid"] = grid(obs, gate=obs["format"] != "tactical", flip=viewer == 1 and not reveal_all)
    obs["seat_names"] = {0: "South", 1: "North"}
    obs["active_name"] = "South" if obs["active"] == 0 else "North"
    obs["seat_codes"] = SEAT_NAMES
    return obs
