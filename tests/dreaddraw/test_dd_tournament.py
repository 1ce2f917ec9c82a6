"""Dread Draw tournaments as background runs: parameters checked, chunks played, report presented."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from core.errors import DomainError
from playtest.jobs import services
from playtest.models import Run, RunStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password="pw-alice-123")


def test_a_tournament_run_plays_its_chunks_and_reports_win_rates_and_lengths(alice, client):
    run = services.run_submit(owner=alice, kind="dreaddraw_tournament",
                              params={"lineup": ["heuristic", "random"]}, games=60, seed=4)
    assert run.chunks.count() == 1
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE, run.error
    result = run.result
    assert result["games"] == 60
    assert sum(b["wins"] for b in result["bots"]) == 60
    assert sum(result["rounds_histogram"].values()) == 60
    heuristic = next(b for b in result["bots"] if b["bot"] == "heuristic")
    assert heuristic["ci95"][0] <= heuristic["win_rate"] <= heuristic["ci95"][1]
    client.force_login(alice)
    html = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    assert "Win rates with 95% Wilson intervals" in html and "Game length in rounds" in html


@pytest.mark.parametrize("lineup, field", [(["heuristic"], "lineup"), (["heuristic", "oracle"], "lineup[1]"),
                                           ("heuristic", "lineup")])
def test_a_bad_lineup_is_refused_naming_the_field(alice, lineup, field):
    with pytest.raises(DomainError) as refused:
        services.run_submit(owner=alice, kind="dreaddraw_tournament", params={"lineup": lineup}, games=10)
    assert refused.value.details["field"] == field


def test_the_page_form_starts_a_tournament_and_shows_its_run(alice, client):
    client.force_login(alice)
    response = client.post("/dread-draw/tournaments/new/", {"games": "20", "players": "3", "bot0": "probability",
                                                            "bot1": "heuristic", "bot2": "random"})
    assert response.status_code == 302 and "/playtest/runs/" in response["Location"]
    html = client.get(response["Location"]).content.decode()
    assert "Games played" in html
    bad = client.post("/dread-draw/tournaments/new/", {"games": "20", "players": "2", "bot0": "x", "bot1": "random"})
    assert bad.status_code == 400 and "Seat 1: “x” is not a bot; choose one of random, heuristic, probability." in \
        bad.content.decode()  # the seat as the page labels it, not the run's parameter (lineup[0])
    # The number of players and an empty seat are said in the form's words, not the run's parameters'.
    for players, said in (("7", "players: a tournament seats 2 to 6 bots, not 7."),
                          ("1", "players: a tournament seats 2 to 6 bots, not 1."),
                          ("3", "Seat 3: choose its bot.")):
        bad = client.post("/dread-draw/tournaments/new/", {"games": "10", "players": players, "bot0": "random",
                                                           "bot1": "heuristic"})
        assert bad.status_code == 400 and said in bad.content.decode(), players


def test_the_report_and_the_run_name_each_bot_as_the_forms_do(alice, client):
    """One name per bot level: the report's rows and the run's title say what the tournament form offered."""
    from dreaddraw.forms import BOT_CHOICES

    run = services.run_submit(owner=alice, kind="dreaddraw_tournament",
                              params={"lineup": ["probability", "heuristic"]}, games=20, seed=4)
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    client.force_login(alice)
    html = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    offered = dict(BOT_CHOICES)
    assert offered["probability"] == "Counting bot (probability-aware)" and offered["heuristic"] == "Heuristic bot"
    rows = re.findall(r"<tr><td>([^<]+)</td><td>\d+</td><td>\d+</td>", html)  # the win-rate rows
    assert sorted(rows) == ["Counting bot (probability-aware)", "Heuristic bot"], rows

    response = client.post("/dread-draw/tournaments/new/", {"games": "20", "players": "2", "bot0": "probability",
                                                            "bot1": "heuristic"})
    assert response.status_code == 302
    newest = Run.objects.filter(owner=alice).order_by("-created_at").first()
    assert newest.title == "Dread Draw: Counting bot (probability-aware) vs Heuristic bot"
