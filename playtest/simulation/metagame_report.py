"""The figures of a metagame table, from a run's merged counters: pure Python, no Django.

Every rate is games won over games played (a draw is not a win), with its 95% Wilson interval. A deck's overall
rate pools its games against every other deck (each pair plays as many games, so every opponent weighs the
same). A matchup is favoured when its whole interval lies above 50%, unfavoured when it lies below, else even.
"""

from __future__ import annotations

from typing import Any

from core import stats

from .metagame import pair_key

HEAT_STEPS = 10  # the heat map's colour classes: heat-0 (won no game) to heat-10 (won every one)


def rate(wins: int, games: int, draws: int = 0) -> dict[str, Any]:
    low, high = stats.wilson_interval(wins, games)
    return {"wins": wins, "losses": games - wins - draws, "draws": draws, "games": games,
            "rate": wins / games if games else None, "low": low, "high": high}


def verdict(figure: dict[str, Any]) -> str:
    if not figure["games"]:
        return "unplayed"
    if figure["low"] > 0.5:
        return "favoured"
    if figure["high"] < 0.5:
        return "unfavoured"
    return "even"


SHORT_NAME = 14  # characters of a column header's deck name: a long name would wrap the column to many lines


def _cut(name: str, width: int) -> str:
    """The name's first whole words within `width` characters (or its first characters), then an ellipsis."""
    if len(name) <= width:
        return name
    kept = ""
    for word in name.split():
        if len(f"{kept} {word}".strip()) > width - 1:
            break
        kept = f"{kept} {word}".strip()
    return (kept or name[: width - 1]).rstrip(" :;,.-–—·") + "…"


def short_names(names: list[str], width: int = SHORT_NAME) -> list[str]:
    """Each name cut to about `width` characters; different names whose cuts would be alike are cut longer until
    they are told apart (two decks of the same name stay alike: their rows tell them apart)."""
    widths = [width] * len(names)
    while True:
        shorts = [_cut(name, w) for name, w in zip(names, widths, strict=True)]
        alike = {i for i, short in enumerate(shorts)
                 if any(other == short and names[j] != names[i] for j, other in enumerate(shorts))}
        if not alike:
            return shorts
        for i in alike:
            widths[i] += 1


def _side(cell: dict[str, Any], side: int) -> dict[str, Any]:
    return rate(cell["wins"][side], cell["games"], cell["draws"])


def table(result: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    """The matrix (rows and columns in the order of the decks' overall rates, best first), each deck's overall
    rate with its best and worst matchups, and a sample game for each ordered pair where one was kept."""
    decks = params["decks"]
    n = len(decks)
    cells = result.get("cells", {})
    samples: dict[tuple[int, int], int] = {}
    for sample in result.get("samples", []):
        a, b = sample["decks"]
        key = (sample["first"], b if sample["first"] == a else a)
        samples.setdefault(key, sample["game"])  # the row deck moved first in the cell's sample

    def matchup(row: int, column: int) -> dict[str, Any]:
        i, j = min(row, column), max(row, column)
        cell = cells.get(pair_key(i, j))
        figure = _side(cell, 0 if row == i else 1) if cell else rate(0, 0)
        mean_turns = cell["turns"] / cell["games"] if cell and cell["games"] else None
        heat = round(figure["rate"] * HEAT_STEPS) if figure["rate"] is not None else None
        return {"deck": row, "opponent": column, "opponent_name": decks[column]["name"], **figure,
                "verdict": verdict(figure), "heat": heat, "mean_turns": mean_turns,
                "sample_game": samples.get((row, column))}

    standings = []
    for d in range(n):
        row = [matchup(d, o) for o in range(n) if o != d]
        played = [m for m in row if m["games"]]
        wins = sum(m["wins"] for m in played)
        games = sum(m["games"] for m in played)
        draws = sum(m["draws"] for m in played)
        ranked = sorted(played, key=lambda m: (-m["rate"], m["opponent_name"], m["opponent"]))
        overall = rate(wins, games, draws)
        standings.append({"index": d, "id": decks[d].get("id"), "name": decks[d]["name"],
                          "legal": decks[d].get("legal", True), "version": decks[d].get("version"),
                          "overall": overall, "verdict": verdict(overall),
                          "heat": round(overall["rate"] * HEAT_STEPS) if overall["rate"] is not None else None,
                          "best": ranked[0] if ranked else None, "worst": ranked[-1] if ranked else None,
                          "matchups": row})
    for standing, short in zip(standings, short_names([s["name"] for s in standings]), strict=True):
        standing["short_name"] = short
    standings.sort(key=lambda s: (-(s["overall"]["rate"] or 0.0), s["index"]))
    order = [s["index"] for s in standings]
    rows = [{"deck": s, "cells": [None if o == s["index"] else next(m for m in s["matchups"] if m["opponent"] == o)
                                  for o in order]} for s in standings]
    draws = sum(cell["draws"] for cell in cells.values())
    return {"games": result.get("games", 0), "draws": draws, "format": params["format"], "policy": params["policy"],
            "games_per_pair": params["games_per_pair"], "pairs": n * (n - 1) // 2,
            "asked": n * (n - 1) // 2 * params["games_per_pair"], "decks": standings,
            "columns": standings, "rows": rows,
            "matchups": [m for s in sorted(standings, key=lambda s: s["index"]) for m in s["matchups"]]}
