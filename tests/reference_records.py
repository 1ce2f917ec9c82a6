"""Reference records of both engines (docs/rules.md, RV-1): a handful of games each, stored with their seed, their
actions and what each step showed (the frames), so that a change of the rules' behaviour without a version bump
fails tests/playtest/dreadgate/test_reference_records.py and tests/dreaddraw/test_reference_records.py.

Regenerate them, after bumping the engine's version, with:

    .venv/bin/python -m tests.reference_records            # both engines
    .venv/bin/python -m tests.reference_records dreadgate  # or one: dreadgate, dreaddraw

The games are played anew from fixed seeds (random legal actions, or the bots), since actions of the older rules
may be refused by the new ones. A record whose version is the current one is never overwritten with other frames:
the command refuses until the version is bumped (the point of the records), and rewrites nothing in that case.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from pathlib import Path
from typing import Any

from core.frames import first_difference, from_text, pack, to_text, unpack

ROOT = Path(__file__).resolve().parent
DREADGATE_DIR = ROOT / "playtest" / "dreadgate" / "reference_records"
DREADDRAW_DIR = ROOT / "dreaddraw" / "reference_records"
COMMAND = ".venv/bin/python -m tests.reference_records"

# name -> (format, the starter decks' crafts, seed, actions at most): random legal actions from the seed
DREADGATE_GAMES = {
    "standard-champion-sorcery": ("standard", ("champion", "sorcery"), 11, 260),
    "standard-divine-artifice": ("standard", ("divine", "artifice"), 12, 260),
    "quick-engineering-hinter": ("quick", ("engineering", "hinter"), 13, 200),
    "tactical-champion-divine": ("tactical", ("champion", "divine"), 14, 200),
    "standard-sorcery-mirror": ("standard", ("sorcery", "sorcery"), 15, 400),
}
# name -> (card set version, None: the current one; bots by seat; seed)
DREADDRAW_GAMES = {
    "two-random": (None, ("random", "random"), 21),
    "three-heuristic": (None, ("heuristic", "heuristic", "probability"), 22),
    "four-probability": (None, ("probability", "heuristic", "probability", "random"), 23),
    "six-mixed": (None, ("heuristic", "random", "probability", "heuristic", "random", "probability"), 24),
    "older-set-three": ("dd-1.0", ("heuristic", "probability", "random"), 25),
}


class Changed(Exception):
    """The frames of a record changed while its version stayed the same."""


# --- Dreadgate ------------------------------------------------------------------------------------------------


def dreadgate_record(name: str) -> dict[str, Any]:
    from playtest.dreadgate import ENGINE_VERSION, game_frames, new_game
    from playtest.simulation.catalog import starter_decks

    fmt, crafts, seed, most = DREADGATE_GAMES[name]
    decks = [starter_decks(fmt)[craft] for craft in crafts]
    state = new_game(decks, seed, fmt)
    pick = random.Random(seed)
    while not state.is_over() and len(state.history) < most:
        state.apply(pick.choice(state.legal_actions()))
    cards = {c.collector_number: dataclasses.asdict(c) for deck in decks for c in deck}
    return {
        "engine": ENGINE_VERSION, "format": fmt, "seed": seed,
        "cards": dict(sorted(cards.items())),
        "decks": [[c.collector_number for c in deck] for deck in decks],
        "actions": [list(a) for a in state.history],
        "frames": to_text(pack(game_frames(state))),
    }  # fmt: skip


def dreadgate_replayed(record: dict[str, Any]) -> tuple[list[Any], int | None]:
    """The record's actions replayed by the current rules: their frames, and the first action they refuse."""
    from playtest.dreadgate import CardDef, new_game
    from playtest.dreadgate.record import replay_frames

    cards = {code: CardDef.from_dict(card) for code, card in record["cards"].items()}
    state = new_game([[cards[code] for code in deck] for deck in record["decks"]], record["seed"], record["format"])
    return replay_frames(state, record["actions"])


# --- Dread Draw -----------------------------------------------------------------------------------------------


def dreaddraw_record(name: str) -> dict[str, Any]:
    from dreaddraw.engine import ENGINE_VERSION, PlayerView, load_cardset, replay, replay_frames, to_notation
    from dreaddraw.engine.bots import make_bot

    version, bots, seed = DREADDRAW_GAMES[name]
    cardset = load_cardset(version=version)
    names = [f"{bot.capitalize()} {i + 1}" for i, bot in enumerate(bots)]
    game = replay(len(bots), seed, [], cardset)
    while not game.over:
        seat = game.to_move()
        bot = make_bot(bots[seat], seed=seed * 1000 + len(game.history))
        game.play(bot.choose(PlayerView(game, seat)))
    decisions = [to_notation(d) for d in game.history]
    frames, _ = replay_frames(len(bots), seed, decisions, cardset, names)
    return {"engine": ENGINE_VERSION, "set": cardset.version, "players": len(bots), "seed": seed, "names": names,
            "decisions": decisions, "frames": to_text(pack(frames))}


def dreaddraw_replayed(record: dict[str, Any]) -> tuple[list[Any], int | None]:
    from dreaddraw.engine import load_cardset, replay_frames

    return replay_frames(record["players"], record["seed"], record["decisions"],
                         load_cardset(version=record["set"]), record["names"])


# --- both -----------------------------------------------------------------------------------------------------

ENGINES = {
    "dreadgate": (DREADGATE_DIR, DREADGATE_GAMES, dreadgate_record, dreadgate_replayed,
                  "ENGINE_VERSION in playtest/dreadgate/zones.py"),
    "dreaddraw": (DREADDRAW_DIR, DREADDRAW_GAMES, dreaddraw_record, dreaddraw_replayed,
                  "ENGINE_VERSION in dreaddraw/engine/game.py"),
}


def stored(engine: str) -> dict[str, dict[str, Any]]:
    folder = ENGINES[engine][0]
    return {path.stem: json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))}


def where(a: Any, b: Any, path: str = "") -> str:
    """The first place two frames differ, as a path of keys, with both values (shortened)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            if a.get(key, ...) != b.get(key, ...):
                return where(a.get(key, "(absent)"), b.get(key, "(absent)"), f"{path}[{key!r}]")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return where(x, y, f"{path}[{i}]")
    return f"{path or 'the frame'}: stored {json.dumps(a)[:200]}, now {json.dumps(b)[:200]}"


def difference(engine: str, name: str, record: dict[str, Any]) -> str | None:
    """Why the current rules don't replay the record to its stored frames, or None if they do."""
    replay = ENGINES[engine][3]
    expected = unpack(from_text(record["frames"]))
    frames, refused = replay(record)
    if refused is not None:
        what = "decision" if "decisions" in record else "action"
        return f"{name}: {what} {refused} ({record.get(what + 's', [])[refused]}) is refused"
    step = first_difference(expected, frames)
    if step is None:
        return None
    if step >= len(frames) or step >= len(expected):
        return f"{name}: the stored game has {len(expected) - 1} steps, the replay {len(frames) - 1}"
    return f"{name}: step {step} shows otherwise at {where(expected[step], frames[step])}"


def written(record: dict[str, Any]) -> str:
    """A record as its file holds it: a line per field (a card per line), each value compact."""
    def compact(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"), sort_keys=True)

    lines = []
    for key, value in sorted(record.items()):
        if key == "cards":
            inner = ",\n".join(f"  {json.dumps(code)}: {compact(card)}" for code, card in value.items())
            lines.append(f' "cards": {{\n{inner}\n }}')
        else:
            lines.append(f" {json.dumps(key)}: {compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def regenerate(engine: str) -> list[str]:
    """Write the engine's reference records anew; refuses (writing nothing) where a record of the current version
    would get other frames. Returns the names written."""
    folder, games, make, _, version_name = ENGINES[engine]
    old = stored(engine)
    new = {name: make(name) for name in games}
    for name, record in new.items():
        before = old.get(name)
        if before is None or before["engine"] != record["engine"]:
            continue
        why = difference(engine, name, before)
        if why is not None:
            raise Changed(f"{why}.\nThe rules of {engine} changed but their version is still {record['engine']!r}: "
                          f"bump {version_name} (docs/rules.md, RV-1), then run {COMMAND} {engine} again.")
    folder.mkdir(parents=True, exist_ok=True)
    for stale in set(old) - set(new):
        (folder / f"{stale}.json").unlink()
    for name, record in new.items():
        (folder / f"{name}.json").write_text(written(record))
    return sorted(new)


def main(argv: list[str]) -> int:
    engines = argv or list(ENGINES)
    for engine in engines:
        if engine not in ENGINES:
            print(f"unknown engine {engine!r}: one of {', '.join(ENGINES)}", file=sys.stderr)
            return 2
        try:
            written = regenerate(engine)
        except Changed as exc:
            print(exc, file=sys.stderr)
            return 1
        print(f"{engine}: wrote {len(written)} reference records to {ENGINES[engine][0].relative_to(ROOT.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
