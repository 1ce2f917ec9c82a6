"""What each step of a Dread Draw table showed (docs/rules.md, RV-2) and what a change of rules does to a stored
table (RV-4, RV-5): it plays on where every step shows the same under the new rules, else it is closed and shown
from its stored frames."""

from __future__ import annotations

import pytest

from core.frames import pack, unpack
from dreaddraw.engine import ENGINE_VERSION, load_cardset, observe, replay, replay_frames, to_notation
from dreaddraw.engine.fairness import game_seed
from dreaddraw.models import DreadDrawTable, TableStatus
from dreaddraw.services import table_act, table_create, table_game

pytestmark = pytest.mark.django_db

OLDER = "dreaddraw-0-test"


def test_each_step_shows_each_seat_and_a_watcher_what_they_saw():
    cs = load_cardset()
    game = replay(3, 8, [], cs)
    decisions = []
    while not game.over and len(decisions) < 30:
        decision = sorted(game.legal(), key=str)[0]
        game.play(decision)
        decisions.append(to_notation(decision))
    frames, refused = replay_frames(3, 8, decisions, cs, ["A", "B", "C"])
    assert refused is None and len(frames) == len(decisions) + 1
    assert set(frames[-1]) == {"0", "1", "2", "-1"}
    names = ["A", "B", "C"]
    assert frames[-1]["1"] == observe(game, 1, names) and frames[-1]["-1"] == observe(game, -1, names)
    assert frames[-1]["-1"]["log"] and frames[0]["-1"]["log"] != frames[-1]["-1"]["log"]  # the describer's words
    stopped, refused = replay_frames(3, 8, [*decisions[:5], "K99", *decisions[5:]], cs, ["A", "B", "C"])
    assert refused == 5 and stopped == frames[:6]


def _table(alice, seed=4):
    return table_create(owner=alice, seats=[{"kind": "local"}, {"kind": "bot", "bot": "heuristic"}], seed=seed)


def _play(table, moves):
    for _ in range(moves):
        game = table_game(table)
        if game.over:
            break
        table, _ = table_act(table_id=table.pk, user=table.owner, seat=game.to_move(),
                             decision=to_notation(sorted(game.legal(), key=str)[0]))
    return table


def test_a_table_keeps_its_frames_and_its_rules_version_as_it_is_played(alice):
    table = _play(_table(alice), 4)
    assert table.engine_version == ENGINE_VERSION
    names = [s.name for s in table.seats.all()]
    expected, _ = replay_frames(2, game_seed(table.seed, table.nonce), table.decisions, load_cardset(), names)
    assert unpack(DreadDrawTable.objects.get(pk=table.pk).frames) == expected


def _older(table, frames=None):
    """The table as if it had been played under older rules that showed `frames` (the same as now by default)."""
    DreadDrawTable.objects.filter(pk=table.pk).update(engine_version=OLDER, **({"frames": pack(frames)} if frames
                                                                                 else {}))
    return DreadDrawTable.objects.get(pk=table.pk)


def test_a_table_whose_every_step_shows_the_same_under_new_rules_plays_on(client, alice):
    """RV-5."""
    table = _older(_play(_table(alice), 3))
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    table.refresh_from_db()
    assert table.engine_version == ENGINE_VERSION and table.closed_step is None
    assert "Your decision." in html and "rule RV-5" not in html
    _play(table, 1)


def test_a_table_told_in_other_words_only_plays_on_in_the_new_words(client, alice):
    """RV-5: the stored frames tell the same steps in the older rules' words; nothing else differs, so the table
    plays on under the new version, told in its words."""
    table = _play(_table(alice), 3)
    frames = unpack(table.frames)
    for frame in frames:
        for shown in frame.values():
            shown["log"] = [line.replace("summon", "SUMMON") for line in shown["log"]]
    table = _older(table, frames)
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    table.refresh_from_db()
    assert table.engine_version == ENGINE_VERSION and table.closed_step is None and not table.closed_under
    assert "SUMMON" not in html and "Your decision." in html
    assert "SUMMON" not in str(unpack(table.frames))


def test_a_table_that_would_show_otherwise_is_closed_and_shown_from_its_frames(client, alice):
    """RV-5: the stored frames say step 2 showed another Draw Deck; the table closes there and is shown as
    stored."""
    table = _play(_table(alice), 3)
    frames = unpack(table.frames)
    frames[2]["-1"]["draw_size"] += 1
    frames[-1]["0"]["log"] = [*frames[-1]["0"]["log"], "The last thing the older rules said."]
    table = _older(table, frames)
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    table.refresh_from_db()
    assert table.closed_step == 2 and table.closed_under == ENGINE_VERSION and table.engine_version == OLDER
    assert "closed when the rules changed" in html and "from step 2 on" in html and "rule RV-5" in html
    assert "The last thing the older rules said." in html and "Summon from the Draw Deck" not in html
    refused = client.post(f"/dread-draw/tables/{table.pk}/act/", {"seat": "0", "decision": "D"})
    assert refused.status_code == 409 and "RV-5" in refused.content.decode()
    assert unpack(DreadDrawTable.objects.get(pk=table.pk).frames) == frames  # kept as they were
    api = client.get(f"/api/dreaddraw/tables/{table.pk}/").json()
    assert api["closed_step"] == 2 and api["observation"]["log"][-1] == "The last thing the older rules said."
    assert api["seed"] == table.seed and 'class="dd-seed"' in html  # nothing more is played: revealed (DG-4.6)


def test_a_finished_table_of_older_rules_is_shown_from_its_frames(client, alice):
    """RV-4: no replay under the new rules; the page shows it as it was played."""
    table = _play(_table(alice, seed=2), 500)
    assert table.status == TableStatus.OVER
    table = _older(table)
    html = client.get(f"/dread-draw/tables/{table.pk}/").content.decode()
    table.refresh_from_db()
    assert table.engine_version == OLDER and table.closed_step is None
    assert "shown as it was played" in html and "rule RV-4" in html and "Game over" in html


def test_a_table_of_older_rules_without_frames_says_so_instead_of_failing(client, alice):
    """RV-6."""
    table = _play(_table(alice), 2)
    DreadDrawTable.objects.filter(pk=table.pk).update(engine_version=OLDER, frames=b"")
    response = client.get(f"/dread-draw/tables/{table.pk}/")
    assert response.status_code == 200 and "rule RV-5" in response.content.decode()
