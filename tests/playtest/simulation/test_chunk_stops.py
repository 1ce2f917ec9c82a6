"""Every engine kind's chunk stops at its next game when the job framework asks it to (a cancelled run), before
playing the games it has left."""

import pytest

from core.interrupt import Interrupted, stop_when
from dreaddraw.engine import tournament
from playtest.jobs.services import stage_params
from playtest.simulation import games, metagame, tuning_chain, tuning_race
from playtest.simulation.catalog import starter_decks
from tests.playtest.simulation.test_card_report import _params, _snapshot
from tests.playtest.simulation.test_metagame import table_params
from tests.playtest.simulation.test_tuning import quick_params

pytestmark = [pytest.mark.django_db, pytest.mark.config_independent]  # the engines, whatever the database


def stops_at_once(play) -> bool:
    with stop_when(lambda: True, every_seconds=0):
        try:
            play()
        except Interrupted:
            return True
    return False


def test_a_playtest_chunk_stops():
    deck = starter_decks()["sorcery"]
    params = {**_params(deck), "decks": [_snapshot(deck), _snapshot(deck)]}
    assert stops_at_once(lambda: games.play_chunk(params, 3, 0, 50))


def test_a_metagame_chunk_stops(alice):
    params = table_params(alice)
    assert stops_at_once(lambda: metagame.play_chunk(params, 3, 0, 50))


def test_a_tuning_chunk_stops(alice):
    params = quick_params(alice)
    plan = tuning_chain.next_stage(params, [])
    assert stops_at_once(lambda: tuning_race.play_chunk(stage_params(params, plan), 3, 0, plan["games"]))


def test_a_dread_draw_tournament_chunk_stops():
    assert stops_at_once(lambda: tournament.play_chunk({"lineup": ["heuristic", "random"]}, 1, 0, 300))
