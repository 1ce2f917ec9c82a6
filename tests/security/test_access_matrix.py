"""The cross-cutting access-control matrix: actor x resource x every route and method.

Every route of the site that names a resource is found by walking the URL configuration, so a
new page or endpoint is covered the day it lands. For a resource only its owner may see (a
private or unlisted deck reached without its link, a playtest run, a goldfish table), every other
actor's request must answer exactly as it would for an id that does not exist (so nothing leaks),
with a refusal: 404, 403, 405, or a redirect to log in. For a resource others may see (a public
deck, a Dread Draw table reached by its link), their writes change nothing. After every refused
write the database is unchanged. Lists never show another's hidden resources, and no write can
change an owner. (tests/decks/test_permissions.py holds the decks' own, finer matrix.)
"""

from __future__ import annotations

import functools
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from config.accounts.models import AccessToken
from config.accounts.services import token_create
from decks.models import Deck, DeckEntry, DeckRevision, Visibility
from decks.services import deck_copy
from dreaddraw.models import DreadDrawSeat, DreadDrawTable
from dreaddraw.services import table_create as dreaddraw_table_create
from playtest.goldfish import services as goldfish_tables
from playtest.models import GoldfishTable, Run, RunChunk, RunStage

from .routes import all_routes, fill

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
ACTORS = ("other", "anonymous", "staff")
MISSING_INT = 987654321
MISSING_UUID = uuid.UUID(int=7)
TRACKED = (Deck, DeckEntry, DeckRevision, Run, RunChunk, RunStage, GoldfishTable, DreadDrawTable, DreadDrawSeat,
           AccessToken)
# 401: an anonymous API request (WWW-Authenticate: Bearer); 400: a request without the parameters or body its
# operation requires, refused by the schema's contract before anything is looked up (alike for a missing id).
REFUSALS = {400, 401, 403, 404, 405}
LOGIN = "/accounts/login/"


@functools.cache
def snapshot_queries() -> list[tuple[str, list]]:
    """The SQL that reads every row a request could touch (the starter decks, which nobody owns, aside for speed)."""
    queries = []
    for model in TRACKED:
        queryset = model.objects.all()
        if model is Deck:
            queryset = queryset.filter(is_starter=False)
        elif model in (DeckEntry, DeckRevision):
            queryset = queryset.filter(deck__is_starter=False)
        columns = [field.attname for field in model._meta.concrete_fields]
        sql, params = queryset.order_by("pk").values_list(*columns).query.sql_with_params()
        queries.append((sql, list(params)))
    return queries


def snapshot() -> list:
    """Every row a request could touch, as the database holds it (raw values: nothing decoded, compared exactly)."""
    with connection.cursor() as cursor:
        tables = []
        for sql, params in snapshot_queries():
            cursor.execute(sql, params)
            tables.append(cursor.fetchall())
    return tables


def resource_of(route: str) -> str | None:
    """Which kind of resource a route's parameter names (None: no resource, e.g. a catalog card)."""
    if route.startswith(("decks/", "api/decks/")) and "<int:pk>" in route:
        return "deck"
    if "run_id" in route or route.startswith(("api/runs/<", "api/metagames/<", "api/tunings/<")):
        return "run"
    if route.startswith(("playtest/tables/", "api/goldfish-tables/<")):
        return "goldfish"
    if route.startswith(("dread-draw/tables/<", "api/dreaddraw/tables/<")):
        return "dreaddraw"
    if route.startswith("accounts/tokens/<"):
        return "token"
    return None


# Routes with parameters that name no one's resource: the catalogs, and the e-mailed links (password reset, a browser's
# log-in), whose tokens are their own proof.
PUBLIC_PARAMETER_ROUTES = ("cards/", "api/cards/", "dread-draw/cards/", "api/dreaddraw/cards/", "accounts/reset/",
                           "accounts/login/browser/", "api/<rest>")  # the last: what no route of the API takes


def test_every_route_with_a_parameter_is_in_the_matrix():
    """A new resource route must be classified here, or it would be silently left out."""
    unclassified = [r for r in all_routes() if "<" in r and not resource_of(r)
                    and not r.startswith(PUBLIC_PARAMETER_ROUTES)]
    assert unclassified == []


@pytest.fixture
def world():
    User = get_user_model()
    owner = User.objects.create_user("matrix-owner", password="a-long-passphrase-7")
    users = {
        "owner": owner,
        "other": User.objects.create_user("matrix-other", password="a-long-passphrase-7"),
        "staff": User.objects.create_user("matrix-staff", password="a-long-passphrase-7", is_staff=True),
    }
    starter = Deck.objects.filter(is_starter=True).order_by("pk").first()
    decks = {}
    for visibility in (Visibility.PRIVATE, Visibility.UNLISTED, Visibility.PUBLIC):
        deck = deck_copy(deck=starter, owner=owner, name=f"Matrix {visibility} zq{visibility[:3]}")
        Deck.objects.filter(pk=deck.pk).update(visibility=visibility)
        decks[visibility] = deck
    run = Run.objects.create(owner=owner, kind="test_sum", games=10, chunk_size=10, seed=1, title="matrix-run")
    RunChunk.objects.create(run=run, index=0, first_game=0, games=10)
    metagame = Run.objects.create(owner=owner, kind="dreadgate_metagame", games=4, chunk_size=100, seed=1,
                                  title="matrix-metagame", params={
                                      "mode": "metagame", "format": "standard", "policy": "matchup",
                                      "games_per_pair": 4, "decks": [{"id": None, "name": "A", "list": []},
                                                                     {"id": None, "name": "B", "list": []}]})
    RunChunk.objects.create(run=metagame, index=0, first_game=0, games=4)
    goldfish = goldfish_tables.table_create(owner=owner, deck_id=decks[Visibility.PRIVATE].pk, seed=3)
    dreaddraw = dreaddraw_table_create(owner=owner, seats=[{"kind": "local", "name": "Owner"},
                                                           {"kind": "bot", "bot": "heuristic", "name": "Bot"}], seed=4)
    token, _ = token_create(user=owner, name="matrix token")
    clients = {"anonymous": Client()}
    for name, user in users.items():
        clients[name] = Client()
        clients[name].force_login(user)
    return {"users": users, "clients": clients, "decks": decks, "run": run, "metagame": metagame, "goldfish": goldfish,
            "dreaddraw": dreaddraw, "token": token}


def targets(world):
    """(label, kind, id, owner-only?) for every resource of the matrix."""
    decks = world["decks"]
    return [
        ("private deck", "deck", decks["private"].pk, True),
        ("unlisted deck without its link", "deck", decks["unlisted"].pk, True),
        ("public deck", "deck", decks["public"].pk, False),
        ("playtest run", "run", world["run"].pk, True),
        ("metagame table", "run", world["metagame"].pk, True),
        ("goldfish table", "goldfish", world["goldfish"].pk, True),
        ("dread draw table (shared by link)", "dreaddraw", world["dreaddraw"].pk, False),
        ("access token", "token", world["token"].pk, True),
    ]


def path_for(route: str, kind: str, ident) -> str:
    return fill(route, {"pk": ident, "run_id": ident, "table_id": ident, "token_id": ident, "number": 1, "game": 0})


def test_the_matrix_covers_the_api_of_every_resource_kind():
    kinds = {resource_of(r) for r in all_routes() if r.startswith("api/")}
    assert {"deck", "run", "goldfish", "dreaddraw"} <= kinds


def request(client, method: str, path: str):
    return getattr(client, method)(path, {} if method == "get" else "{}", content_type="application/json") \
        if method != "get" else client.get(path)


def is_login_redirect(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(LOGIN)


# Writes that others may make to a resource they can see, making something of their own or as staff.
ALLOWED_WRITES = {
    ("public deck", "other", "copy"), ("public deck", "staff", "copy"), ("public deck", "staff", "unpublish"),
    ("dread draw table (shared by link)", "other", "join"), ("dread draw table (shared by link)", "staff", "join"),
}


# Resources whose only routes are writes (a token is revoked by POST; the account page lists it).
WRITE_ONLY = {"access token"}


def test_every_route_refuses_everyone_but_the_owner(world):
    routes = [(r, resource_of(r)) for r in all_routes()]
    routes = [(r, k) for r, k in routes if k]
    assert len(routes) >= 20, routes
    cells = 0
    owner_reads = {}
    absent_statuses = {}  # (actor, method, path of a missing id) -> status: the same for every target of a kind
    before = snapshot()  # the database as it stands before each write (a refused write leaves it so)
    for label, kind, ident, owner_only in targets(world):
        missing = MISSING_INT if kind in ("deck", "token") else MISSING_UUID
        for route, route_kind in routes:
            if route_kind != kind:
                continue
            path = path_for(route, kind, ident)
            owner_get = world["clients"]["owner"].get(path)
            assert owner_get.status_code < 500, (label, path, owner_get.status_code)
            owner_reads.setdefault(label, set()).add(owner_get.status_code)
            for actor in ACTORS:
                client = world["clients"][actor]
                for method in METHODS:
                    cells += 1
                    response = request(client, method, path)
                    where = f"{actor} {method.upper()} {path} on the {label}"
                    assert response.status_code < 500, f"{where}: {response.status_code}"
                    action = route.rstrip("/").rsplit("/", 1)[-1]
                    if owner_only:
                        missing_path = path_for(route, kind, missing)
                        if (actor, method, missing_path) not in absent_statuses:
                            absent_statuses[actor, method, missing_path] = request(client, method,
                                                                                    missing_path).status_code
                        absent = absent_statuses[actor, method, missing_path]
                        assert response.status_code == absent, (
                            f"{where} answers {response.status_code}, a missing one {absent}: it leaks")
                        assert response.status_code in REFUSALS or is_login_redirect(response), \
                            f"{where} was not refused: {response.status_code}"
                    if method != "get":
                        after = snapshot()
                        if (label, actor, action) not in ALLOWED_WRITES:
                            assert after == before, f"{where} ({response.status_code}) changed the database"
                        before = after
    for label, statuses in owner_reads.items():
        if label in WRITE_ONLY:
            continue
        assert 200 in statuses, f"the owner never read the {label}: the matrix would prove nothing"
    assert cells >= 500, cells
    print(f"access matrix: {cells} cells")


def test_job_submission_and_goldfish_tables_on_someone_elses_hidden_deck_are_404(world):
    other = world["clients"]["other"]
    before = snapshot()
    for visibility in ("private", "unlisted"):
        deck = world["decks"][visibility]
        response = other.post("/api/runs/", {"kind": "dreadgate_playtest", "games": 10,
                                             "params": {"deck": deck.pk}}, content_type="application/json")
        assert response.status_code == 404, response.content
        assert response.json()["error"]["code"] == "deck_not_found"
        assert other.get(f"/playtest/new/?deck={deck.pk}").status_code == 404
        assert other.post("/playtest/new/", {"deck": deck.pk, "mode": "goldfish"}).status_code == 404
        assert world["clients"]["anonymous"].post(
            "/api/runs/", {"kind": "dreadgate_playtest", "games": 10, "params": {"deck": deck.pk}},
            content_type="application/json").status_code == 401
    assert snapshot() == before


def test_lists_never_show_anothers_hidden_resources(world):
    hidden_decks = {world["decks"]["private"].pk, world["decks"]["unlisted"].pk}
    hidden_names = [world["decks"][v].name for v in ("private", "unlisted")]
    hidden_ids = [str(world["run"].pk), str(world["metagame"].pk), str(world["goldfish"].pk)]
    for actor in ACTORS:
        client = world["clients"][actor]
        listed = {d["id"] for d in client.get("/api/decks/", {"page_size": 200}).json()["results"]}
        assert not listed & hidden_decks, actor
        assert world["decks"]["public"].pk in listed
        if actor != "anonymous":
            mine = client.get("/api/decks/", {"mine": "true"}).json()["results"]
            assert not {d["id"] for d in mine} & (hidden_decks | {world["decks"]["public"].pk})
            assert client.get("/api/runs/").json()["results"] == []
        for page in ("/", "/decks/", "/playtest/", "/dread-draw/", "/decks/?q=zq"):
            html = client.get(page).content.decode()
            for secret in hidden_names + hidden_ids:
                assert secret not in html, f"{actor} sees {secret} on {page}"


def _refused_or_kept(response, accepted: int) -> bool:
    """A write naming an owner is refused as a field the request may not carry (400), or accepted without it."""
    if response.status_code == 400:
        assert "owner" in response.content.decode(), response.content
        return False
    assert response.status_code == accepted, response.content
    return True


def test_no_write_changes_an_owner(world):
    owner_client = world["clients"]["owner"]
    other = world["users"]["other"]
    deck = world["decks"]["private"]
    response = owner_client.patch(f"/api/decks/{deck.pk}/", {"name": "Still mine", "owner": other.pk,
                                                             "owner_id": other.pk},
                                  content_type="application/json", HTTP_IF_MATCH=f'"{deck.version}"')
    kept = _refused_or_kept(response, 200)
    deck.refresh_from_db()
    assert deck.owner_id == world["users"]["owner"].pk and (deck.name == "Still mine") == kept
    created = owner_client.post("/api/decks/", {"name": "Planted", "owner": other.pk}, content_type="application/json")
    if _refused_or_kept(created, 201):
        assert Deck.objects.get(pk=created.json()["id"]).owner_id == world["users"]["owner"].pk
    assert not Deck.objects.filter(name="Planted", owner=other).exists()
    copied = world["clients"]["other"].post(f"/api/decks/{world['decks']['public'].pk}/copy/",
                                            {"owner": world["users"]["owner"].pk}, content_type="application/json")
    if _refused_or_kept(copied, 201):
        assert Deck.objects.get(pk=copied.json()["id"]).owner_id == other.pk
    owners_runs = Run.objects.filter(owner=world["users"]["owner"]).count()
    run = world["clients"]["other"].post("/api/runs/", {"kind": "test_sum", "games": 1,
                                                         "owner": world["users"]["owner"].pk},
                                         content_type="application/json")
    if _refused_or_kept(run, 202):
        assert Run.objects.get(pk=run.json()["id"]).owner_id == other.pk
    assert Run.objects.filter(owner=world["users"]["owner"]).count() == owners_runs
