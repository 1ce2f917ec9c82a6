"""The goldfish table's page reads its game once (last_move.read_play): the log and the actions shown it gives are
those of the log and the steps read on their own, a replay each (describe_log; the passes hidden from the person,
DG-15.7), over random games of the starters with their response windows."""

from __future__ import annotations

import random

import pytest

from playtest.dreadgate import describe_log, hidden_from, new_game
from playtest.goldfish.last_move import read_play
from playtest.simulation.catalog import starter_decks

pytestmark = pytest.mark.config_independent


def test_one_read_of_the_game_gives_the_log_the_actions_shown_and_the_last_move_of_their_own_replays():
    decks = starter_decks()
    names = sorted(decks)
    hidden = 0
    for seed in range(1, 9):
        state = new_game([decks[names[seed % 6]], decks[names[(seed + 3) % 6]]], seed)
        rnd = random.Random(seed)
        while not state.is_over() and len(state.history) < 250:
            state.apply(rnd.choice(state.legal_actions()))
        for me in (0, 1):
            read = read_play(state.replay(()), state.history, me)
            fresh, seen, theirs = state.replay(()), [], []
            for action in state.history:
                seen.append(not hidden_from(fresh, action, me))
                theirs.append(fresh.current_player != me)
                fresh.apply(action)
            assert list(read.log) == describe_log(state, viewer=me)
            assert (list(read.seen), list(read.theirs)) == (seen, theirs)
            hidden += seen.count(False)
    assert hidden, "no pass was hidden from a seat in these games: the log's and the steps' gaps go untested"
