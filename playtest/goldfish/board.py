"""Presenting a Dreadgate game (a replay step or a live table) for the templates: pure data.

Every card is shown as its face (the catalog's SVG drawing) with its name and rules text for the enlarged
view; a unit also shows its current stats beside the printed ones, its items and its states as badges that
carry a word and an icon, never a colour alone.
"""

from __future__ import annotations

from typing import Any

from core.formats import FORMATS as FORMAT_RULES
from playtest.dreadgate import State
from playtest.dreadgate.board import FILES, GATE, SEAT_NAMES, SIZE, cell_name

# (key of the observation, label, icon): the states a unit shows as badges, in this order
UNIT_STATES = (
    ("flying", "Flying", "wing"), ("spectral", "Spectral", "ghost"), ("subdued", "Subdued", "chain"),
    ("subduing", "Subduing", "chain"), ("stunned", "Stunned", "star"), ("fresh", "Deployed this turn", "spark"),
    ("moved", "Moved", "arrow"), ("attacked", "Attacked", "sword"),
)  # fmt: skip
# (key of the observation, key of the printed card, label, icon)
UNIT_STATS = (
    ("vitality", "vitality", "Vitality", "heart"), ("attack", "attack", "Attack", "sword"),
    ("defense", "defense", "Defense", "shield"), ("range", "range", "Range", "range"),
    ("maneuver", "maneuver", "Maneuver", "arrow"),
)  # fmt: skip
# The phases of the engine (zones.PHASES) as a player says them
PHASE_WORDS = {
    "mulligan": "opening hand", "main": "main phase", "combat": "combat", "defense": "defence step",
    "target": "choosing a target", "discard": "discarding", "over": "game over", "response": "response window",
}  # fmt: skip
SEAT_WORDS = ("South", "North")  # DG-4.3: the first player takes the South seat


class CardFaces:
    """What a page shows of each card code: its name, rules text, type line, and whether the catalog draws
    its face (the training dummy, for one, is no catalog card)."""

    def __init__(self, cards: dict[str, dict[str, Any]], texts: dict[str, str] | None = None):
        self.cards = cards  # code -> the card's definition, as a deck snapshot holds it
        self.texts = texts  # code -> rules text, for the codes the catalog knows; None: assume all faces drawn

    @classmethod
    def from_decks(cls, decks: list[dict[str, Any]], texts: dict[str, str] | None = None) -> CardFaces:
        return cls({code: card for d in decks for code, card in d["cards"].items()}, texts)

    def name(self, code: str) -> str:
        return self.cards.get(code, {}).get("name", code)

    def card(self, code: str) -> dict[str, Any]:
        card = self.cards.get(code, {})
        kind = str(card.get("type", "")).capitalize()
        craft = str(card.get("craft", "")).capitalize()
        cost = card.get("cost")
        return {
            "code": code, "name": self.name(code),
            "face": self.texts is None or code in self.texts,
            "text": (self.texts or {}).get(code, ""),
            "type_line": " — ".join(part for part in (kind, craft) if part),
            "kind": kind,
            "cost": cost if cost is not None else card.get("vitality"),
            # a unit's or a legend's printed stats (the vitality is the deploy cost, DG-7.2), read on a card in hand
            "printed_stats": [{"key": key, "label": label, "icon": icon, "value": card[printed_key]}
                              for key, printed_key, label, icon in UNIT_STATS
                              if card.get("vitality") is not None and card.get(printed_key) is not None],
        }  # fmt: skip


def grid(obs: dict[str, Any], gate: bool = True, flip: bool = False) -> list[list[dict[str, Any]]]:
    """The 5x5 battlefield as rows from rank 5 (North's back rank) down to rank 1 (South's);
    turned half a circle (`flip`) when it is drawn from North's side, so that North's back rank is at the bottom
    and its forward is up."""
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


def _unit(unit: dict[str, Any], faces: CardFaces, bottom: int, you: int | None) -> dict[str, Any]:
    """A unit of the observation with its face, its stats (current and printed), its items and its badges, and
    whose it is as the board is drawn: `near` (the seat at the bottom, `bottom`) or `far`, said as the person's or
    the opponent's at a table (`you`, the person's seat), by seat name in a replay of every card."""
    printed = faces.cards.get(unit["card"], {})
    unit = {**unit, **faces.card(unit["card"])}
    unit["spectral"] = "spectral" in unit.get("keywords", ())
    stats = []
    for key, printed_key, label, icon in UNIT_STATS:
        now, was = unit.get(key), printed.get(printed_key)
        change = "" if was is None or now == was else "up" if now > was else "down"
        stats.append({"key": key, "label": label, "icon": icon, "value": now, "printed": was, "change": change})
    unit["stats"] = stats
    unit["badges"] = [{"key": key, "label": label, "icon": icon} for key, label, icon in UNIT_STATES if unit.get(key)]
    unit["item_cards"] = [faces.card(code) for code in unit.get("items", ())]
    unit["seat"] = SEAT_NAMES[unit["owner"]] if unit["owner"] in (0, 1) else ""
    unit["side"] = "near" if unit["owner"] == bottom else "far"
    if unit["owner"] not in (0, 1):
        unit["mark"], unit["whose"] = "", ""
    elif you is not None:
        unit["mark"], unit["whose"] = ("You", "your") if unit["owner"] == you else ("Opp", "the opponent's")
    else:
        unit["mark"], unit["whose"] = unit["seat"].upper(), f"{SEAT_WORDS[unit['owner']]}'s"
    unit["spoken"] = _spoken(unit)
    return unit


def _spoken(unit: dict[str, Any]) -> str:
    """The unit in words, for a screen reader: "your Hard-Bitten Gladiator on c4, vitality 4 (printed 5), attack 3,
    …, stunned, carries Repeating Crossbow"."""
    parts = [f"{unit['whose']} {unit['name']} on {unit['cell']}".strip()]
    parts += [f"{s['label'].lower()} {s['value']}" + (f" (printed {s['printed']})" if s["change"] else "")
              for s in unit["stats"] if s["value"] is not None]
    parts += [badge["label"].lower() for badge in unit["badges"]]
    parts += [f"carries {item['name']}" for item in unit["item_cards"]]
    return ", ".join(parts)


def game_view(state: State, faces: CardFaces, *, reveal_all: bool = False, viewer: int = 0,
              bottom: int | None = None) -> dict[str, Any]:
    """Board, zones and scores; both hands for a replay (`reveal_all`), else the viewer's only. The board is drawn
    from the side of the seat `bottom` (by default the viewer's, or South's in a replay of every card): its back
    rank at the bottom, whichever seat the rules gave it (DG-4.3)."""
    obs = state.observation(viewer)
    if reveal_all:
        other = state.observation(1 - viewer)
        obs["players"][1 - viewer]["hand"] = other["players"][1 - viewer]["hand"]
    return position_view(obs, faces, reveal_all=reveal_all, viewer=viewer, bottom=bottom)


def position_view(obs: dict[str, Any], faces: CardFaces, *, reveal_all: bool = False, viewer: int = 0,
                  bottom: int | None = None) -> dict[str, Any]:
    """game_view of an observation already taken: a live one, or one step of a stored game's frames (its replay,
    docs/rules.md RV-2), which holds both hands where it shows every card (`reveal_all`). Changes `obs`."""
    if bottom is None:
        bottom = 0 if reveal_all else viewer
    rules = FORMAT_RULES[obs["format"]]
    obs["format_label"] = rules.label
    for seat, player in enumerate(obs["players"]):
        for zone in ("hand", "boneyard", "beyond", "sideline"):
            if zone in player:
                player[zone] = [faces.card(c) for c in player[zone]]
        player["beyond_goal"] = rules.beyond_goal  # DG-1.2 to DG-1.4: None where Beyond does not win
        player["boneyard_goal"] = rules.boneyard_goal
        player["name"] = SEAT_WORDS[seat]
        player["you"] = seat == viewer and not reveal_all
    you = None if reveal_all else viewer
    obs["units"] = [_unit(u, faces, bottom, you) for u in obs["units"]]
    obs["grid"] = grid(obs, gate=obs["format"] != "tactical", flip=bottom == 1)
    obs["bottom"], obs["bottom_name"], obs["top_name"] = bottom, SEAT_WORDS[bottom], SEAT_WORDS[1 - bottom]
    obs["players_near_first"] = [obs["players"][bottom], obs["players"][1 - bottom]]  # the person's zones first
    obs["seat_names"] = {0: "South", 1: "North"}
    obs["phase_words"] = PHASE_WORDS.get(obs["phase"], obs["phase"])
    obs["active_name"] = "South" if obs["active"] == 0 else "North"
    # who decides now, as the viewer may know it: the other seat in the mulligan, a defence or an answer; no one
    # once the game is over
    obs["deciding_name"] = SEAT_WORDS[obs["current_player"]] if obs["current_player"] in (0, 1) else None
    obs["seat_codes"] = SEAT_NAMES
    return obs
