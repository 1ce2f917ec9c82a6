"""A goldfish table against the AI at the strong level: its decisions in its own main phase are a worker's job,
never the web request's; the table says it is thinking, refuses the person's moves meanwhile (409), and shows the
AI's actions once the worker has played them. The level is chosen when the table is opened (form and API)."""

import pytest

from core.frames import pack
from playtest.dreadgate import game_frames
from playtest.dreadgate.actions import END, KEEP
from playtest.dreadgate.state import MAIN_PHASE
from playtest.goldfish import services as tables
from playtest.goldfish.selectors import thinking_token
from playtest.models import GoldfishTable
from tests.playtest.dreadgate_decks import starter_deck
from tests.support import live_db, wait_for


def open_strong_table(owner, seed: int) -> GoldfishTable:
    opponent = starter_deck(owner, craft="sorcery", name="The AI's deck")
    return tables.table_create(owner=owner, deck_id=starter_deck(owner).pk, seed=seed, opponent_deck_id=opponent.pk,
                               level="strong")


def your_turn_table(owner, seed: int = 5) -> GoldfishTable:
    """A strong table where the person moves first, past the mulligans: the AI has not yet had a turn to think."""
    for s in range(seed, seed + 20):
        table = open_strong_table(owner, s)
        if tables.table_thinking(table):
            continue
        if (KEEP, 0, 0) in tables.table_state(table).legal_actions():
            tables.table_act(table=table, action=(KEEP, 0, 0))
            table.refresh_from_db()
        if not tables.table_thinking(table):
            return table
    raise AssertionError("no seed in range gives the person the first turn")


def log_lines(html: str) -> int:
    log = html[html.index('class="log-lines"'):]
    return log[: log.index("</ol>")].count("<li>")


@pytest.mark.django_db
def test_the_level_is_validated_when_a_table_is_opened(client, alice):
    client.force_login(alice)
    deck, opponent = starter_deck(alice), starter_deck(alice, craft="divine", name="Opponent")
    bad = client.post("/api/goldfish-tables/", {"deck": deck.pk, "opponent": opponent.pk, "level": "expert"},
                      content_type="application/json")
    assert bad.status_code == 400 and "level" in str(bad.json())
    alone = client.post("/api/goldfish-tables/", {"deck": deck.pk, "level": "strong"},
                        content_type="application/json")
    # It fits the schema and is refused by a rule the schema can't state: the API's 422 (config/api_errors.py).
    assert alone.status_code == 422 and "only a table against the AI has a level" in alone.json()["error"]["message"]
    page = client.post(f"/playtest/new/?deck={deck.pk}", {"deck": deck.pk, "what": "table",
                                                          "table_opponent": opponent.pk, "table_level": "expert"})
    assert page.status_code == 400 and "level: must be one of quick, strong" in page.content.decode()
    assert not GoldfishTable.objects.exists()
    made = client.post("/api/goldfish-tables/", {"deck": deck.pk, "opponent": opponent.pk, "level": "strong"},
                       content_type="application/json")
    assert made.status_code == 201 and made.json()["level"] == "strong"
    assert GoldfishTable.objects.get().params["opponent_policy"] == "strong"
    quick = client.post(f"/playtest/new/?deck={deck.pk}", {"deck": deck.pk, "what": "table",
                                                           "table_opponent": opponent.pk, "table_level": "quick"})
    assert quick.status_code == 302
    assert GoldfishTable.objects.order_by("created_at").last().params["opponent_policy"] == "matchup"


@pytest.mark.django_db
def test_while_the_ai_thinks_the_person_cant_act(client, alice):
    """Without a worker (nothing is sent before the test's transaction would commit) the table stays thinking."""
    table = your_turn_table(alice)
    client.force_login(alice)
    response = client.post(f"/playtest/tables/{table.pk}/act/", {"action": f"{END},0,0"})
    assert response.status_code == 200
    table.refresh_from_db()
    assert tables.table_thinking(table)
    html = response.content.decode()
    assert "The AI (strong level) is thinking about its move" in html and 'hx-trigger="every 1s"' in html
    for path, data in (("act", {"action": f"{END},0,0"}), ("undo", {}), ("concede", {})):
        refused = client.post(f"/playtest/tables/{table.pk}/{path}/", data)
        assert refused.status_code == 409, path
        assert "The AI is thinking about its move" in refused.content.decode()
    api = client.post(f"/api/goldfish-tables/{table.pk}/act/", {"action": "end"}, content_type="application/json")
    assert api.status_code == 409 and api.json()["error"]["code"] == "ai_thinking"
    body = client.get(f"/api/goldfish-tables/{table.pk}/").json()
    assert body["thinking"] is True and body["legal_actions"] == []
    table.refresh_from_db()
    assert table.conceded_step is None and tables.table_thinking(table)


@live_db
@pytest.mark.worker
def test_the_ais_turn_is_a_workers_job_and_its_actions_show_after_it(celery_worker, client, alice):
    table = your_turn_table(alice)
    client.force_login(alice)
    before = len(table.actions)
    response = client.post(f"/playtest/tables/{table.pk}/act/", {"action": f"{END},0,0"})
    assert response.status_code == 200
    html = response.content.decode()
    # The answer was made before any search: the page shows the AI to move, its turn not yet begun.
    assert "is thinking about its move" in html
    assert log_lines(html) == before + 1
    done = wait_for(lambda: not tables.table_thinking(GoldfishTable.objects.get(pk=table.pk))
                    and GoldfishTable.objects.get(pk=table.pk), timeout=120, message="the AI's turn on the worker")
    assert len(done.actions) > before + 1
    state = tables.table_state(done)
    assert state.current_player == tables.human_seat(state) or state.is_over()
    assert tables.opponent_steps(done, tables.steps_shown(state)) is not None  # the person is shown the AI's actions
    page = client.get(f"/playtest/tables/{table.pk}/").content.decode()
    assert "is thinking" not in page and 'hx-trigger="every 1s"' not in page
    assert log_lines(page) == len(done.actions)
    assert state.phase != MAIN_PHASE or client.post(f"/playtest/tables/{table.pk}/act/",
                                                    {"action": f"{END},0,0"}).status_code == 200


def thinking_table(client, owner) -> GoldfishTable:
    """A strong table whose AI is thinking (no worker: nothing is sent before the test's transaction would commit)."""
    table = your_turn_table(owner)
    client.force_login(owner)
    assert client.post(f"/playtest/tables/{table.pk}/act/", {"action": f"{END},0,0"}).status_code == 200
    table.refresh_from_db()
    assert tables.table_thinking(table)
    return table


@pytest.mark.django_db
def test_the_thinking_tables_poll_says_nothing_new_until_the_ai_has_played(client, alice, monkeypatch):
    """The page asks every second with the number of actions it shows, sealed (it counts the passes the person is
    not shown, DG-15.7): a 204 (no body, htmx keeps the page) while the table thinks with no more, the whole table once
    the AI has played."""
    table = thinking_table(client, alice)
    shown = len(table.actions)
    page = client.get(f"/playtest/tables/{table.pk}/").content.decode()
    poll = f"/playtest/tables/{table.pk}/?shown={thinking_token(table.pk, shown)}"
    assert f'?shown={shown}"' not in page  # the count itself is nowhere (its token may begin with its digits)
    assert f'hx-get="{poll}" hx-trigger="every 1s"' in page
    unchanged = client.get(poll, HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204 and unchanged.content == b""
    behind = client.get(f"/playtest/tables/{table.pk}/?shown={thinking_token(table.pk, shown - 1)}",
                        HTTP_HX_REQUEST="true")
    assert behind.status_code == 200 and 'id="table"' in behind.content.decode()
    monkeypatch.setattr(tables, "THINK_SECONDS", 0.05)  # the worker's part, played here: any decision will do
    assert tables.table_think(table_id=table.pk) > 0
    table.refresh_from_db()  # each action the worker played added its frame to those stored (RV-2)
    assert bytes(table.frames) == pack(game_frames(tables.table_state(table)))
    played = client.get(poll, HTTP_HX_REQUEST="true")
    assert played.status_code == 200 and "is thinking" not in played.content.decode()
    assert log_lines(played.content.decode()) > shown
    # what the AI played since the page asked plays out one by one from the step the page showed, as the quick
    # level's answers do (the page jumped to the newest position)
    steps = tables.steps_shown(tables.table_state(table))
    assert f'data-play-from="{sum(steps.seen[:shown])}"' in played.content.decode()


@pytest.mark.django_db
def test_a_poll_of_a_table_thinking_too_long_sends_its_task_again(client, alice):
    table = thinking_table(client, alice)
    lost = tables.think_stale_before()  # its worker was lost: no action since THINK_STALE_SECONDS
    GoldfishTable.objects.filter(pk=table.pk).update(thinking_since=lost)
    response = client.get(f"/playtest/tables/{table.pk}/?shown={thinking_token(table.pk, len(table.actions))}",
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "is thinking" in response.content.decode()
    table.refresh_from_db()
    assert table.thinking_since > lost  # sent again: its clock starts over


@pytest.mark.django_db
def test_no_one_else_learns_anything_from_polling_a_table(client, alice, bob):
    table = thinking_table(client, alice)
    client.force_login(bob)
    assert client.get(f"/playtest/tables/{table.pk}/?shown={thinking_token(table.pk, len(table.actions))}",
                      HTTP_HX_REQUEST="true").status_code == 404


@live_db
@pytest.mark.worker
def test_the_ais_decisions_are_taken_between_a_runs_chunks_not_after_every_chunk_queued(celery_worker, client, alice):
    """A person waits on the AI's turn; a run's chunks wait on nobody. The AI's decisions go to a queue of their own,
    which the workers take from between chunks: on the runs' queue they waited behind every chunk sent before them
    (a minute and more behind a large run)."""
    from playtest.jobs import services as runs
    from playtest.models import RunChunk

    # 30 chunks of 3 s each
    run = runs.run_submit(owner=alice, kind="test_sum", params={"sleep_per_game": 0.3}, games=300, seed=4)
    wait_for(lambda: RunChunk.objects.filter(run=run).exclude(taken_by="").count() >= 2, timeout=60,
             message="the worker's two processes busy with the run")
    table = your_turn_table(alice)
    client.force_login(alice)
    assert client.post(f"/playtest/tables/{table.pk}/act/", {"action": f"{END},0,0"}).status_code == 200
    waiting = set(RunChunk.objects.filter(run=run, sent_at__isnull=False, taken_by="").values_list("pk", flat=True))
    assert len(waiting) >= 4, "too few chunks queued ahead for the test to tell"
    wait_for(lambda: not tables.table_thinking(GoldfishTable.objects.get(pk=table.pk)), timeout=120,
             message="the AI's turn on the worker")
    still = RunChunk.objects.filter(pk__in=waiting, taken_by="").count()
    runs.run_cancel(run=run)
    assert still >= 2, f"the AI's turn was played after {len(waiting) - still} of the {len(waiting)} chunks before it"
