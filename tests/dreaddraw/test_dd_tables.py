"""Dread Draw tables: creating, acting, refusals with rule numbers, access, polling, whole games."""

from __future__ import annotations

import html as html_text
import re

import pytest
from django.contrib.auth import get_user_model

from dreaddraw.engine import game_to_dict, to_notation
from dreaddraw.engine.decisions import reserve
from dreaddraw.engine.observation import visible_log
from dreaddraw.models import DreadDrawTable, TableStatus
from dreaddraw.services import table_act, table_create, table_game
from tests.dreaddraw.tables import played_to_the_end
from tests.support import without_tokens

pytestmark = pytest.mark.django_db


def make_user(name):
    return get_user_model().objects.create_user(name, password=f"pw-{name}-123")


def _human_turn(table, seat=0):
    game = table_game(table)
    assert game.to_move() == seat or game.over
    return game


def test_creating_a_table_from_the_form_lets_bots_play_until_the_person_decides(client, alice):
    response = client.post("/dread-draw/tables/new/", {"players": "3", "seat0": "local", "seat1": "bot:random",
                                                       "seat2": "bot:heuristic", "name0": "Ana"})
    table = DreadDrawTable.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == f"/dread-draw/tables/{table.pk}/"
    assert [s.name for s in table.seats.all()] == ["Ana", "Random bot", "Heuristic bot"]
    game = table_game(table)
    assert game.to_move() == 0
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert "Summon from the Draw Deck" in html and "Your decision." in html and "Ana to summon" in html


def test_a_bad_table_form_is_refused_with_a_message(client, alice):
    response = client.post("/dread-draw/tables/new/", {"players": "7"})
    assert response.status_code == 400
    assert "2 to 6 seats" in response.content.decode()
    response = client.post("/dread-draw/tables/new/", {"players": "2", "seat0": "bot:random", "seat1": "bot:random"})
    assert response.status_code == 400 and "At least one seat must be a person" in response.content.decode()
    response = client.post("/dread-draw/tables/new/", {"players": "three"})
    assert response.status_code == 400 and "players: Enter a whole number." in response.content.decode()
    response = client.post("/dread-draw/tournaments/new/", {"players": "2", "games": "many", "bot0": "random"})
    assert response.status_code == 400 and "games: Enter a whole number." in response.content.decode()


def test_an_illegal_decision_is_refused_with_its_rule_and_changes_nothing(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=7)
    table.refresh_from_db()
    _human_turn(table)
    before = list(table.decisions)
    response = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": 0, "decision": "R999"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    html = response.content.decode()
    assert 'Refused: card 999 is not in your Reserves — <a href="/rules/#DD-6.3">rule DD-6.3</a>' in html
    assert html.count("DD-6.3") == 2  # the link and its words; the message no longer repeats it
    table.refresh_from_db()
    assert table.decisions == before
    response = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": 0, "decision": "K3"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "DD-3.2" in response.content.decode()


@pytest.mark.parametrize("fields, words", [({}, "seat: This field is required."),
                                            ({"decision": "ZZ"}, "seat: This field is required."),
                                            ({"seat": "0", "turn": "abc"}, "turn: Enter a whole number."),
                                            # a seat no table has: not "You do not play seat 0" (seat -1, shown +1)
                                            ({"seat": "-1", "decision": "D"}, "seat: Ensure this value is greater"),
                                            ({"seat": "99999999999999999999", "decision": "D"},
                                             "seat: Ensure this value is less than or equal to 5")])
def test_a_move_the_page_would_not_send_is_refused_as_what_it_lacks_not_as_a_seat_not_played(client, alice,
                                                                                            fields, words):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=7)
    response = client.post(f"/dread-draw/tables/{table.pk}/act/", fields, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 400 and words in html and "You do not play" not in html


def test_only_seated_users_act(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=7)
    response = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": 1, "decision": "D"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    bob = make_user("bob")
    client.force_login(bob)
    response = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": 0, "decision": "D"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert "You are watching" in client.get(f"/dread-draw/tables/{table.pk}/").content.decode()


def test_a_stale_page_is_refused_and_shown_the_current_state(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=7)
    response = client.post(f"/dread-draw/tables/{table.pk}/act/",
                           {"seat": 0, "decision": "D", "turn": len(table.decisions) + 5}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409


def test_a_guest_joins_by_link_and_the_game_starts_when_the_table_is_full(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "invite"}, {"kind": "bot", "bot": "random"}],
                         seed=11)
    assert table.status == TableStatus.WAITING
    response = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": 0, "decision": "D"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    bob = make_user("bob")
    client.force_login(bob)
    assert "Take a seat" in client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    client.post(f"/dread-draw/tables/{table.pk}/join/")
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING
    assert table.seats.get(index=1).user == bob
    carol = make_user("carol")
    client.force_login(carol)
    assert client.post(f"/dread-draw/tables/{table.pk}/join/").status_code == 409


def test_polling_answers_204_until_something_changes(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=3)
    url = f"/dread-draw/tables/{table.pk}/board/?turn={len(table.decisions)}&status={table.status}"
    assert client.get(url).status_code == 204
    table_act(table_id=table.pk, user=alice, seat=0, decision="D")
    assert client.get(url).status_code == 200


def test_a_whole_game_against_bots_ends_with_the_fortune_and_survives_a_reload(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"},
                                             {"kind": "bot", "bot": "random"}], seed=5)
    table = played_to_the_end(table, moves=2000)
    assert table.status == TableStatus.OVER and table.winner_seat is not None
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert "wins the game" in html and "Game over" in html
    assert html.count("Won the game ·") == 1 and "In the round ·" not in html  # no round is under way any more
    assert ("The fortune (DD-8)" in html) == bool(table_game(table).fortune)  # told when the winner has Life cards
    again = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert without_tokens(again) == without_tokens(html)
    for sent in ("D", "", "ZZ"):  # whatever is sent once it is over, the refusal says that it is over
        refused = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": 0, "decision": sent},
                              HTTP_HX_REQUEST="true")
        assert refused.status_code == 400 and "the game is over" in refused.content.decode(), sent


def test_two_bots_of_one_level_are_told_apart_by_seat_in_the_players_and_the_log(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"},
                                             {"kind": "bot", "bot": "heuristic"}], seed=5)
    table = played_to_the_end(table, moves=2000)
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert "Heuristic bot (seat 2)" in html and "Heuristic bot (seat 3)" in html
    assert not re.search(r"Heuristic bot(?! \(seat [23]\))", html)  # never the bare name, which two seats share
    seats = client.get(f"/api/dreaddraw/tables/{table.pk}/").json()
    assert "Heuristic bot (seat 3)" in str(seats)


def test_a_seat_heading_says_its_seat_once(client, alice):
    """A name two seats share says its seat ("Heuristic bot (seat 2)"), and the heading said it again after it."""
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"},
                                             {"kind": "bot", "bot": "heuristic"}], seed=5)
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    headings = [" ".join(re.sub(r"<[^>]+>", " ", h).split())
                for h in re.findall(r'<li class="dd-player[^"]*">\s*<h3>(.*?)</h3>', html, re.S)]
    assert headings[1:] == ["Heuristic bot (seat 2)", "Heuristic bot (seat 3)"], headings
    assert re.fullmatch(r"(\S+ )?\w.* seat 1", headings[0]), headings  # a name of its own: the seat after it


def test_the_rules_named_by_the_turn_line_and_the_log_are_links_and_names_stay_text(client, alice):
    from dreaddraw.templatetags.rule_links import rule_links

    assert rule_links("lowest total (DD-3.6); <i>x</i>") == \
        'lowest total (<a href="/rules/#DD-3.6">DD-3.6</a>); &lt;i&gt;x&lt;/i&gt;'
    table = table_create(owner=alice, seats=[{"kind": "local", "name": "<b>Ann</b>"},
                                             {"kind": "bot", "bot": "heuristic"}], seed=5)
    table = played_to_the_end(table, moves=6)
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert "<b>Ann</b>" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html  # the turn line and the log: text


def test_people_sharing_a_screen_hand_it_over_before_their_cards_show(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local", "name": "Ana"}, {"kind": "local", "name": "Ben"}],
                         seed=21)
    game = table_game(table)
    first = ["Ana", "Ben"][game.to_move()]
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert f"Pass the screen to <strong>{first}</strong>" in html
    assert "Summon from the Draw Deck" not in html  # nothing private, no decisions, before the hand-over
    html = client.post(f"/dread-draw/tables/{table.pk}/reveal/", {"seat": game.to_move()},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Summon from the Draw Deck" in html and f"You are playing <strong>{first}</strong>" in html
    mover = game.to_move()
    decision = "D"
    while True:  # the summon, then any prompt it raises, until the turn passes
        html = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": mover, "decision": decision},
                           HTTP_HX_REQUEST="true").content.decode()
        table.refresh_from_db()
        now = table_game(table)
        if now.over or now.to_move() != mover:
            break
        assert "Your decision." in html  # still this person's move: their cards stay shown
        decision = to_notation(now.legal()[0])
    assert not now.over
    other = ["Ana", "Ben"][now.to_move()]
    assert f"Pass the screen to <strong>{other}</strong>" in html and "Summon from the Draw Deck" not in html


def test_a_playable_reserve_card_has_a_summon_button_and_a_weaker_one_does_not(client, alice):
    # The table's shuffles are keyed by a server-side nonce as well as the seed, so the position is looked for
    # over a few tables rather than in one seeded game.
    found = False
    for _ in range(20):
        table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"}], seed=8)
        game = table_game(table)
        while not game.over:
            reserves = [d for d in game.legal() if to_notation(d).startswith("R")]
            if reserves and len(reserves) < len(game.reserves[0]):  # one card to summon, one too weak
                found = True
                break
            table_act(table_id=table.pk, user=alice, seat=0, decision=to_notation(game.legal()[0]))
            table.refresh_from_db()
            game = table_game(table)
        if found:
            break
    assert found, "the person never had one Reserve card to summon and one too weak"
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    for d in reserves:
        assert f'data-decision="{to_notation(d)}"' in html
    weaker = [c for c in game.reserves[0] if reserve(c) not in game.legal()]
    assert weaker
    for c in weaker:
        assert f'data-decision="R{c}"' not in html
    response = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": 0, "decision": to_notation(reserves[0])},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    table.refresh_from_db()
    assert to_notation(reserves[0]) in table.decisions


def test_a_table_started_under_the_older_card_set_replays_as_played_and_says_so(client, alice):
    """DD-26: a table of card set dd-1.0 (before Scry, Peek and Salvage were redesigned) replays with that set;
    its page says it plays the older set; a new table uses the current set."""
    from dreaddraw.engine import fairness, load_cardset, replay
    from dreaddraw.engine.bots import ProbabilityBot, play_game

    old = load_cardset(version="dd-1.0")
    current = load_cardset()
    assert old.version != current.version
    # A game whose decisions only make sense under the old set: someone answered a Scry prompt with B.
    for seed in range(200):
        table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "local"}], seed=seed)
        game_seed = fairness.game_seed(table.seed, table.nonce)
        history = play_game([ProbabilityBot(), ProbabilityBot()], game_seed, old).notation_history()
        if "B" in history:
            break
    cut = history.index("B") + 1
    DreadDrawTable.objects.filter(pk=table.pk).update(set_version="dd-1.0", decisions=history[:cut])
    table.refresh_from_db()
    game = table_game(table)
    assert game.cs is old and game.notation_history() == history[:cut]
    assert game_to_dict(game) == game_to_dict(replay(2, game_seed, history[:cut], old))
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert "older card set dd-1.0" in html and f"card set {current.version}" in html
    whole = play_game([ProbabilityBot(), ProbabilityBot()], game_seed, old).notation_history()
    replayed = fairness.verify(2, table.seed, table.nonce, fairness.commitment(table.seed, table.nonce), whole,
                               set_version=table.set_version)
    assert replayed.over and replayed.cs is old
    new = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "local"}], seed=seed)
    assert new.set_version == current.version and table_game(new).cs is current
    assert "older card set" not in client.get(f"/dread-draw/tables/{new.pk}/").content.decode()


# --- the start forms, play again, the fortune ------------------------------------------------

def _seat_rows(html: str) -> list[tuple[str, bool]]:
    """Each seat row of the start-a-table form: its seat select's id and whether the row is hidden."""
    rows = re.findall(r'<li class="dd-seat-row" data-seat="\d"( hidden)?>\s*<label for="(dd-seat\d)"', html)
    return [(row_id, bool(hidden)) for hidden, row_id in rows]


def test_the_table_form_shows_as_many_seat_rows_as_players_even_without_scripts(client, alice):
    html = client.get("/dread-draw/").content.decode()
    assert [hidden for _, hidden in _seat_rows(html)] == [False, False, True, True, True, True]
    # Without scripts, "Show the seats" sends the form back with the chosen number of rows, keeping what was filled
    # in, and creates nothing.
    response = client.post("/dread-draw/tables/new/", {"players": "4", "seats_only": "1", "seat0": "local",
                                                       "name0": "Marta", "seat2": "bot:random"})
    html = response.content.decode()
    assert response.status_code == 200 and not DreadDrawTable.objects.exists()
    assert [hidden for _, hidden in _seat_rows(html)] == [False, False, False, False, True, True]
    assert 'value="Marta"' in html and '<option value="bot:random" selected>' in html
    assert '<option value="4" selected>' in html
    html = client.post("/dread-draw/tables/new/", {"players": "9", "seats_only": "1"}).content.decode()
    assert [hidden for _, hidden in _seat_rows(html)] == [False] * 6 and '<option value="6" selected>' in html


def test_the_tournament_form_shows_as_many_bot_rows_as_players(client, alice):
    response = client.post("/dread-draw/tournaments/new/", {"players": "3", "seats_only": "1", "games": "50",
                                                            "bot1": "random"})
    html = response.content.decode()
    rows = re.findall(r'<li class="dd-seat-row"( hidden)?><label for="dd-bot\d"', html)
    assert [bool(hidden) for hidden in rows] == [False, False, False, True, True, True]
    assert 'name="games" value="50"' in html and '<option value="random" selected>Random bot</option>' in html
    # Each bot by the name the table form gives it (the same bot was "Probability-aware" here, "Counting bot" there)
    table_form = client.get("/dread-draw/").content.decode()
    for label in ("Random bot", "Heuristic bot", "Counting bot (probability-aware)"):
        assert f">{label}</option>" in html and f">{label}</option>" in table_form, label


def _finish(table, players: dict) -> None:
    """Play the table to its end, each person (`players`: seat to user) taking the first legal decision."""
    for _ in range(2000):
        table.refresh_from_db()
        game = table_game(table)
        if game.over:
            return
        mover = game.to_move()
        table_act(table_id=table.pk, user=players[mover], seat=mover, decision=to_notation(game.legal()[0]),
                  turn=len(table.decisions))
    raise AssertionError("the game did not end")


def test_play_again_opens_a_new_table_with_the_same_seats_and_a_new_seed(client, alice):
    from dreaddraw.services import table_join

    table = table_create(owner=alice, seats=[{"kind": "local", "name": "Ana"}, {"kind": "bot", "bot": "heuristic"},
                                             {"kind": "invite"}], seed=5)
    guest = make_user("guest")
    table_join(table_id=table.pk, user=guest)
    response = client.post(f"/dread-draw/tables/{table.pk}/again/")
    assert response.status_code == 409 and "not over" in response.content.decode()  # not before the end
    assert "Play again" not in client.get(f"/dread-draw/tables/{table.pk}/").content.decode()

    _finish(table, {0: alice, 2: guest})
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert "Play again" in html and "Game over" in html

    response = client.post(f"/dread-draw/tables/{table.pk}/again/")
    new = DreadDrawTable.objects.exclude(pk=table.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/dread-draw/tables/{new.pk}/"
    assert [(s.kind, s.bot, s.name, s.user_id) for s in new.seats.order_by("index")] == [
        ("local", "", "Ana", None), ("bot", "heuristic", "Heuristic bot", None), ("invite", "", "Guest 3", None)]
    assert new.owner == alice and new.status == TableStatus.WAITING and new.commitment != table.commitment

    # Only the creator starts it again (the local seats are theirs).
    client.force_login(guest)
    assert "Play again" not in client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert client.post(f"/dread-draw/tables/{table.pk}/again/").status_code == 403
    assert DreadDrawTable.objects.count() == 2


def _rendered_end(alice, life_sizes):
    """The table page over a rigged finished game (seat 0 wins; life_sizes as in the rules tests)."""
    from django.template.loader import render_to_string

    from dreaddraw.engine.decisions import D
    from dreaddraw.selectors import table_board
    from tests.dreaddraw.factories import new_game, rig, vanilla, vanillas

    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "local"}], seed=1)
    w = vanilla(5, damage=1)
    loser_row, fail = vanillas(9, 2)
    game = rig(new_game(2, current=1), rows={0: [w], 1: [loser_row]}, draw_top=[fail], life_sizes=life_sizes)
    game.apply(1, D)
    assert game.over and game.winner == 0
    table.status = TableStatus.OVER
    return render_to_string("dreaddraw/table.html", table_board(table=table, game=game, user=alice, revealed=0))


def test_the_fortune_shows_only_when_one_was_told(alice):
    told = _rendered_end(alice, {1: 0})
    assert "The fortune (DD-8)" in told and "fortune is told from" in told
    untold = _rendered_end(alice, {0: 0, 1: 0})
    assert "Game over" in untold and "wins after" in untold
    assert "The fortune (DD-8)" not in untold and "fortune is told from" not in untold
    assert "No fortune is told" in untold and "no Life cards left" in untold  # said, not left to be guessed
    assert "No fortune is told" not in told


def test_a_table_is_read_from_its_snapshot_and_replayed_only_when_the_snapshot_is_behind(client, alice, monkeypatch):
    """The page and each decision read the game from the snapshot kept after the last decision, not by replaying
    every decision; a snapshot that is missing or behind the decisions (an older table) is replayed instead."""
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"}], seed=11)
    table.refresh_from_db()
    replayed = game_to_dict(table_game(table))  # (with the snapshot: the same game)
    for _ in range(3):
        game = _human_turn(table)
        if game.over:
            break
        table, _ = table_act(table_id=table.pk, user=alice, seat=0, decision=to_notation(game.legal()[0]))
    table.refresh_from_db()

    def no_replay(*args, **kwargs):
        raise AssertionError("the game was replayed")

    monkeypatch.setattr("dreaddraw.services.replay", no_replay)
    assert client.get(f"/dread-draw/tables/{table.pk}/").status_code == 200
    game = table_game(table)
    monkeypatch.undo()
    from dreaddraw.engine import fairness, load_cardset, replay
    truth = replay(table.players, fairness.game_seed(table.seed, table.nonce), table.decisions,
                   load_cardset(version=table.set_version))
    assert game_to_dict(game) == game_to_dict(truth) and replayed != game_to_dict(truth)

    table.snapshot = b""  # a table saved before snapshots were kept
    assert game_to_dict(table_game(table)) == game_to_dict(truth)
    behind = DreadDrawTable.objects.get(pk=table.pk)
    behind.decisions = behind.decisions[:-1]  # a snapshot taken after more decisions than these
    assert game_to_dict(table_game(behind)) != game_to_dict(truth)


def test_a_finished_shared_screen_table_asks_for_no_hand_over_and_counts_the_winners_fortune(client, alice,
                                                                                             monkeypatch):
    monkeypatch.setattr("dreaddraw.services.new_nonce", lambda: "5eed" * 16)  # one game, whose winner has a fortune
    table = table_create(owner=alice, seats=[{"kind": "local", "name": "Ana"}, {"kind": "local", "name": "Ben"}],
                         seed=21)
    game = table_game(table)
    while not game.over:
        mover = game.to_move()
        table_act(table_id=table.pk, user=alice, seat=mover, decision=to_notation(game.legal()[0]),
                  turn=len(table.decisions))
        table.refresh_from_db()
        game = table_game(table)
    client.logout()
    client.force_login(alice)  # a new session: nothing revealed on this screen yet
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    assert "Pass the screen" not in html
    winner = ["Ana", "Ben"][game.winner]
    assert f"{winner} wins the game." in html
    assert f"Life Deck {len(game.fortune)}, told as the fortune" in html and len(game.fortune) > 0
    # The whole log of the game, from its first round, in the log's own scrolling list.
    log = html[html.index('<section class="dd-log"'):]
    log = log[:log.index("</section>")]
    shown = table_game(table)
    assert log.count("<li>") >= len(visible_log(shown, -1)) > 40  # every public line, and the seat's own


def test_a_shared_screen_shows_the_public_table_and_keeps_polling_while_an_invited_player_moves(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local", "name": "Ann"}, {"kind": "local", "name": "Ben"},
                                             {"kind": "invite"}], seed=4)
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()  # waiting for bob: nobody to decide
    assert "Pass the screen" not in html and 'hx-trigger="every 2s"' in html
    bob = make_user("bob")
    client.force_login(bob)
    client.post(f"/dread-draw/tables/{table.pk}/join/")
    client.force_login(alice)
    table.refresh_from_db()
    game = table_game(table)
    seen_bob = seen_ours = False
    for _ in range(200):  # Ann and Ben take their first decision at this screen, bob his on his own
        if game.over or (seen_bob and seen_ours):
            break
        mover = game.to_move()
        url = f"/dread-draw/tables/{table.pk}/"
        if mover == 2:
            seen_bob = True
            html = client.get(url).content.decode()
            assert "bob" in re.search(r'id="turn-h"[^>]*>(.*?)</h2>', html, re.S).group(1)
            assert "Pass the screen" not in html and 'hx-trigger="every 2s"' in html  # the screen follows bob's move
            assert "You are playing" not in html and "Your decision." not in html and "You have seen" not in html
            assert "Ann and Ben share this screen" in html
            poll = client.get(f"/dread-draw/tables/{table.pk}/board/?turn=-1&status={table.status}").content.decode()
            assert "Pass the screen" not in poll and 'hx-trigger="every 2s"' in poll
            who = bob
        else:
            seen_ours = True
            html = client.get(url).content.decode()
            name = ["Ann", "Ben"][mover]
            if f"Pass the screen to <strong>{name}</strong>" in html:
                assert 'hx-trigger="every 2s"' not in html and "Summon from the Draw Deck" not in html
                client.post(f"/dread-draw/tables/{table.pk}/reveal/", {"seat": mover})
                html = client.get(url).content.decode()
            assert f"You are playing <strong>{name}</strong>" in html and "Your decision." in html
            who = alice
        table_act(table_id=table.pk, user=who, seat=mover, decision=to_notation(game.legal()[0]),
                  turn=len(table.decisions))
        table.refresh_from_db()
        game = table_game(table)
    assert seen_bob and seen_ours


def test_face_up_cards_at_the_table_show_their_ability_and_face_down_ones_nothing(alice):
    """A seat's summoned cards and Reserves say what they do, the viewer's and everyone else's, each linked to its
    card's page; the Draw Deck's top and a Life Deck's top, face down, give nothing of theirs away."""
    from django.template.loader import render_to_string

    from dreaddraw.selectors import table_board
    from tests.dreaddraw.factories import CS, new_game, rig

    by_text = {CS.card(c).text: c for c in CS.numbers if CS.card(c).text}  # four cards that each do something else
    mine, theirs, draw_top, life_top = list(by_text.values())[:4]
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"}], seed=1)
    game = rig(new_game(2), rows={0: [mine]}, reserves={1: [theirs]}, draw_top=[draw_top],
               life={1: [life_top]}, life_sizes={1: 1})
    html = render_to_string("dreaddraw/table.html", table_board(table=table, game=game, user=alice))
    for c in (mine, theirs):
        assert f'<p class="dd-text" title="{CS.card(c).text}">{CS.card(c).text}</p>' in html
        assert f'href="/dread-draw/cards/{c}/"' in html
    for c in (draw_top, life_top):
        assert CS.card(c).text not in html and CS.name(c) not in html


def _finished_with_a_guest(alice):
    """Alice, a bot and bob (joined by the link), played to the end."""
    from dreaddraw.services import table_join

    table = table_create(owner=alice, seats=[{"kind": "local", "name": "Ana"}, {"kind": "bot", "bot": "heuristic"},
                                             {"kind": "invite"}], seed=5)
    bob = make_user("bob")
    table_join(table_id=table.pk, user=bob)
    _finish(table, {0: alice, 2: bob})
    return table, bob


def test_play_again_leads_every_player_of_the_finished_table_to_the_rematch_and_no_watcher(client, alice):
    table, bob = _finished_with_a_guest(alice)
    client.force_login(bob)
    page = f"/dread-draw/tables/{table.pk}/"
    poll = f"/dread-draw/tables/{table.pk}/board/?turn={len(table.decisions)}&status=over&rematch=awaited"
    html = client.get(page).content.decode()
    assert "started a rematch" not in html and "Start a new table" in html
    assert 'hx-trigger="every 10s"' in html and "rematch=awaited" in html  # the finished page waits for it, slowly
    assert client.get(poll).status_code == 204

    client.force_login(alice)
    new = DreadDrawTable.objects.get(pk=client.post(f"{page}again/")["Location"].split("/")[-2])
    assert new.rematch_of_id == table.pk
    # Asked again (a second click, another tab), the rematch already started: not a second table.
    assert client.post(f"{page}again/")["Location"] == f"/dread-draw/tables/{new.pk}/"
    assert DreadDrawTable.objects.count() == 2
    html = client.get(page).content.decode()
    assert f'You started a rematch: <a href="/dread-draw/tables/{new.pk}/">go to it</a>' in html
    assert "Play again" not in html

    client.force_login(bob)
    link = f'alice started a rematch: <a href="/dread-draw/tables/{new.pk}/">join it</a>'
    board = client.get(poll, HTTP_HX_REQUEST="true")  # the waiting page's next poll brings it
    assert board.status_code == 200 and link in board.content.decode()
    html = client.get(page).content.decode()  # and so does the page, reloaded or opened from the list
    assert link in html and "rematch=awaited" not in html
    assert client.post(f"/dread-draw/tables/{new.pk}/join/").status_code == 302
    assert f'alice started a rematch: <a href="/dread-draw/tables/{new.pk}/">go to it</a>' in client.get(
        page).content.decode()

    client.force_login(make_user("carol"))  # a watcher of the old table: not one of its players
    html = client.get(page).content.decode()
    assert "started a rematch" not in html and str(new.pk) not in html and "rematch=awaited" not in html
    assert str(new.pk) not in client.get(poll, HTTP_HX_REQUEST="true").content.decode()


def _state_cells(html):
    return [html_text.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r'<td class="dd-table-state">(.*?)</td>', html, re.S)]


def test_your_tables_say_whose_turn_it_is_or_who_won_in_the_same_few_queries(client, alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from dreaddraw.services import table_join

    bob = make_user("bob")
    mine = table_create(owner=alice, seats=[{"kind": "local", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
                        seed=7)
    mine.refresh_from_db()
    assert mine.to_move == 0
    theirs = table_create(owner=alice, seats=[{"kind": "invite"}, {"kind": "local", "name": "Ana"}], seed=4)
    table_join(table_id=theirs.pk, user=bob)
    theirs.refresh_from_db()
    while (game := table_game(theirs)).to_move() == 1:  # Ana's moves, until the game waits on bob
        table_act(table_id=theirs.pk, user=alice, seat=1, decision=to_notation(game.legal()[0]),
                  turn=len(theirs.decisions))
        theirs.refresh_from_db()
    assert not game.over
    over = played_to_the_end(table_create(owner=alice, seats=[{"kind": "local", "name": "Ana"},
                                                              {"kind": "bot", "bot": "heuristic"}], seed=3))
    waiting = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "invite"}], seed=2)
    winner = over.seats.get(index=table_game(over).winner).name

    with CaptureQueriesContext(connection) as few:
        html = client.get("/dread-draw/").content.decode()
    by_table = dict(zip(re.findall(r'<td><a href="/dread-draw/tables/([0-9a-f-]+)/">', html), _state_cells(html),
                        strict=True))
    assert by_table == {str(mine.pk): "Your turn", str(theirs.pk): "bob's turn", str(over.pk): f"{winner} won",
                        str(waiting.pk): "Waiting for players to join"}
    assert "<strong>Your turn</strong>" in html

    client.force_login(bob)  # the same table, from the other seat
    assert _state_cells(client.get("/dread-draw/").content.decode()) == ["Your turn"]

    client.force_login(alice)
    for seed in range(8, 14):  # many more tables: not one query more
        table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "random"}], seed=seed)
    with CaptureQueriesContext(connection) as many:
        assert len(_state_cells(client.get("/dread-draw/").content.decode())) == 10
    assert len(many) == len(few), [q["sql"] for q in many.captured_queries]


def test_the_newest_log_lines_are_said_under_the_turn(client, alice):
    table = table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"},
                                             {"kind": "bot", "bot": "random"}], seed=16)
    played = played_to_the_end(table, moves=6)
    html = client.get(f"/dread-draw/tables/{played.pk}/").content.decode()
    last = re.search(r'<ol class="dd-last" aria-label="Latest moves">(.*?)</ol>', html, re.S)
    logged = re.search(r'<section class="dd-log".*?<ol[^>]*>(.*?)</ol>', html, re.S)
    assert last and logged
    lines = re.findall(r"<li>(.*?)</li>", logged.group(1), re.S)
    assert len(lines) > 3 and re.findall(r"<li>(.*?)</li>", last.group(1), re.S) == lines[-3:]
    assert html.index('class="dd-last"') < html.index('class="dd-you"')  # right under the turn heading
