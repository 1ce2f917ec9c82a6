"""The figures of a Dreadgate playtest report, computed from a run's merged aggregate."""

from __future__ import annotations

from typing import Any

from core import stats
from core.formats import FORMATS
from playtest.dreadgate.state import TURN_LIMIT
from playtest.policies.passive_effects import acts_only_on_the_opponent, needs_an_opponent
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


# A card drawn in this share of the games or more gets no played / not played comparison (see _association).
ALWAYS_DRAWN = 0.95


def _association(row: dict[str, Any], by_turns: bool, games: int) -> dict[str, Any]:
    """Games where the card was played against games where it was drawn and not played: turns to win (goldfish)
    or the win rate (matchups), each with its 95% interval. An association, not a cause; hidden, with the reason,
    for a card drawn in nearly every game, whose few games held unplayed are those that went some other way."""
    out: dict[str, Any] = {"played_games": row["played_games"], "held_games": row["held_games"], "hidden": ""}
    drawn = row["drawn_games"] / games if games else 0.0
    if not row["played_games"]:
        out["hidden"] = "never played in the games it was drawn in: there are no games where it was played to compare"
        return out
    if drawn >= ALWAYS_DRAWN:
        played = row["played_games"] / row["drawn_games"]
        without = "no games without it" if drawn >= 1 else "almost no games without it"
        out["hidden"] = (f"drawn in {int(100 * drawn)}% of games and played in {int(100 * played)}% of those: with "
                         f"{without}, the games where it was held unplayed differ from the others by how "
                         "the game went, not by the card, and the comparison would say nothing about the card")
        return out
    if by_turns:
        out["played"] = _interval(counter_values(row["played_turns"]))
        out["held"] = _interval(counter_values(row["held_turns"]))
    else:
        out["played"] = _rate(row["played_wins"], row["played_games"])
        out["held"] = _rate(row["held_wins"], row["held_games"])
    return out


def _rate(wins: int, games: int) -> dict[str, float] | None:
    if not games:
        return None
    low, high = stats.wilson_interval(wins, games)
    return {"rate": wins / games, "low": low, "high": high}


def _unchosen_reason(row: dict[str, Any], card: dict[str, Any] | None, goldfish: bool) -> str:
    """Why a card legal in some games was never played (docs/ai.md): by what its effects can change."""
    legal = f"legal in {row['legal_games']} of the {row['drawn_games']} games it was drawn in"
    if goldfish and card is not None and needs_an_opponent(card):
        if acts_only_on_the_opponent(card):
            return (f"{legal}, never chosen: its effects act only on enemy units, combat or the opponent's hand "
                    "and points, which a goldfish opponent never brings")
        return (f"{legal}, never chosen: none of its effects moves or speeds a unit toward the Gateway, draws, "
                "searches or gives points, and what it does to friendly units (healing, fighting strength) is "
                "never needed against a goldfish opponent, who never attacks")
    return f"{legal}, never chosen: each time another action was judged better"


def _card_rows(table: dict[str, Any], names: list[str], games: int, by_turns: bool,
               definitions: dict[str, dict[str, Any]] | None = None) -> tuple[list, list]:
    """Every card of the deck with its figures (and, for a card legal but never played, why), and the cards
    never legal to play with the engine's reason."""
    rows, never = [], []
    for name in names:
        row = table.get(name)
        if row is None or row["legal_games"] == 0:
            reasons = (row or {}).get("why_not") or {}
            if row is None or row["drawn_games"] == 0:
                reason = f"never drawn in {games} games"
            elif reasons:
                reason = "never legal when held: " + max(reasons.items(), key=lambda kv: kv[1])[0]
            else:
                reason = "never legal when held"
            never.append({"name": name, "reason": reason})
            continue
        times = row["times"]
        rows.append({"name": name, "per_game": times / games if games else 0.0,
                     "mean_turn": row["turn_sum"] / times if times else None,
                     "legal_share": row["legal_games"] / row["drawn_games"] if row["drawn_games"] else 0.0,
                     "association": _association(row, by_turns, games),
                     "unchosen": "" if times else _unchosen_reason(row, (definitions or {}).get(name), by_turns)})
    rows.sort(key=lambda r: -r["per_game"])
    return rows, never


def beyond_notice(deck: dict[str, Any], fmt: str) -> str:
    """What to say of a deck whose units and legends can't bring the Beyond to its total (DG-1.2, DG-1.3): the
    Beyond counts the vitality of the units through the Gateway, so their printed vitality summed over the deck
    is what every unit through would score. Empty when it reaches the total or the format has no Beyond."""
    goal = FORMATS[fmt].beyond_goal
    if not goal or "list" not in deck:
        return ""
    cards = deck["cards"]
    total = sum(cards[code].get("vitality") or 0 for code in deck["list"]
                if cards.get(code, {}).get("type") in ("unit", "legend"))
    if total >= goal:
        return ""
    return (f"Its units and legends have {total} vitality in all, less than the {goal} the Beyond needs to win "
            f"(DG-1.2, DG-1.3): even with every one through the Gateway it can't win that way (unless an effect "
            f"raises a unit's vitality), only by the opponent's Boneyard, which a passive opponent never fills.")


def goldfish_notice(fmt: str) -> str:
    """What to say of a goldfish game in a format won only through the opponent's Boneyard (Tactical, DG-1.4): a
    passive opponent never fills it, so every game runs to the turn limit and is decided there (DG-1.9)."""
    if FORMATS[fmt].beyond_goal:
        return ""
    return (f"In {FORMATS[fmt].label} a deck wins only by its opponent's Boneyard (DG-1.4), which a passive opponent "
            "never fills: every goldfish game runs to the turn limit and is decided there (DG-1.9), so its wins and "
            "turns to win say nothing of the deck's speed. Play it against another deck (a matchup) instead.")


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
        by_turns = params["mode"] == "goldfish"
        if "cards" in result:
            definitions = {card["name"]: card for card in decks[d]["cards"].values()}
            cards, never_played = _card_rows(result["cards"][d], deck_names, games, by_turns, definitions)
        else:  # a run played before the per-card figures: what it recorded
            cards = None
            never_played = [{"name": name, "reason": ""} for name in deck_names if name not in played]
        policies = params.get("policies") or [None, None]
        deck_reports.append({
            "policy": policies[d],
            "legal": decks[d].get("legal", True),
            "beyond_notice": beyond_notice(decks[d], params["format"]),
            "cards": cards,
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
            "never_played": never_played,
            "unchosen": [{"name": row["name"], "reason": row["unchosen"]} for row in cards or () if row["unchosen"]],
        })
        # Every card with no play, whether it was never legal or legal and never chosen (the comparison's row).
        deck_reports[-1]["not_played"] = sorted(card["name"] for card in
                                                deck_reports[-1]["never_played"] + deck_reports[-1]["unchosen"])
    return {
        "games": games,
        "mode": params["mode"],
        "format": params["format"],
        "goldfish_notice": goldfish_notice(params["format"]) if params["mode"] == "goldfish" else "",
        "draws": result["draws"],
        "turn_limit": TURN_LIMIT,
        "always_drawn_percent": int(100 * ALWAYS_DRAWN),
        "decks": deck_reports,
        "game_length": _interval(counter_values(result["game_turns"])),
        "game_length_histogram": stats.histogram(counter_values(result["game_turns"])),
        "samples": result["samples"],
    }
