"""The goldfish table: a person plays their deck step by step; the server keeps the game."""

import pytest

from core.errors import DomainError
from core.frames import pack, unpack
from playtest.dreadgate import ENGINE_VERSION, game_frames
from playtest.dreadgate.actions import DEPLOY, DRAW, END, KEEP
from playtest.dreadgate.board import cell_name
from playtest.dreadgate.state import OVER_PHASE
from playtest.goldfish import services as tables
from playtest.models import GoldfishTable
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db



@pytest.fixture
def table(alice):
    return tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=11)


def to_main_phase(table):
    state = tables.table_state(table)
    if (KEEP, 0, 0) in state.legal_actions():
        state = tables.table_act(table=table, action=(KEEP, 0, 0))
    table.refresh_from_db()
    return state


def test_the_opponent_decides_by_itself_so_it_is_always_the_players_turn(table):
    state = to_main_phase(table)
    assert state.current_player == tables.human_seat(state)


def test_an_action_is_saved_and_a_reload_continues_the_game(table):
    state = to_main_phase(table)
    tables.table_act(table=table, action=(DRAW, 0, 0))
    reloaded = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
    assert reloaded.history[-1] == (DRAW, 0, 0)
    assert len(reloaded.hand[tables.human_seat(reloaded)]) == len(state.hand[tables.human_seat(state)]) + 1


def test_an_illegal_action_is_refused_with_its_rule_and_nothing_is_saved(table):
    to_main_phase(table)
    before = list(GoldfishTable.objects.get(pk=table.pk).actions)
    with pytest.raises(tables.TableRefused) as refused:
        tables.table_act(table=table, action=(DEPLOY, 0, 12))  # the Gateway is no deploy cell
    assert refused.value.rule.startswith("DG-")
    assert GoldfishTable.objects.get(pk=table.pk).actions == before


def test_a_refusal_names_the_card_not_its_collector_number(table):
    state = to_main_phase(table)
    me = tables.human_seat(state)
    held = {state.inst[iid].index for iid in state.hand[me]}
    card = next(c for c in state.defs if c.board and c.index not in held)
    with pytest.raises(tables.TableRefused) as refused:
        tables.table_act(table=table, action=(DEPLOY, card.index, 0 if me == 0 else 20))
    assert refused.value.message == f"{card.card.name} is not in your hand" and refused.value.rule == "DG-7.1"


def test_undo_takes_back_the_last_human_action(table):
    to_main_phase(table)
    tables.table_act(table=table, action=(DRAW, 0, 0))
    before_draw = len(GoldfishTable.objects.get(pk=table.pk).actions) - 1
    state = tables.table_undo(table=table)
    assert len(state.history) == before_draw
    assert len(GoldfishTable.objects.get(pk=table.pk).actions) == before_draw


def test_ending_the_turn_lets_the_opponent_pass_and_gives_the_turn_back(table):
    state = to_main_phase(table)
    turn = state.turn
    state = tables.table_act(table=table, action=(END, 0, 0))
    assert state.turn == turn + 2
    assert state.current_player == tables.human_seat(state)


def test_a_dummy_is_deployed_on_the_opponents_back_rank(table):
    state = to_main_phase(table)
    me = tables.human_seat(state)
    cell = "c5" if me == 0 else "c1"
    tables.table_place_dummy(table=table, cell=f" {cell.upper()}")  # as typed: "C5" is c5
    state = tables.table_act(table=table, action=(END, 0, 0))
    dummies = [u for u in state.units.values() if u.owner != me]
    assert [cell_name(u.cell) for u in dummies] == [cell]
    assert dummies[0].c.card.name == "Training Dummy"


def test_frames_stored_after_a_dummy_and_the_ais_help_are_the_whole_games(table):
    """RV-2: a dummy deployed, a turn played by the AI for the person and the passive opponent's turns each add
    their steps' frames to those stored, which stay, byte for byte, the whole game's."""
    state = to_main_phase(table)
    cell = "c5" if tables.human_seat(state) == 0 else "c1"
    for move in (lambda: tables.table_place_dummy(table=table, cell=cell), lambda: tables.table_ai_turn(table=table),
                 lambda: tables.table_act(table=table, action=(END, 0, 0)), lambda: tables.table_ai_turn(table=table)):
        move()
        table.refresh_from_db()
        assert bytes(table.frames) == pack(game_frames(tables.table_state(table)))


def test_undoing_the_turn_that_deployed_a_dummy_requests_it_again(table):
    state = to_main_phase(table)
    me = tables.human_seat(state)
    cell = "c5" if me == 0 else "c1"
    tables.table_place_dummy(table=table, cell=cell)
    tables.table_act(table=table, action=(END, 0, 0))
    assert GoldfishTable.objects.get(pk=table.pk).dummies == []
    state = tables.table_undo(table=table)
    assert not [u for u in state.units.values() if u.owner != me]
    assert GoldfishTable.objects.get(pk=table.pk).dummies == [cell]
    state = tables.table_act(table=table, action=(END, 0, 0))
    assert [cell_name(u.cell) for u in state.units.values() if u.owner != me] == [cell]


def test_a_dummy_on_the_players_own_side_is_refused_naming_the_cells(table):
    state = to_main_phase(table)
    wrong = "c1" if tables.human_seat(state) == 0 else "c5"
    with pytest.raises(tables.DomainError) as refused:
        tables.table_place_dummy(table=table, cell=wrong)
    assert refused.value.details["field"] == "cell"


def test_no_dummy_is_placed_once_the_game_is_over(table, monkeypatch):
    to_main_phase(table)
    built = tables.table_state

    def over(table, steps=None):
        state = built(table, steps)
        state.winner, state.condition, state.phase = tables.human_seat(state), "beyond", OVER_PHASE
        return state

    monkeypatch.setattr(tables, "table_state", over)
    with pytest.raises(tables.TableRefused) as refused:
        tables.table_place_dummy(table=table, cell="c5" if tables.human_seat(built(table)) == 0 else "c1")
    assert refused.value.rule == "DG-1.2"
    table.refresh_from_db()
    assert table.dummies == []


def test_the_ai_plays_the_rest_of_the_turn(table):
    state = to_main_phase(table)
    turn = state.turn
    state = tables.table_ai_turn(table=table)
    assert state.turn > turn
    assert state.current_player == tables.human_seat(state) or state.is_over()


def test_the_page_shows_targets_for_a_selected_hand_card(client, alice, table):
    to_main_phase(table)
    client.force_login(alice)
    state = tables.table_state(table)
    deploy = next(a for a in state.legal_actions() if a[0] == DEPLOY)
    html = client.get(f"/playtest/tables/{table.pk}/?sel=h{deploy[1]}").content.decode()
    assert f'value="{deploy[0]},{deploy[1]},{deploy[2]}"' in html
    assert "cell target" in html


def test_an_illegal_post_is_a_400_with_the_rule_link(client, alice, table):
    to_main_phase(table)
    client.force_login(alice)
    response = client.post(f"/playtest/tables/{table.pk}/act/", {"action": "2,0,12"})
    assert response.status_code == 400
    assert "/rules/#DG-" in response.content.decode()


def test_the_log_says_each_action_in_words_for_the_person_at_the_table(client, alice, table):
    me = tables.human_seat(to_main_phase(table))
    dummy = "c5" if me == 0 else "c1"
    tables.table_place_dummy(table=table, cell=dummy)
    tables.table_act(table=table, action=(DRAW, 0, 0))
    tables.table_act(table=table, action=(END, 0, 0))  # the opponent deploys the dummy on its turn
    client.force_login(alice)
    html = client.get(f"/playtest/tables/{table.pk}/").content.decode()
    log = html[html.index('id="log-h"'):]
    assert "You keep your hand" in log and "You draw a card" in log and "You end your turn" in log
    assert f"The opponent deploys Training Dummy on {dummy}" in log
    assert "X-DUMMY" not in log and "<li>draw</li>" not in log


OLDER = "0.9.0-test"


def _older(table, frames=None):
    """The table as if opened under older rules that showed `frames` at its steps (by default what it shows now)."""
    table = GoldfishTable.objects.get(pk=table.pk)
    changes = {"engine_version": OLDER, **({"frames": pack(frames)} if frames is not None else {})}
    GoldfishTable.objects.filter(pk=table.pk).update(**changes)
    return GoldfishTable.objects.get(pk=table.pk)


def test_a_table_whose_every_step_shows_the_same_under_new_rules_plays_on_under_them(client, alice, table):
    """docs/rules.md RV-5: replayed under the current rules when next opened, it shows what its frames show."""
    to_main_phase(table)
    table = _older(table)
    client.force_login(alice)
    html = client.get(f"/playtest/tables/{table.pk}/").content.decode()
    table.refresh_from_db()
    assert table.engine_version == ENGINE_VERSION and table.closed_step is None and not table.closed_under
    assert "Your hand" in html and "rule RV-5" not in html
    tables.table_act(table=table, action=(DRAW, 0, 0))
    table.refresh_from_db()
    assert unpack(table.frames) == game_frames(tables.table_state(table))


def test_a_table_that_would_show_otherwise_is_closed_and_its_replay_shows_it_as_it_was(client, alice, table):
    """docs/rules.md RV-5: its stored frames say step 1 read otherwise; it is closed there, its page becomes its
    replay (every card, as a game that ended) with the notice and a new table offered, and nothing is played."""
    to_main_phase(table)
    tables.table_act(table=table, action=(DRAW, 0, 0))
    table.refresh_from_db()
    frames = unpack(table.frames)
    frames[1]["all"]["said"] = "South keeps the hand, as the older rules said it."
    table = _older(table, frames)
    client.force_login(alice)
    page = client.get(f"/playtest/tables/{table.pk}/")
    assert page.status_code == 302 and page["Location"] == f"/playtest/tables/{table.pk}/replay/"
    table.refresh_from_db()
    assert table.closed_step == 1 and table.closed_under == ENGINE_VERSION and table.engine_version == OLDER
    html = client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    assert "closed when the rules changed" in html and "from step 1 on" in html and "rule RV-5" in html
    assert "South keeps the hand, as the older rules said it." in html
    assert f"Step {len(table.actions)} of {len(table.actions)}" in html
    assert "Open a new table with this deck" in html and 'name="what" value="table"' in html
    acted = client.post(f"/playtest/tables/{table.pk}/act/", {"action": "1,0,0"})
    assert acted.status_code == 302 and GoldfishTable.objects.get(pk=table.pk).actions == table.actions
    api = client.get(f"/api/goldfish-tables/{table.pk}/")
    assert api.status_code == 409 and "RV-5" in str(api.json())
    with pytest.raises(DomainError):
        tables.table_undo(table=table)
    assert unpack(GoldfishTable.objects.get(pk=table.pk).frames) == frames  # kept as they were
    opened = client.post(f"/playtest/new/?deck={table.deck_id}", {"deck": table.deck_id, "what": "table"})
    assert opened.status_code == 302
    assert GoldfishTable.objects.exclude(pk=table.pk).get().engine_version == ENGINE_VERSION


def test_a_finished_table_of_older_rules_is_shown_from_its_frames_as_it_was_played(client, alice, table):
    """docs/rules.md RV-4: not replayed under the new rules; its replay names the version."""
    to_main_phase(table)
    table.refresh_from_db()
    frames = unpack(table.frames)
    frames[-1]["all"]["seen"]["phase"] = "over"  # as if the older rules had ended the game there
    table = _older(table, frames)
    client.force_login(alice)
    assert client.get(f"/playtest/tables/{table.pk}/").status_code == 302
    html = client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    table.refresh_from_db()
    assert table.engine_version == OLDER and not table.closed_under
    assert "Played under rules version <strong>0.9.0-test</strong>" in html and "rule RV-4" in html
    assert tables.table_secrets(table)["over"]


def test_a_table_of_older_rules_with_nothing_stored_says_so_instead_of_failing(client, alice, table):
    """docs/rules.md RV-6."""
    GoldfishTable.objects.filter(pk=table.pk).update(engine_version="0.0.1", frames=b"")
    client.force_login(alice)
    response = client.get(f"/playtest/tables/{table.pk}/", follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "closed when the rules changed" in html and "Open a new table with this deck" in html


def test_someone_elses_table_is_a_404(client, table, bob):
    client.force_login(bob)
    assert client.get(f"/playtest/tables/{table.pk}/").status_code == 404
    assert client.post(f"/playtest/tables/{table.pk}/act/", {"action": "1,0,0"}).status_code == 404


def test_the_table_presents_a_response_window_where_the_person_may_answer_or_pass(table):
    """DG-15.5: the opponent deployed; the person holds an instant and the talent points: answer or pass."""
    from django.template.loader import render_to_string

    from playtest.goldfish.presenter import table_view
    from tests.playtest.dreadgate.factories import ability, give, talent, unit
    from tests.playtest.dreadgate.factories import game as engine_game

    zap = talent("T-ZP", ability("instant", {"op": "damage", "amount": 1, "target": {"select": "chosen",
                                                                                     "side": "enemy"}}, cost=1),
                 cost=1, instant=True)  # fmt: skip
    state = engine_game(zap, unit("U-DM", 2, 0, 0))
    me = tables.human_seat(state)
    if state.active == me:
        state.apply((END, 0, 0))
    give(state, 1 - state.active, "T-ZP")
    give(state, state.active, "U-DM")
    state.tp[me] = 1
    state.apply((DEPLOY, state.by_code["U-DM"], 2 if state.active == 0 else 22))
    from playtest.goldfish.board import CardFaces

    view = table_view(state, CardFaces({}), log=[])  # a hand-built position has no replayable log
    assert view["window"] and view["yours"]
    assert [c["verb"] for c in view["choices"]] == ["instant", "pass"]
    html = render_to_string("playtest/table.html#table", {"table": table, "view": view})
    assert "your answer" in html and 'value="8,0,0"' in html and "DG-15.5" in html


def test_conceding_ends_the_game_lost_its_seed_revealed_and_nothing_more_played(client, alice, table):
    """A concession (the table's, the engine has none): the opponent wins where the game stands, the seed and nonce
    are revealed (DG-4.6), every further move is refused as for a finished game (DG-1.2), and the replay shows every
    card and says who conceded."""
    to_main_phase(table)
    played = len(table.actions)
    tables.table_concede(table=table)
    table.refresh_from_db()
    assert table.conceded_step == played
    assert tables.table_secrets(table) == {"commitment": table.commitment, "over": True, "seed": table.seed,
                                           "nonce": table.nonce}
    for move in (lambda: tables.table_act(table=table, action=(DRAW, 0, 0)), lambda: tables.table_undo(table=table),
                 lambda: tables.table_concede(table=table), lambda: tables.table_place_dummy(table=table, cell="c5")):
        with pytest.raises(tables.TableRefused) as refused:
            move()
        assert refused.value.rule in ("DG-1.2", "DG-4.6")
    assert len(GoldfishTable.objects.get(pk=table.pk).actions) == played
    client.force_login(alice)
    html = client.get(f"/playtest/tables/{table.pk}/").content.decode()
    over = html[html.index('class="game-over"'):html.index("</section>", html.index('class="game-over"'))]
    assert "You lost" in over and "You conceded" in over
    assert "Concede" not in html[html.index("</section>", html.index('class="game-over"')):]  # nothing to concede
    frames, viewer, _ = tables.table_replay(table)
    assert viewer == "all"  # every card: the game is over
    replay = client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    assert f"You conceded after {played} actions: the opponent won." in replay
    payload = client.get(f"/api/goldfish-tables/{table.pk}/").json()
    assert payload["over"] and payload["legal_actions"] == [] and payload["seed"] == table.seed


def test_a_concession_is_posted_from_the_table_and_refused_once_the_game_is_over(client, alice, table):
    to_main_phase(table)
    client.force_login(alice)
    response = client.post(f"/playtest/tables/{table.pk}/concede/")
    assert response.status_code == 200 and "You lost" in response.content.decode()
    again = client.post(f"/playtest/tables/{table.pk}/concede/")
    refusal = again.content.decode()
    assert again.status_code == 400 and "the game is over" in refusal and "DG-1.2" in refusal


def test_the_replay_names_the_seat_deciding_not_the_seat_on_turn(client, alice, table):
    """After the first player keeps its hand, the second decides its own (DG-4.5): the replay said the first was to
    act, as it said the player on turn in a defence or an answer."""
    if (KEEP, 0, 0) in tables.table_state(table).legal_actions():
        tables.table_act(table=table, action=(KEEP, 0, 0))
    table.refresh_from_db()
    step = next(k for k in range(len(table.actions) + 1)
                if (st := tables.table_state(table, steps=k)).current_player == 1 - st.active)
    replayed = tables.table_state(table, steps=step)
    client.force_login(alice)
    html = client.get(f"/playtest/tables/{table.pk}/replay/?step={step}").content.decode()
    seats = ("South", "North")
    deciding, on_turn = seats[replayed.current_player], seats[replayed.active]
    assert f"· {deciding} to act ·" in html and f"· {on_turn} to act ·" not in html
