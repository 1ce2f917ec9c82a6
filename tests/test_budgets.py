"""What each hot page and endpoint costs in SQL queries and cache round trips, fixed per configuration, so that a
regression (a query per row, a cache read more) fails here. tests/roundtrips.py says what is counted.

Each read is made twice first and counted the third time: the cost of the steady state, its answer caches warm
(the product's cache lifetimes, not the tests' zero). A write is counted once, after a read that warms what it
reads. The budgets differ by configuration: the embedded default keeps sessions in the database and its caches in
the process (a call is a round trip); the PostgreSQL one is counted as deployed, with CACHE_URL on Redis (sessions
in Redis, each process keeping its copy until Redis tells of a change, config/accounts/sessions.py; the rate limits,
answers and pages there), under keys of its own. There, a limit of 40 or more a window is counted ahead by each
process, a twentieth at a time (config/cache.py): the counted request takes no round trip for it, as most requests
do not; a limit under 40 (run submissions) costs one. A change that makes a page cheaper lowers its budget here, in
the same commit.
"""

from __future__ import annotations

import json
import uuid

import pytest
from django.test import Client

from cards.models import Card
from config.settings import cache_aliases
from decks.models import Deck, Visibility
from decks.services import deck_copy
from playtest.goldfish import services as tables
from playtest.jobs import services as runs
from playtest.models import Run
from tests.conftest import configuration
from tests.decks.factories import make_user
from tests.roundtrips import counted

pytestmark = pytest.mark.django_db

# case: {configuration: (SQL queries, cache round trips)}
BUDGETS = {
    "trivial endpoint": {"embedded": (0, 2), "postgres": (0, 0)},
    "catalog page": {"embedded": (1, 4), "postgres": (0, 0)},
    "card page": {"embedded": (2, 1), "postgres": (1, 0)},
    "deck page, a visitor": {"embedded": (2, 2), "postgres": (1, 0)},
    "deck page, its owner": {"embedded": (2, 2), "postgres": (1, 0)},
    "deck page, anonymous": {"embedded": (1, 2), "postgres": (1, 0)},
    "deck editor": {"embedded": (4, 0), "postgres": (3, 0)},
    "deck editor search fragment": {"embedded": (3, 2), "postgres": (2, 0)},
    "deck stats fragment": {"embedded": (3, 0), "postgres": (2, 0)},
    "deck editor: a card's count": {"embedded": (11, 0), "postgres": (10, 0)},
    "deck editor: quick add": {"embedded": (11, 0), "postgres": (10, 0)},
    "deck editor: considering list": {"embedded": (10, 0), "postgres": (9, 0)},
    "deck editor: moved to the considering list": {"embedded": (13, 0), "postgres": (12, 0)},
    "deck editor: a card's tag": {"embedded": (11, 0), "postgres": (10, 0)},
    "deck list page": {"embedded": (2, 0), "postgres": (1, 0)},
    "deck list API": {"embedded": (3, 0), "postgres": (2, 0)},
    "deck API": {"embedded": (2, 1), "postgres": (1, 0)},
    "search API": {"embedded": (1, 3), "postgres": (0, 0)},
    "search API, anonymous": {"embedded": (0, 5), "postgres": (0, 0)},
    "run progress fragment": {"embedded": (2, 0), "postgres": (1, 0)},
    "run status API": {"embedded": (2, 0), "postgres": (1, 0)},
    "goldfish table page": {"embedded": (3, 0), "postgres": (2, 0)},
    "goldfish table poll, thinking": {"embedded": (2, 0), "postgres": (1, 0)},
    "deck edit API": {"embedded": (10, 5), "postgres": (8, 1)},  # embedded: its list part looked up, not rebuilt
    "validation API": {"embedded": (0, 4), "postgres": (0, 0)},
    "goldfish table action": {"embedded": (8, 0), "postgres": (7, 0)},
    "run cancel API": {"embedded": (3, 2), "postgres": (2, 1)},
    # Its runs' count is read before the hourly limit counts it, so that a refusal for too many active runs spends
    # no submission of the hour (playtest/web/api.py), and not again by the submission.
    "run submission API": {"embedded": (11, 4), "postgres": (10, 1)},
}


KEY_PREFIX = f"budgets-{uuid.uuid4().hex}"  # this run's: nothing an earlier run cached is read


@pytest.fixture(autouse=True)
def _as_deployed(settings, monkeypatch):
    """The product's cache lifetimes (the tests' are zero) and, on PostgreSQL, its Redis cache and sessions. The
    catalog version each process remembers for two seconds (and the card index's check of the catalog, likewise) is
    remembered through the test (tests/conftest.py): its query is once in two seconds a process, not a request's,
    and a slow machine would count it in one test and not in another."""
    from cards import selectors

    monkeypatch.setattr(selectors, "VERSION_MEMO_SECONDS", 3600)
    monkeypatch.setattr(selectors, "_version_memo", None)
    settings.SEARCH_CACHE_SECONDS = 600
    settings.DECK_PAGE_CACHE_SECONDS = 600
    if configuration() == "postgres":
        aliases = cache_aliases(settings.REDIS_URL)
        settings.CACHES = {alias: {**config, "KEY_PREFIX": KEY_PREFIX} if "Redis" in config["BACKEND"] else config
                           for alias, config in aliases.items()}
        settings.SESSION_ENGINE = "config.accounts.sessions"


@pytest.fixture
def world():
    """A player with a public deck, another player viewing it, a run of the player's and a goldfish table."""
    owner, viewer = make_user(), make_user()
    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    deck = deck_copy(deck=starter, owner=owner, name="Budget deck")
    Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PUBLIC)
    run = runs.run_submit(owner=owner, kind="dreadgate_playtest", games=10,
                          params={"deck": deck.pk, "mode": "goldfish"})
    table = tables.table_create(owner=owner, deck_id=deck.pk, seed=11)
    return {"owner": owner, "viewer": viewer, "deck": deck, "run": run, "table": table,
            "card": Card.objects.order_by("collector_number").first()}


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def read(client: Client, path: str):
    for _ in range(2):
        assert client.get(path).status_code == 200, path
    with counted() as trips:
        response = client.get(path)
    assert response.status_code == 200, path
    return trips


def write(client: Client, method: str, path: str, body, warm=None, **headers):
    """The cost of a write made after one like it (its connections open, what it reads warm); `warm` makes the
    first one when it must differ (a game's next action), and gives headers for each (a deck's next ETag)."""
    def send(first: bool):
        extra = {**headers, **(warm(first) if warm else {})}
        return client.generic(method, path, body(first) if callable(body) else body, **extra)

    assert send(True).status_code in (200, 201, 202), path
    with counted() as trips:
        response = send(False)
    assert response.status_code in (200, 201, 202), (path, response.status_code, response.content[:300])
    return trips


READS = {  # case: (who, path)
    "trivial endpoint": (None, "/api/keywords/"),
    "catalog page": ("viewer", "/cards/?q=golem"),
    "card page": ("viewer", "/cards/{card}/"),
    "deck page, a visitor": ("viewer", "/decks/{deck}/"),
    "deck page, its owner": ("owner", "/decks/{deck}/"),
    "deck page, anonymous": (None, "/decks/{deck}/"),
    "deck editor": ("owner", "/decks/{deck}/edit/"),
    "deck editor search fragment": ("owner", "/decks/{deck}/edit/search/?q=golem"),
    "deck stats fragment": ("owner", "/decks/{deck}/stats/"),
    "deck list page": ("owner", "/decks/"),
    "deck list API": ("owner", "/api/decks/"),
    "deck API": ("owner", "/api/decks/{deck}/"),
    "search API": ("viewer", "/api/cards/?q=golem"),
    "search API, anonymous": (None, "/api/cards/?q=golem"),
    "run progress fragment": ("owner", "/playtest/runs/{run}/progress/"),
    "run status API": ("owner", "/api/runs/{run}/"),
    "goldfish table page": ("owner", "/playtest/tables/{table}/"),
}


def resolved(world, path: str) -> str:
    return path.format(card=world["card"].collector_number, deck=world["deck"].pk, run=world["run"].pk,
                       table=world["table"].pk)


def check(case: str, trips) -> None:
    budget = BUDGETS.get(case, {}).get(configuration())
    assert (trips.queries, trips.cache) == budget, f"{case}: {trips} against the budget {budget}:\n" + \
        "\n".join(trips.sql + trips.calls)


@pytest.mark.parametrize("case", list(READS))
def test_a_read_costs_its_budget(case, world):
    who, path = READS[case]
    trips = read(client_of(world[who] if who else None), resolved(world, path))
    check(case, trips)


def test_the_progress_poll_reads_neither_the_runs_params_nor_its_result(world):
    """Polled every second while a run plays: its params hold whole deck lists and its result the report, and
    reading either was most of the poll's cost."""
    trips = read(client_of(world["owner"]), resolved(world, READS["run progress fragment"][1]))
    run_query = next(sql for sql in trips.sql if "playtest_run" in sql)
    assert '"params"' not in run_query and '"result"' not in run_query and '"games_done"' in run_query


def test_a_thinking_tables_poll_costs_its_budget(client, world):
    """Asked every second while the AI thinks: the table's action count and clock, nothing rendered."""
    from playtest.goldfish.selectors import thinking_token
    from tests.playtest.goldfish.test_table_strong import thinking_table

    table = thinking_table(client, world["owner"])
    path = f"/playtest/tables/{table.pk}/?shown={thinking_token(table.pk, len(table.actions))}"
    for _ in range(2):
        assert client.get(path, HTTP_HX_REQUEST="true").status_code == 204
    with counted() as trips:
        assert client.get(path, HTTP_HX_REQUEST="true").status_code == 204
    check("goldfish table poll, thinking", trips)


def test_a_deck_edit_costs_its_budget(world):
    deck, client = world["deck"], client_of(world["owner"])
    path = f"/api/decks/{deck.pk}/"
    trips = write(client, "PATCH", path, lambda first: '{"description": "%s"}' % ("edited" if first else "again"),
                  content_type="application/json",
                  warm=lambda first: {"HTTP_IF_MATCH": client.get(path).headers["ETag"]})
    check("deck edit API", trips)


# The editor's saves (decks/editor_views.py), each made twice: the first (its `True` form) and the counted one, which
# takes the first back. {case: (the editor URL's last part, the form of the first and of the second)}
EDITOR_WRITES = {
    "deck editor: a card's count": ("change", lambda card, first: f"card={card}&delta={1 if first else -1}"),
    "deck editor: quick add": ("quick", lambda card, first: f"lines={1 if first else -1}%20{card}"),
    "deck editor: considering list": ("consider", lambda card, first: f"card={card}&delta={1 if first else -1}"),
    "deck editor: moved to the considering list": (
        "move", lambda card, first: f"card={card}&count=1&to={'considering' if first else 'main'}"),
    "deck editor: a card's tag": ("tag", lambda card, first: f"card={card}&tag={'a' if first else 'b'}"),
}


@pytest.mark.parametrize("case", list(EDITOR_WRITES))
def test_an_editor_save_costs_its_budget(case, world):
    url, form = EDITOR_WRITES[case]
    deck = world["deck"]
    card = deck.entries.order_by("card__collector_number").first().card.collector_number
    trips = write(client_of(world["owner"]), "POST", f"/decks/{deck.pk}/edit/{url}/", lambda first: form(card, first),
                  content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true")
    check(case, trips)


def test_a_validation_costs_its_budget(world):
    text = "\n".join(f"{n} {cn}" for cn, n in world["deck"].entries.values_list("card__collector_number", "count"))
    trips = write(client_of(None), "POST", "/api/decks/validate/", json.dumps({"format": "standard", "list": text}),
                  content_type="application/json")
    check("validation API", trips)


def test_a_goldfish_action_costs_its_budget(world):
    table, client = world["table"], client_of(world["owner"])
    trips = write(client, "POST", f"/playtest/tables/{table.pk}/act/", lambda first: "notation=" + (
        "keep" if first else "draw"), content_type="application/x-www-form-urlencoded")
    check("goldfish table action", trips)


def test_a_run_submission_costs_its_budget(world, django_capture_on_commit_callbacks):
    """A submission stores its run with its dispatch time, and once that is committed marks and sends its first
    window under the run's lock, without reading the window (those chunks are it)."""
    client = client_of(world["owner"])
    body = json.dumps({"kind": "dreadgate_playtest", "games": 10, "params": {"deck": world["deck"].pk,
                                                                              "mode": "goldfish"}})

    def submitted():
        with django_capture_on_commit_callbacks(execute=True):  # the window is sent once committed
            return client.post("/api/runs/", body, content_type="application/json")

    assert submitted().status_code == 202
    with counted() as trips:
        response = submitted()
    assert response.status_code == 202
    assert Run.objects.get(pk=response.json()["id"]).chunks.filter(sent_at__isnull=False).count() == 1
    check("run submission API", trips)


def test_a_run_cancel_costs_its_budget(world, django_capture_on_commit_callbacks):
    """Taking a run's chunks off the queue reads the broker's queues: through the app's connection pool, in one
    round trip for every priority's list (a connection of its own cost a handshake on every cancel)."""
    client = client_of(world["owner"])
    body = json.dumps({"kind": "dreadgate_playtest", "games": 10, "params": {"deck": world["deck"].pk,
                                                                              "mode": "goldfish"}})

    def submitted() -> str:
        return client.post("/api/runs/", body, content_type="application/json").json()["id"]

    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(f"/api/runs/{submitted()}/cancel/", "{}", content_type="application/json").status_code \
            == 200
    run = submitted()
    with counted() as trips, django_capture_on_commit_callbacks(execute=True):  # the queue is read once committed
        response = client.post(f"/api/runs/{run}/cancel/", "{}", content_type="application/json")
    assert response.status_code == 200
    check("run cancel API", trips)
