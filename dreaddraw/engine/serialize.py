"""Saving and restoring games: a full snapshot, or the short form (players, seed, decisions) replayed."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .cardset import CardSet, load_cardset
from .decisions import Decision, parse, to_notation
from .game import Game

FORMAT = 1


def _plain(entry: tuple[Any, ...]) -> list[Any]:
    return [list(x) if isinstance(x, tuple) else x for x in entry]


def _tuple(entry: list[Any]) -> Any:
    return tuple(tuple(x) if isinstance(x, list) else x for x in entry)


def game_to_dict(g: Game) -> dict[str, Any]:
    """Every field of the state, JSON-serialisable (the RNG state included)."""
    version, internal, gauss = g.rng.getstate()
    return {
        "format": FORMAT, "set": g.cs.version, "players": g.n, "seed": g.seed,
        "rng": [version, list(internal), gauss],
        "life": g.life, "reserves": g.reserves, "rows": g.rows, "totals": g.totals, "draw": g.draw,
        "discard": g.discard, "alive": g.alive, "in_round": g.in_round, "current": g.current, "why": g.why,
        "queue": [_plain(e) for e in g.queue], "hand": g.hand, "need_pass": g.need_pass, "round": g.round_no,
        "round_winner": g.round_winner, "round_damage": g.round_damage, "over": g.over, "winner": g.winner,
        "fortune": list(g.fortune), "history": [to_notation(d) for d in g.history],
        "log": [_plain(e) for e in g.log], "known_draw": [sorted(k) for k in g.known_draw],
        "known_life": [sorted(k) for k in g.known_life], "base_mask": str(g.base_mask),
        "seen_mask": str(g.seen_mask), "summons": g.summons, "round_lengths": g.round_lengths,
        "first_player": g.first_player,
    }


def game_from_dict(data: dict[str, Any], cardset: CardSet | None = None) -> Game:
    cs = cardset or load_cardset(version=data.get("set"))
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown snapshot format {data.get('format')!r}")
    if data.get("set") != cs.version:
        raise ValueError(f"snapshot is for card set {data.get('set')!r}, not {cs.version!r}")
    g = Game.__new__(Game)
    g.cs = cs
    g.n = data["players"]
    g.seed = data["seed"]
    g.rng = random.Random()
    version, internal, gauss = data["rng"]
    g.rng.setstate((version, tuple(internal), gauss))
    g.life = [list(x) for x in data["life"]]
    g.reserves = [list(x) for x in data["reserves"]]
    g.rows = [list(x) for x in data["rows"]]
    g.totals = list(data["totals"])
    g.draw = list(data["draw"])
    g.discard = list(data["discard"])
    g.alive = list(data["alive"])
    g.alive_count = sum(g.alive)
    g.in_round = list(data["in_round"])
    g.in_round_count = sum(g.in_round)
    g.current = data["current"]
    g.why = data["why"]
    g.queue = [_tuple(e) for e in data["queue"]]
    g.hand = list(data["hand"])
    g.need_pass = data["need_pass"]
    g.round_no = data["round"]
    g.round_winner = data["round_winner"]
    g.round_damage = data["round_damage"]
    g.over = data["over"]
    g.winner = data["winner"]
    g.fortune = tuple(data["fortune"])
    g.history = [parse(t) for t in data["history"]]
    g.log = [_tuple(e) for e in data["log"]]
    g.known_draw = [set(k) for k in data["known_draw"]]
    g.known_life = [set(k) for k in data["known_life"]]
    g.base_mask = int(data["base_mask"])
    g.seen_mask = int(data["seen_mask"])
    g.summons = data["summons"]
    g.round_lengths = list(data["round_lengths"])
    g.first_player = data["first_player"]
    return g


def replay(players: int, seed: int, decisions: Iterable[Decision | str], cardset: CardSet | None = None) -> Game:
    """Rebuild a game from its seed and its decisions (notation or tuples), checking each one."""
    g = Game(players, seed, cardset)
    for d in decisions:
        g.play(parse(d) if isinstance(d, str) else d)
    return g
