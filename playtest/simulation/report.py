"""The figures of a Dreadgate playtest report, computed from a run's merged aggregate."""

from __future__ import annotations

from typing import Any

from core import stats
from playtest.dreadgate.state import TURN_LIMIT
from playtest.simulation.games import counter_values


def _interval(values: list[int]) -> dict[str, float] | None:
    if not values:
        return None
    mean, mean_low, mean_high = stats.mean_interval(values)
    median, median_low, median_high = stats.median_interval(values)
    return {"mean": mean, "mean_low": mean_low, "mean_high": mean_high,
            "median": median, "median_low": median_low, "median_high": median_high}


def _per_turn(table: dict[str, list[int]], upto: int = 15) -> list[dict[str, Any]]:
    rows = []
    for turn in range(1, upto + 1):
        total, count = table.get(str(turn), (0, 0))
        if count:
            rows.append({"turn": turn, "mean": total / count, "games": count})
    return rows


def report(result: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    games = result["games"]
    decks = params["decks"]
    deck_reports = []
    for d in (0, 1):
        wins = result["wins"][d]
        to_win = counter_values(result["turns_to_win"][d])
        played = result["played"][d]
        used_per_turn = _per_turn(result["ap_used"][d])
        wasted_per_turn = {row["turn"]: row["mean"] for row in _per_turn(result["ap_wasted"][d])}
        deck_names = sorted({card["name"] for code, card in decks[d]["cards"].items() if card["type"] != "gateway"})
        deck_reports.append({
            "name": decks[d]["name"],
            "wins": wins,
            "win_rate": wins / games if games else 0.0,
            "win_interval": stats.wilson_interval(wins, games),
            "conditions": sorted(result["conditions"][d].items(), key=lambda kv: -kv[1]),
            "turns_to_win": _interval(to_win),
            "histogram": stats.histogram(to_win),
            "won_by_turn": stats.cumulative_share(to_win, games, max(to_win, default=0)),
            "ap": [{**row, "wasted": wasted_per_turn.get(row["turn"], 0.0)} for row in used_per_turn],
            "drawn_per_game": result["drawn"][d] / games if games else 0.0,
            "mulligan_rate": result["mulligans"][d] / games if games else 0.0,
            "opening_board_cards": sorted((int(k), v) for k, v in result["opening_board_cards"][d].items()),
            "played": sorted(
                ({"name": name, "per_game": times / games, "mean_turn": turn_sum / times}
                 for name, (times, turn_sum) in played.items()),
                key=lambda row: -row["per_game"],
            ),
            "never_played": [name for name in deck_names if name not in played],
        })
    return {
        "games": games,
        "mode": params["mode"],
        "format": params["format"],
        "draws": result["draws"],
        "turn_limit": TURN_LIMIT,
        "decks": deck_reports,
        "game_length": _interval(counter_values(result["game_turns"])),
        "game_length_histogram": stats.histogram(counter_values(result["game_turns"])),
        "samples": result["samples"],
    }
