"""A goldfish table against the AI: it plays its own deck on its turns, its actions are shown one by one."""

import random

import pytest

from core.frames import pack
from playtest.dreadgate import fairness, game_frames
from playtest.dreadgate.actions import END, KEEP
from playtest.dreadgate.view import SeatView
from playtest.goldfish import last_move
from playtest.goldfish import services as tables
from playtest.models import GoldfishTable
from playtest.policies import POLICIES
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db


def open_table(owner, seed: int):
    opponent = starter_deck(owner, craft="sorcery", name="The AI's deck")
    table = tables.table_create(owner=owner, deck_id=starter_deck(owner).pk, seed=seed, opponent_deck_id=opponent.pk)
    if (KEEP, 0, 0) in tables.table_state(table).legal_actions():
        tables.table_act(table=table, action=(KEEP, 0, 0))
    table.refresh_from_db()
    return table


@pytest.fixture
def table(alice):
    return open_table(alice, seed=5)


@pytest.fixture
def table_of(alice):
    return lambda seed: open_table(alice, seed=seed)


def test_the_ai_plays_its_own_deck_on_its_turn_and_gives_the_turn_back(table):
    state = tables.table_state(table)
    me, turn = tables.human_seat(state), state.turn
    assert table.params["opponent_policy"] == "matchup" and table.params["decks"][1]["name"] == "The AI's deck"
    before = len(state.history)
    state = tables.table_act(table=table, action=(END, 0, 0))
    theirs = state.history[before + 1:]
    assert state.current_player == me and state.turn == turn + 2
    assert any(action[0] != END for action in theirs)  # it did something with its turn, not only end it


def test_the_ai_answers_the_same_after_an_undo(table):
    tables.table_act(table=table, action=(END, 0, 0))
    played = list(GoldfishTable.objects.get(pk=table.pk).actions)
    tables.table_undo(table=table)
    assert GoldfishTable.objects.get(pk=table.pk).dummies == []  # the AI's deploys are no dummies to request
    tables.table_act(table=table, action=(END, 0, 0))
    assert GoldfishTable.objects.get(pk=table.pk).actions == played


@pytest.mark.parametrize("seed", [5, 8, 13])
def test_the_ais_turn_is_played_as_in_a_run_from_one_random_source(table_of, seed):
    """The plan the AI makes for its turn carries from one of its decisions to the next, as in the runs that measure
    it: its whole stretch of decisions draws from one random source (one per decision would plan again at each)."""
    table = table_of(seed)
    state = tables.table_state(table)
    me = tables.human_seat(state)
    state.apply((END, 0, 0))
    rng = random.Random(fairness.opponent_seed(table.seed, table.nonce, len(table.actions) + 1))
    expected = []
    while not state.is_over() and state.current_player != me:
        action = POLICIES["matchup"](SeatView(state, 1 - me), rng)
        state.apply(action)
        expected.append(list(action))
    assert len(expected) > 3
    tables.table_act(table=table, action=(END, 0, 0))
    table.refresh_from_db()
    assert [list(a) for a in table.actions[-len(expected):]] == expected


def played_out(table):
    return tables.opponent_steps(table, tables.steps_shown(tables.table_state(table)))


def test_the_answer_to_a_move_names_the_opponents_actions_to_play_out(client, alice, table):
    client.force_login(alice)
    start = len(table.actions)
    response = client.post(f"/playtest/tables/{table.pk}/act/", {"action": f"{END},0,0"})
    html = response.content.decode()
    end = len(GoldfishTable.objects.get(pk=table.pk).actions)
    steps, shown = played_out(GoldfishTable.objects.get(pk=table.pk))
    assert f'data-play-from="{steps[0]}"' in html  # after the person's own "end"
    assert shown <= end - start - 1 and f"The opponent took {shown} action" in html
    assert 'id="playback-speed"' in html


def test_a_step_of_the_opponents_turn_is_shown_read_only_with_a_skip_to_the_end(client, alice, table):
    client.force_login(alice)
    start = len(table.actions)
    client.post(f"/playtest/tables/{table.pk}/act/", {"action": f"{END},0,0"})
    end = len(GoldfishTable.objects.get(pk=table.pk).actions)
    html = client.get(f"/playtest/tables/{table.pk}/?at={start + 2}").content.decode()
    assert f'data-watch-step="{start + 2}"' in html and "data-watch-next=" in html or start + 3 >= end
    assert "Skip to the end" in html and "the opponent plays" in html
    assert 'class="choice"' not in html and 'class="bar-action"' not in html  # nothing to choose in the past
    log = html[html.index('id="log-h"'):]
    assert log.count("<li>") == start + 2


def test_a_watched_step_replays_the_game_twice_the_table_now_and_at_the_step(client, alice, table, monkeypatch):
    client.force_login(alice)
    client.post(f"/playtest/tables/{table.pk}/act/", {"action": f"{END},0,0"})
    replays = []
    replay = tables.table_state
    monkeypatch.setattr(tables, "table_state", lambda *args, **kw: replays.append(kw) or replay(*args, **kw))
    assert client.get(f"/playtest/tables/{table.pk}/?at=1").status_code == 200
    assert len(replays) == 2  # the check of the step's bounds takes the table as it is now, replayed once


def test_the_frames_stored_move_by_move_are_the_whole_games(table):
    """RV-2: each move adds the frames of its own steps (the person's, then the AI's answers) to those stored; what
    is stored is, byte for byte, what the whole game's frames pack to, through moves and an undo."""
    rng = random.Random(2)
    for move in range(12):
        table.refresh_from_db()
        state = tables.table_state(table)
        if state.is_over():
            break
        if move == 6:
            tables.table_undo(table=table)
        else:
            tables.table_act(table=table, action=POLICIES["goldfish"](SeatView(state, tables.human_seat(state)), rng))
        table.refresh_from_db()
        assert bytes(table.frames) == pack(game_frames(tables.table_state(table))), move
    assert len(table.actions) > 20  # the AI's turns among them


def test_a_step_out_of_range_is_a_400_naming_it(client, alice, table):
    client.force_login(alice)
    for at in ("9999", "-1", "two"):
        response = client.get(f"/playtest/tables/{table.pk}/?at={at}")
        assert response.status_code == 400 and "at: a step from 0 to" in response.content.decode(), at


def test_a_table_against_the_ai_is_opened_from_the_new_playtest_page(client, alice):
    deck, opponent = starter_deck(alice), starter_deck(alice, craft="divine", name="Opponent")
    client.force_login(alice)
    response = client.post(f"/playtest/new/?deck={deck.pk}", {"deck": deck.pk, "what": "table",
                                                              "table_opponent": opponent.pk})
    assert response.status_code == 302
    table = GoldfishTable.objects.get()
    assert table.params["decks"][1]["id"] == opponent.pk and table.params["opponent_policy"] == "matchup"



def test_an_action_hidden_from_the_person_takes_no_step_of_the_play_out(alice, monkeypatch):
    """DG-15.7: what `hidden_from` keeps from the person (the AI's pass in a window offered to it, which would say
    that it held an instant it could play) is neither counted nor paced in the play-out of the opponent's actions:
    here its second action is taken as hidden, whatever it was, to see the steps close over it. (A seed whose first
    AI turn has three actions, none hidden.)"""
    table = open_table(alice, seed=6)
    tables.table_act(table=table, action=(END, 0, 0))
    table.refresh_from_db()
    steps, shown = played_out(table)
    bounds = tables.steps_shown(tables.table_state(table)).bounds
    first = bounds[steps[0]]  # the AI's first action: the steps count what the person is shown, from the start
    assert len(table.actions) - first >= 3, "the AI took fewer than three actions: pick another seed"
    assert steps[:3] == [steps[0], steps[0] + 1, steps[0] + 2] and shown == len(table.actions) - first
    assert [bounds[s] for s in steps[:3]] == [first, first + 1, first + 2]

    real = last_move.hidden_from  # the one pass that reads the game for the page (steps, log, last move) asks it
    monkeypatch.setattr(last_move, "hidden_from", lambda state, action, viewer: (
        len(state.history) == first + 1 or real(state, action, viewer)))
    steps, hidden_shown = played_out(table)
    bounds = tables.steps_shown(tables.table_state(table)).bounds
    assert steps[:3] == [steps[0], steps[0] + 1, steps[0] + 2] and hidden_shown == shown - 1
    # the step after the AI's first action is the table after the hidden one too: no step stops between them
    assert [bounds[s] for s in steps[:3]] == [first, first + 2, first + 3]


def test_no_number_the_table_serves_counts_a_pass_hidden_from_the_person(client, alice):
    """DG-15.7: the AI's pass in a window offered to it says that it held an instant it could play, so the person is
    not told of it: not by the API's log, nor by the step a form sends back, the steps `?at=N` takes or the replay's
    count of steps (each counted the table's actions, the pass among them). A seed whose AI passes a window within
    its player's first seven turns."""
    table = open_table(alice, seed=2)
    for _ in range(8):
        shown = tables.steps_shown(tables.table_state(table))
        if not all(shown.seen):
            break
        tables.table_ai_turn(table=table)
        table.refresh_from_db()
    assert not all(shown.seen), "the AI passed no window offered to it: pick another seed"
    hidden = shown.seen.count(False)
    client.force_login(alice)

    api = client.get(f"/api/goldfish-tables/{table.pk}/").json()
    assert len(api["log"]) == len(table.actions) - hidden == shown.last

    page = client.get(f"/playtest/tables/{table.pk}/").content.decode()
    assert f'name="step" value="{shown.last}"' in page and f'value="{len(table.actions)}"' not in page
    beyond = client.get(f"/playtest/tables/{table.pk}/?at={shown.last + 1}")
    assert beyond.status_code == 400 and f"at: a step from 0 to {shown.last}" in beyond.content.decode()
    replay = client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    assert f"Step {shown.last} of {shown.last}" in replay

    stale = client.post(f"/playtest/tables/{table.pk}/ai-turn/", {"step": len(table.actions)})
    assert stale.status_code == 409  # the number that counts the pass is no step the page ever showed
    assert client.post(f"/playtest/tables/{table.pk}/ai-turn/", {"step": shown.last}).status_code == 200
