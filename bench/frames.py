"""The size of a stored game's frames (docs/rules.md, RV-2): what each step showed, packed by core.frames.

Run from the repository root: .venv/bin/python bench/frames.py [games, default 20]

Prints, as JSON lines: for Dreadgate, the packed frames of random legal games of the starter decks played to 400
actions (games over sooner are played again with the next seed), with each seat's view and the full one, as a
goldfish table keeps them (mean and largest, bytes; the target is the bound of tests/playtest/dreadgate/
test_frames.py), and as a run's sample game keeps them (the full view only); for Dread Draw, a 4-player table of
heuristic bots played to its end, with each seat's view and the watcher's; the time to pack and to unpack; and
what storing a goldfish table's frames costs a move of 10 actions at the game's 400th action: the whole game's
frames worked out and packed again (as a move once did), against the move's own steps added (`extend`).
"""

from __future__ import annotations

import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _common  # noqa: E402

from core import frames  # noqa: E402
from dreaddraw.engine import PlayerView, load_cardset, replay, replay_frames, to_notation  # noqa: E402
from dreaddraw.engine.bots import make_bot  # noqa: E402
from playtest.dreadgate import ENGINE_VERSION, game_frames, new_game  # noqa: E402
from playtest.dreadgate.record import game_frames_from  # noqa: E402
from playtest.simulation.catalog import starter_decks  # noqa: E402

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 20
ACTIONS = 400
MOVE = 10  # actions of a goldfish table's move (the person's and the AI's answers)
TARGET = 30_000  # bytes, packed: tests/playtest/dreadgate/test_frames.py FRAME_BOUND
ENV = {"python": platform.python_version(), "machine": platform.machine(), "engine": ENGINE_VERSION,
       "actions": ACTIONS, "packing": "JSON changes between steps, zlib level 9"}


def emit(figure: str, value: float, unit: str, target: float | None = None, better: str = "lower") -> None:
    _common.emit("frames", figure, value, unit, target, better, ENV)


def dreadgate_games():
    decks = starter_decks()
    names = sorted(decks)
    seed = 0
    while True:
        seed += 1
        pair = [decks[names[seed % len(names)]], decks[names[(seed + 1) % len(names)]]]
        state = new_game(pair, seed)
        rnd = random.Random(seed)
        while not state.is_over() and len(state.history) < ACTIONS:
            state.apply(rnd.choice(state.legal_actions()))
        if len(state.history) == ACTIONS:
            yield state


def main() -> None:
    tables, samples, pack_s, unpack_s, whole_s, added_s = [], [], [], [], [], []
    for _, state in zip(range(GAMES), dreadgate_games(), strict=False):
        steps = game_frames(state)
        stored = frames.pack(steps[:ACTIONS - MOVE + 1])  # the frames stored before the move
        start = time.process_time()
        whole = frames.pack(game_frames(state))
        whole_s.append(time.process_time() - start)
        start = time.process_time()
        added = frames.extend(stored, game_frames_from(state, ACTIONS - MOVE))
        added_s.append(time.process_time() - start)
        assert added == whole  # the same bytes either way
        start = time.process_time()
        data = frames.pack(steps)
        pack_s.append(time.process_time() - start)
        start = time.process_time()
        frames.unpack(data)
        unpack_s.append(time.process_time() - start)
        tables.append(len(data))
        samples.append(len(frames.pack(game_frames(state, ("all",)))))
    emit("dreadgate 400-action game, each seat's view and the full one: mean", sum(tables) / len(tables), "bytes",
         TARGET)
    emit("dreadgate 400-action game, each seat's view and the full one: largest", max(tables), "bytes", TARGET)
    emit("dreadgate 400-action game, the full view (a run's sample): mean", sum(samples) / len(samples), "bytes")
    emit("dreadgate pack, 400 actions: mean", 1000 * sum(pack_s) / len(pack_s), "ms CPU")
    emit("dreadgate unpack, 400 actions: mean", 1000 * sum(unpack_s) / len(unpack_s), "ms CPU")
    emit("goldfish table move of 10 actions at the 400th: the whole game's frames made and packed again: mean",
         1000 * sum(whole_s) / len(whole_s), "ms CPU")
    emit("goldfish table move of 10 actions at the 400th: the move's frames added: mean",
         1000 * sum(added_s) / len(added_s), "ms CPU")

    cs = load_cardset()
    for players in (4, 6):
        sizes, lengths = [], []
        for seed in range(GAMES):
            game = replay(players, seed, [], cs)
            while not game.over:
                bot = make_bot("heuristic", seed=seed * 1000 + len(game.history))
                game.play(bot.choose(PlayerView(game, game.to_move())))
            steps, _ = replay_frames(players, seed, [to_notation(d) for d in game.history], cs)
            sizes.append(len(frames.pack(steps)))
            lengths.append(len(game.history))
        emit(f"dread draw {players}-player table, each seat's view and the watcher's: mean", sum(sizes) / len(sizes),
             "bytes")
        emit(f"dread draw {players}-player table: decisions, mean", sum(lengths) / len(lengths), "decisions", None,
             "neither")


if __name__ == "__main__":
    main()
