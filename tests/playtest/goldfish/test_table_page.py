"""The goldfish table's page: cards as their faces, units with their stats and states, a status that reads
right, choices on the board in distinct styles, and the text path (all legal actions, the notation box)."""

import re

import pytest
from django.template.loader import render_to_string

from cards.models import Card
from core.crafts import CRAFT_ORDER
from playtest import dreadgate
from playtest.dreadgate.actions import (
    ATTACK,
    DEFEND,
    DEPLOY,
    DRAW,
    END,
    KEEP,
    MOVE,
    PASS,
    PLAY,
    RECYCLE,
    STRIKE,
    TARGET_DIST,
    USE,
)
from playtest.dreadgate.board import cell_name
from playtest.dreadgate.state import OVER_PHASE, RESPONSE_PHASE
from playtest.goldfish import services as tables
from playtest.goldfish.board import CardFaces
from playtest.goldfish.last_move import action_cells, opponent_last_move
from playtest.goldfish.presenter import encode, table_view
from playtest.models import GoldfishTable
from tests.playtest.dreadgate.factories import ability, game, give, item, put, talent, unit
from tests.playtest.dreadgate_decks import starter_deck
from tests.playtest.goldfish.quick_win import dummy_cell, guarded_deck, waiting_step

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice):
    table = tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=11)
    state = tables.table_state(table)
    if (KEEP, 0, 0) in state.legal_actions():
        tables.table_act(table=table, action=(KEEP, 0, 0))
    table.refresh_from_db()
    return table


def page(client, alice, table, query: str = "") -> str:
    client.force_login(alice)
    response = client.get(f"/playtest/tables/{table.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def cell_html(html: str, cell: str) -> str:
    """The board cell's markup, from its opening tag (with its classes) to the next cell."""
    start = html.rindex('<div role="gridcell"', 0, html.index(f'data-cell="{cell}"'))
    end = html.find('role="gridcell"', start + 20)
    return html[start:end if end > 0 else len(html)]


def deploy_first_unit(table):
    state = tables.table_state(table)
    action = next(a for a in state.legal_actions() if a[0] == DEPLOY)
    state = tables.table_act(table=table, action=action)
    return state, state.units[state.board[action[2]]]


def test_the_hand_shows_each_card_as_its_face_with_its_name_and_rules_text(client, alice, table):
    state = tables.table_state(table)
    me = tables.human_seat(state)
    card = state.inst[state.hand[me][0]]
    html = page(client, alice, table)
    hand = html[html.index('id="hand-h"'):html.index("</section>", html.index('id="hand-h"'))]
    assert f'<img class="face" src="/cards/{card.code}.svg"' in hand
    text = Card.objects.get(collector_number=card.code).text
    zoom = hand[hand.index(f'id="z-h{card.index}"'):]
    assert card.card.name in zoom[:400] and (not text or text[:40] in zoom)


def test_a_unit_on_the_board_is_its_face_with_current_stats_over_printed_and_its_state_badges(client, alice, table,
                                                                                              monkeypatch):
    state, unit = deploy_first_unit(table)
    printed_attack = unit.c.card.attack
    built = tables.table_state

    def raised(table):  # an effect raised the unit's attack by 2
        state = built(table)
        state.units[unit.iid].atk = printed_attack + 2
        return state

    monkeypatch.setattr(tables, "table_state", raised)
    cell = cell_html(page(client, alice, table), cell_name(unit.cell))
    assert f'<img class="face" src="/cards/{unit.c.code}.svg"' in cell
    attack = re.search(r'<span class="stat stat-attack([^"]*)">.*?</span></span>', cell).group(0)
    assert "changed up" in attack
    assert f'<span class="now">{printed_attack + 2}</span><span class="was">{printed_attack}</span>' in attack
    assert f"attack {printed_attack + 2} (printed {printed_attack})" in cell  # the cell's words say it too
    assert 'class="badge-state state-fresh"' in cell and "Deployed this turn" in cell  # word and icon
    assert '<use href="#i-spark">' in cell


def test_the_status_names_whose_turn_the_phase_the_points_and_the_formats_targets(client, alice, table):
    html = page(client, alice, table)
    status = html[html.index('class="status-line"'):html.index("</div>", html.index('class="status-line"'))]
    assert "your decision" in status and "main phase" in status and "<strong>4</strong> action points left" in status
    assert re.search(r"You \((South|North)\): Beyond 0 / 40 to win · Boneyard 0 / 20 to lose", status)
    assert "Opponent (" in status


def test_the_action_points_said_are_the_persons_own_in_their_turn_only(alice):
    state = game(keep=False)
    assert hand_built_view(state)["ap"] is None  # the opening hands: no points before the game
    state = game()
    me = tables.human_seat(state)
    if state.active == me:
        state.apply((END, 0, 0))
    assert state.active != me and hand_built_view(state)["ap"] is None  # the opponent's turn: not the person's
    state.apply((END, 0, 0))
    assert state.active == me and hand_built_view(state)["ap"] == state.ap > 0


def test_a_selected_card_that_can_only_be_recycled_says_what_keeps_it_from_play(alice):
    state = game(unit("U-BIG", vit=30))  # its deploy costs its vitality in points (DG-7): far more than a turn's
    me = tables.human_seat(state)
    while state.current_player != me:
        state.apply((END, 0, 0))
    iid = give(state, me, "U-BIG")
    key = f"h{state.inst[iid].index}"
    history = list(state.history)
    view = hand_built_view(state, key)
    assert view["selection"] == key and [c["action"][0] for c in view["menu"]] == [RECYCLE]
    assert "rule DG-" in view["why_not"] and "Card U-BIG" in view["why_not"]
    assert list(state.history) == history  # asking left the game as it was


def test_a_quick_table_shows_the_quick_formats_targets(client, alice):
    quick = tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=11, format="quick")
    html = page(client, alice, quick)
    assert "Beyond 0 / 20 to win · Boneyard 0 / 10 to lose" in html


def test_the_log_names_the_card_and_the_player(client, alice, table):
    state, unit = deploy_first_unit(table)
    html = page(client, alice, table)
    log = html[html.index('id="log-h"'):]
    assert f"You deploy {unit.c.card.name} on {cell_name(unit.cell)}" in log


def test_a_selected_hand_card_lights_its_deploy_cells_and_offers_what_lands_on_no_cell(client, alice, table):
    state = tables.table_state(table)
    deploy = next(a for a in state.legal_actions() if a[0] == DEPLOY)
    html = page(client, alice, table, f"?sel=h{deploy[1]}")
    cell = cell_html(html, cell_name(deploy[2]))
    assert "target-deploy" in cell and f'value="{deploy[0]},{deploy[1]},{deploy[2]}"' in cell
    assert f"Deploy {state.defs[deploy[1]].card.name} on {cell_name(deploy[2])}" in cell
    assert 'class="unit-menu"' in html and f"Recycle {state.defs[deploy[1]].card.name}" in html
    drops = re.search(rf'data-key="h{deploy[1]}" draggable="true" data-drops="([^"]*)"', html).group(1)
    assert f"{cell_name(deploy[2])}={deploy[0]},{deploy[1]},{deploy[2]}" in drops.split(";")  # or drag it there
    assert re.search(rf'href="\?" data-key="h{deploy[1]}"', html)  # a second click on it clears the selection


def hand_built_view(state, selection=""):
    """The table's view of a position set up by hand (it has no replayable log)."""
    return table_view(state, CardFaces({}), selection, log=[])


def render_table(table, view) -> str:
    return render_to_string("playtest/table.html#table", {"table": table, "view": view})


def test_a_selected_unit_lights_its_moves_and_attack_targets_in_two_styles(table):
    state = game(unit("U-AA", rng=2), unit("U-EE"))
    me = tables.human_seat(state)
    if state.active != me:
        state.apply((END, 0, 0))
    mine = put(state, me, "U-AA", "c2" if me == 0 else "c4")
    enemy = put(state, 1 - me, "U-EE", "c4" if me == 0 else "c2")
    html = render_table(table, hand_built_view(state, f"u{mine.iid}"))
    moves = [a for a in state.legal_actions() if a[0] == MOVE and a[1] == mine.iid]
    assert moves and (ATTACK, mine.iid, enemy.iid) in state.legal_actions()
    for move in moves:
        cell = cell_html(html, cell_name(move[2]))
        assert "target-move" in cell and '<use href="#i-arrow">' in cell and "target-attack" not in cell
    sideways = next(m for m in moves if cell_name(m[2]) == "b" + cell_name(mine.cell)[1])  # toward the a file
    assert f"turn-{6 if me == 0 else 2}" in cell_html(html, cell_name(sideways[2]))  # its arrow points that way
    target = cell_html(html, cell_name(enemy.cell))
    assert "target-attack" in target and '<use href="#i-crosshair">' in target and "target-move" not in target
    assert f'value="{ATTACK},{mine.iid},{enemy.iid}"' in target
    assert 'aria-current="true"' in cell_html(html, cell_name(mine.cell))  # the selected unit says so


def test_a_talents_target_is_chosen_on_the_board(table):
    zap = talent("T-ZP", ability("play", {"op": "damage", "amount": 1, "target": {"select": "chosen",
                                                                                  "side": "enemy"}}), cost=1)
    state = game(zap, unit("U-EE"), unit("U-E2"))
    me = tables.human_seat(state)
    if state.active != me:
        state.apply((END, 0, 0))
    enemy = put(state, 1 - me, "U-EE", "c4")
    put(state, 1 - me, "U-E2", "a4")  # two candidates: the rules ask which
    give(state, me, "T-ZP")
    html = render_table(table, hand_built_view(state, f"h{state.by_code['T-ZP']}"))
    assert "Play Card T-ZP" in html  # the talent's menu: playing it lands on no cell
    state.apply(next(a for a in state.legal_actions() if a[0] == PLAY))  # play it: the rules ask for a target
    view = hand_built_view(state)
    assert view["answering"]
    cell = cell_html(render_table(table, view), cell_name(enemy.cell))
    assert "target-aim" in cell and "Target Card U-EE on c4" in cell


def test_every_legal_action_stays_in_a_collapsed_panel(client, alice, table):
    state = tables.table_state(table)
    html = page(client, alice, table)
    start = html.index('<details class="all-actions">')
    panel = html[start:html.index("</details>", start)]
    assert "<details" in panel and " open" not in panel.split(">", 1)[0]
    assert panel.count('class="choice"') == len(state.legal_actions())


def test_the_command_box_plays_an_action_typed_in_the_notation(client, alice, table):
    client.force_login(alice)
    before = len(tables.table_state(table).history)
    response = client.post(f"/playtest/tables/{table.pk}/act/", {"notation": "draw"})
    assert response.status_code == 200 and "You draw a card" in response.content.decode()
    state = tables.table_state(GoldfishTable.objects.get(pk=table.pk))
    assert state.history[before] == (DRAW, 0, 0)


def test_a_command_that_is_no_action_is_a_400_naming_the_field(client, alice, table):
    client.force_login(alice)
    response = client.post(f"/playtest/tables/{table.pk}/act/", {"notation": "fly to the moon"})
    assert response.status_code == 400
    assert "notation:" in response.content.decode()


def test_the_tables_replay_opens_at_the_last_step_on_the_same_board_with_a_scrubber(client, alice, table):
    state, unit = deploy_first_unit(table)
    client.force_login(alice)
    html = client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    steps = len(state.history)
    assert f"Step {steps} of {steps}" in html
    assert (f'<input type="range" id="replay-step" data-control="step" name="step" min="0" max="{steps}" '
            f'value="{steps}"') in html
    cell = cell_html(html, cell_name(unit.cell))
    assert f'<img class="face" src="/cards/{unit.c.code}.svg"' in cell
    first = client.get(f"/playtest/tables/{table.pk}/replay/?step=0").content.decode()
    assert "Step 0 of" in first and 'class="unit-tile' not in first


def test_a_fresh_table_opens_on_the_opening_hand_with_keep_and_mulligan(client, alice):
    fresh = tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=11)
    state = tables.table_state(fresh)
    assert (KEEP, 0, 0) in state.legal_actions()
    html = page(client, alice, fresh)
    bar = html[html.index('class="turn-bar"'):html.index("</div>", html.index('class="turn-bar"'))]
    assert "Your opening hand" in bar and "DG-4.5" in bar
    assert ">Keep your hand</button>" in bar and ">Take a mulligan</button>" in bar


def won_by_the_person(monkeypatch):
    """Every table read as won by its person through the Gateway; undone by `monkeypatch.undo()`."""
    built = tables.table_state

    def won(table, steps=None):
        state = built(table, steps)
        state.winner, state.condition, state.phase = tables.human_seat(state), "beyond", OVER_PHASE
        return state

    monkeypatch.setattr(tables, "table_state", won)


def test_a_finished_game_offers_play_again_and_the_replay(client, alice, table, monkeypatch):
    won_by_the_person(monkeypatch)
    html = page(client, alice, table)
    over = html[html.index('class="game-over"'):html.index("</section>", html.index('class="game-over"'))]
    assert "You won" in over and "Your units through the Gateway reached the win total (rule DG-1.2), after" in over
    assert f'name="deck" value="{table.deck_id}"' in over and "Play again with this deck (new seed)" in over
    assert f'/playtest/tables/{table.pk}/replay/?step=0' in over
    assert f'/playtest/new/?deck={table.deck_id}">New game</a>' in over
    # nothing else is offered: the game allows none of it any more
    for gone in ("Undo", "Let the AI play this turn", "Training dummy at", "Replay so far", 'id="notation"',
                 "All legal actions", 'class="table-controls"'):
        assert gone not in html, gone


def test_play_again_after_a_strong_level_game_opens_a_strong_level_table(client, alice, monkeypatch):
    deck, rival = starter_deck(alice, craft="hinter"), starter_deck(alice, craft="sorcery")
    strong = tables.table_create(owner=alice, deck_id=deck.pk, seed=3, opponent_deck_id=rival.pk, level="strong")
    won_by_the_person(monkeypatch)
    html = page(client, alice, strong)
    form = html[html.index('class="game-over"'):]
    form = form[:form.index("</form>")]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    assert fields["table_level"] == "strong"
    monkeypatch.undo()
    answer = client.post(f"/playtest/new/?deck={deck.pk}", fields)
    again = GoldfishTable.objects.exclude(pk=strong.pk).get()
    assert answer.status_code == 302 and tables.table_level(again) == "strong"


def test_the_controls_are_those_the_moment_allows(client, alice, table):
    html = page(client, alice, table)  # the hand kept: an undo, the person's decision, a passive opponent
    start = html.index('class="table-controls"')
    controls = html[start:html.index("</div>", start)]
    for shown in ("Undo", "Let the AI play this turn", "Training dummy at", "Replay so far", "New game"):
        assert shown in controls, shown
    fresh = tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=11)
    controls = page(client, alice, fresh)
    assert "Let the AI play this turn" in controls and "Undo</button>" not in controls  # nothing to undo yet
    against_ai = tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=11,
                                     opponent_deck_id=starter_deck(alice, craft="hinter").pk)
    assert "Training dummy at" not in page(client, alice, against_ai)  # the AI deploys its own units


def north_table(alice):
    """A table where the rules seat the person North (the second player, DG-4.3)."""
    deck = starter_deck(alice)
    for seed in range(40):
        table = tables.table_create(owner=alice, deck_id=deck.pk, seed=seed)
        if tables.human_seat(tables.table_state(table)) == 1:
            return table
    raise AssertionError("no seed seats the person North")


def test_the_person_is_at_the_bottom_of_the_board_and_first_in_the_scores_in_the_north_seat(client, alice):
    table = north_table(alice)
    html = page(client, alice, table)
    cells = re.findall(r'data-cell="([a-e][1-5])"', html[html.index('class="board"'):html.index('id="hand-h"')])
    assert cells[:5] == ["e1", "d1", "c1", "b1", "a1"] and cells[-5:] == ["e5", "d5", "c5", "b5", "a5"]
    assert "your side (North) at the bottom" in html
    assert re.search(r'<span class="score mine">You \(North\)', html)
    assert html.index(">You (North)</h3>") < html.index(">Opponent (South)</h3>")


def test_a_finished_tables_replay_is_drawn_from_the_persons_side(client, alice, monkeypatch):
    table = north_table(alice)
    built = tables.table_state

    def won(table, steps=None):
        state = built(table, steps)
        state.winner, state.condition, state.phase = tables.human_seat(state), "beyond", OVER_PHASE
        return state

    monkeypatch.setattr(tables, "table_state", won)
    client.force_login(alice)
    html = client.get(f"/playtest/tables/{table.pk}/replay/").content.decode()
    assert "still running" not in html  # every card: the game is over
    cells = re.findall(r'data-cell="([a-e][1-5])"', html)
    assert cells[:5] == ["e1", "d1", "c1", "b1", "a1"] and cells[-5:] == ["e5", "d5", "c5", "b5", "a5"]
    assert "North at the bottom, South at the top" in html


def test_in_the_defence_step_the_defender_picks_an_attacker_on_the_board_then_its_share(table):
    """DG-10.8: two units attack the person's unit; they distribute its defense attacker by attacker."""
    state = game(unit("U-CA"), unit("U-CB"), unit("U-CC", 5, 1, 2))
    me = tables.human_seat(state)
    if state.active == me:
        state.apply((END, 0, 0))
    first = put(state, 1 - me, "U-CA", "b2")
    put(state, 1 - me, "U-CB", "c2")
    put(state, me, "U-CC", "b3")
    for text in ("attack b2 b3", "attack c2 b3", "strike"):
        state.apply(dreadgate.parse_action(state, text))
    assert state.current_player == me
    view = hand_built_view(state)
    assert view["answering"] and view["phase_words"] == "defence step"
    html = render_table(table, view)
    assert "select an attacker, then the defense it gets" in html
    for cell in ("b2", "c2"):
        attacker = cell_html(html, cell)
        assert "target-defend" in attacker and '<use href="#i-shield">' in attacker
        assert 'class="unit-face" href="?sel=u' in attacker  # the attacker may be picked
    picked = render_table(table, hand_built_view(state, f"u{first.iid}"))
    menu = picked[picked.index('class="unit-menu"'):picked.index("</div>", picked.index('class="unit-menu"'))]
    assert "Put 2 defense points against Card U-CA" in menu and f'value="{DEFEND},{first.iid},2"' in menu


def test_a_units_ability_is_in_its_menu(table):
    heal = ability("activated", {"op": "heal", "amount": 1, "target": {"select": "self"}}, cost=1, name="Mend")
    state = game(unit("U-AB", abilities=[heal]))
    me = tables.human_seat(state)
    if state.active != me:
        state.apply((END, 0, 0))
    mine = put(state, me, "U-AB", "c2")
    uses = [a for a in state.legal_actions() if a[1] == mine.iid and a[0] == USE]
    assert uses, "the unit may use its ability"
    html = render_table(table, hand_built_view(state, f"u{mine.iid}"))
    menu = html[html.index('class="unit-menu"'):html.index("</div>", html.index('class="unit-menu"'))]
    assert "Use Card U-AB&#x27;s Mend" in menu and f'value="{USE},{mine.iid},' in menu


@pytest.mark.parametrize("selection", ["u99999", "h99999", "hx", "board", "u"])
def test_a_selection_of_nothing_that_may_act_shows_the_table_without_one(client, alice, table, selection):
    html = page(client, alice, table, f"?sel={selection}")
    assert 'data-selection=""' in html and 'class="unit-menu"' not in html


def test_the_direction_and_the_distance_of_a_move_are_chosen_on_the_cells_they_lead_to(table):
    """DG-18.7 on the board: a talent that moves a unit up to 2 cells in a chosen direction lights the cells
    next to the unit, one per direction, then the cells where it may stop."""
    shove = talent("T-SH", ability("play", {"op": "move", "distance": 2, "direction": "chosen",
                                            "target": {"select": "chosen", "side": "enemy"}}), cost=1)
    state = game(shove, unit("U-EE"), unit("U-E2"))
    me = tables.human_seat(state)
    if state.active != me:
        state.apply((END, 0, 0))
    enemy = put(state, 1 - me, "U-EE", "c4")
    give(state, me, "T-SH")
    state.apply(next(a for a in state.legal_actions() if a[0] == PLAY))  # the only enemy: no unit to choose
    html = render_table(table, hand_built_view(state))
    ways = state.answer_cells()
    assert len(ways) == 8  # c4 has a neighbour every way
    assert "choosing a direction" in html
    for action, cell in ways.items():
        lit = cell_html(html, cell_name(cell))
        assert f'value="{encode(action)}"' in lit
        assert (f"turn-{action[1]}" in lit) == (action[1] > 0)  # its arrow points its way (0: forward, up)
    state.apply(next(a for a, cell in ways.items() if cell_name(cell) == "b4"))  # toward the a file: 1 or 2 cells
    html = render_table(table, hand_built_view(state))
    stops = {cell_name(cell): action for action, cell in state.answer_cells().items()}
    assert set(stops) == {"b4", "a4"} and stops["a4"] == (TARGET_DIST, 2, 0)
    assert "choosing how far it moves" in html
    a4 = cell_html(html, "a4")
    assert "target-move" in a4 and f'value="{encode(stops["a4"])}"' in a4 and "stop here" in a4
    assert f"turn-{6 if me == 0 else 2}" in a4  # toward the a file: left on South's board, right on North's
    state.apply(stops["a4"])
    assert cell_name(enemy.cell) == "a4"


def test_the_opponents_last_action_is_marked_on_its_cells_and_said_in_words(client, alice, table):
    """The passive opponent deploys the dummy asked for: the cell it went to is ringed and tagged, the line above the
    board and the cell's words say so; the person's own moves mark nothing."""
    state = tables.table_state(table)
    me = tables.human_seat(state)
    cell = "c5" if me == 0 else "c1"
    tables.table_place_dummy(table=table, cell=cell)
    html = page(client, alice, table)
    assert 'class="last-ring' not in html  # only its keep so far: nothing on the board
    tables.table_act(table=table, action=(END, 0, 0))
    table.refresh_from_db()
    html = page(client, alice, table)
    last = html[html.index('class="last-move"'):html.index("</p>", html.index('class="last-move"'))]
    assert "The opponent deploys Training Dummy on " + cell in last and f"marked on the board: {cell}" in last
    marked = cell_html(html, cell)
    assert 'class="last-ring last-to"' in marked and '<span class="last-word">to</span>' in marked
    assert f"the opponent&#x27;s Training Dummy on {cell}, vitality 2" in marked  # its words, the owner in words
    assert "the opponent's last action: it went here" in marked
    assert html.count('class="last-ring') == 1


def test_a_unit_is_named_in_words_its_owner_its_cell_and_its_stats(client, alice, table):
    state, mine = deploy_first_unit(table)
    spot = cell_name(mine.cell)
    cell = cell_html(page(client, alice, table), spot)
    said = re.search(r'<span class="visually-hidden">([^<]*)</span>', cell).group(1)
    assert said.startswith(f"your {mine.c.card.name} on {spot}, vitality {mine.vit}, attack {mine.atk}")
    assert "deployed this turn" in said


def test_the_cells_of_an_action_by_their_part_in_it(table):
    """Where a move came from and went to, an attack's attacker and target, a strike's attackers and target."""
    state = game(unit("U-AA", rng=2), unit("U-AB"), unit("U-EE"))
    me = tables.human_seat(state)
    if state.active != me:
        state.apply((END, 0, 0))
    a = put(state, me, "U-AA", "c2")
    b = put(state, me, "U-AB", "b3")
    enemy = put(state, 1 - me, "U-EE", "c3")
    move = next(x for x in state.legal_actions() if x[0] == MOVE and x[1] == a.iid)
    assert action_cells(state, move) == {"c2": {"from"}, cell_name(move[2]): {"to"}}
    assert action_cells(state, (ATTACK, a.iid, enemy.iid)) == {"c2": {"from"}, "c3": {"target"}}
    for text in ("attack c2 c3", "attack b3 c3"):
        state.apply(dreadgate.parse_action(state, text))
    assert action_cells(state, (STRIKE, 0, 0)) == {"c2": {"from"}, "b3": {"from"}, "c3": {"target"}}
    assert b.iid in state.units


def test_a_pass_in_the_opponents_own_window_is_neither_marked_nor_said(table):
    """DG-15.7: the person equips an item; the opponent, holding an instant, is offered a window and passes. That pass
    is not the opponent's last action for the person: nothing is said of it (the opponent sees the equip itself)."""
    zap = talent("T-ZP", ability("instant", {"op": "damage", "amount": 1, "target": {"select": "chosen",
                                                                                     "side": "enemy"}}, cost=1),
                 cost=1, instant=True)
    sword = item("I-SW", ability("equipped", {"op": "modify", "stat": "attack", "amount": 2,
                                              "duration": "while_source", "target": {"select": "bearer"}}), cost=1)
    state = game(unit("U-PW"), zap, sword)
    put(state, 0, "U-PW", "b2")
    give(state, 1, "T-ZP")
    state.tp[1] = 1
    give(state, 0, "I-SW")
    start = state.copy()
    state.apply(dreadgate.parse_action(state, "equip I-SW b2"))
    assert state.phase == RESPONSE_PHASE and state.current_player == 1  # North's window
    state.apply((PASS, 0, 0))
    played = state.history[len(start.history):]
    assert opponent_last_move(start.copy(), played, me=0) is None  # South is never told of the window
    seen_by_north = opponent_last_move(start.copy(), played, me=1)
    assert seen_by_north.cells == {"b2": ("target",)} and "equip" in seen_by_north.words


def test_the_window_at_the_start_of_the_opponents_turn_says_so_not_that_an_action_can_be_answered(client, alice):
    """DG-15.6: the person ends their turn holding an instant and the talent points, the training dummy a target for
    it; the opponent's turn begins with the person's window, before it has done anything. The status said "the
    opponent's action can be answered", and there was none: it says the turn begins. Once the opponent has acted,
    a window is an answer to its action again."""
    deck = guarded_deck(alice)
    for seed in range(1, 20):
        table = tables.table_create(owner=alice, deck_id=deck.pk, seed=seed)
        me = tables.human_seat(tables.table_state(table))
        tables.table_place_dummy(table=table, cell=dummy_cell(me))
        table.refresh_from_db()
        for _ in range(30):
            state = tables.table_state(table)
            if state.is_over() or state.phase == RESPONSE_PHASE and state.current_player == me:
                break
            tables.table_act(table=table, action=waiting_step(state))
            table.refresh_from_db()
        if state.phase == RESPONSE_PHASE and state.history[-1] == (END, 0, 0) and not state.ending:
            break  # the person's window, the opponent's turn just begun after the person's end
    else:
        raise AssertionError("no seed gives the person a window at the start of the opponent's turn")
    view = table_view(state, CardFaces({}))
    assert view["window"] == "start"
    status = page(client, alice, table).split('class="turn-status"')[1].split("</p>")[0]
    assert "the opponent's turn begins: before it acts, you may play an instant" in status
    assert "the opponent's action" not in status and 'href="/rules/#DG-15.6"' in status
    # the same window after an action of the opponent's: what it answers
    state.apply((PASS, 0, 0))
    state.apply((DRAW, 0, 0))  # the opponent's first action of its turn
    assert state.phase == RESPONSE_PHASE and state.current_player == me, "no window after the draw: the dummy?"
    assert table_view(state, CardFaces({}))["window"] == "action"


def test_a_move_from_a_page_that_showed_an_earlier_step_is_refused_and_the_table_shown_as_it_is(client, alice, table):
    """Another tab played on: a draw or an end clicked on this page would be played in a position its player never
    saw. The page's forms send the step they showed; a later table refuses them (409) and plays nothing."""
    html = page(client, alice, table)
    shown = int(re.search(r'id="act-form"[^>]*>.*?name="step" value="(\d+)"', html, re.S)[1])
    assert shown == len(table.actions) and html.count(f'name="step" value="{shown}"') >= 2  # the act and undo forms
    tables.table_act(table=table, action=(DRAW, 0, 0))  # elsewhere
    table.refresh_from_db()
    played = list(table.actions)
    answer = client.post(f"/playtest/tables/{table.pk}/act/", {"action": encode((END, 0, 0)), "step": shown})
    assert answer.status_code == 409 and "The table has moved on since this page showed it" in answer.content.decode()
    table.refresh_from_db()
    assert table.actions == played
    for path, fields in (("undo/", {}), ("act/", {"notation": "end"}), ("ai-turn/", {})):
        assert client.post(f"/playtest/tables/{table.pk}/{path}", {**fields, "step": shown}).status_code == 409, path
    table.refresh_from_db()
    assert table.actions == played
    now = client.post(f"/playtest/tables/{table.pk}/act/", {"action": encode((END, 0, 0)), "step": len(played)})
    assert now.status_code == 200
    table.refresh_from_db()
    assert len(table.actions) > len(played)


def test_the_playtest_page_lists_the_persons_newest_tables_to_go_back_to(client, alice, bob, table):
    """Left mid-game, a table was found again only by its address."""
    strong = tables.table_create(owner=alice, deck_id=starter_deck(alice).pk, seed=3,
                                 opponent_deck_id=starter_deck(alice, craft="sorcery", name="The AI's deck").pk,
                                 level="strong")
    tables.table_create(owner=bob, deck_id=starter_deck(bob).pk, seed=4)  # another person's: not listed
    client.force_login(alice)
    html = client.get("/playtest/").content.decode()
    listed = html[html.index('id="tables-h"'):]
    listed = listed[: listed.index("</ul>")]
    assert listed.count("<li>") == 2 and listed.index(str(strong.pk)) < listed.index(str(table.pk))  # newest first
    assert "against The AI&#x27;s deck (the AI, strong)" in listed and "against training dummies" in listed
    assert f"{len(table.human_moves)} move" in listed


def test_a_tactical_table_shows_no_beyond_it_does_not_have(client, alice):
    """Tactical is won only through the Boneyard (DG-1.4): its score said "Beyond 0" beside it."""
    from decks.models import Deck

    tactical = Deck.objects.filter(is_starter=True, format="tactical").order_by("pk").first()
    table = tables.table_create(owner=alice, deck_id=tactical.pk, seed=2)
    html = page(client, alice, table)
    scores = re.findall(r'class="score[^"]*"[^>]*>(.*?)</', html, re.S)
    assert scores and all("Beyond" not in s and "Boneyard" in s for s in scores), scores


def test_the_status_shows_every_kind_of_point_that_pays_a_cost(client, alice, table):
    """DG-7.3: a cost is paid by influence, then recycling points, then action points, and talent points last into
    the opponent's turn (DG-5.6): the status showed the action points alone, so a card recycled or a Legend's
    influence made a deploy cost less with nothing on the page to say why."""
    state = tables.table_state(table)
    recycle = next(a for a in state.legal_actions() if a[0] == RECYCLE)
    tables.table_act(table=table, action=recycle)
    table.refresh_from_db()
    state = tables.table_state(table)
    me = tables.human_seat(state)
    assert state.rp > 0
    status = page(client, alice, table).split('class="turn-status"')[1].split("</p>")[0]
    assert f"<strong>{state.ap}</strong> action points left" in status
    assert f"<strong>{state.rp}</strong> recycling point" in status
    assert f"<strong>{state.tp[me]}</strong> talent point" in status
    state.infl[0] = 2  # influence as a deployed Legend gives it: its craft and amount, beside the others
    view = table_view(state, CardFaces.from_decks(table.params["decks"], {}))
    assert view["influence"] == [(CRAFT_ORDER[0], 2)]
