"""Dreadgate playtest runs: submission snapshots the decks, chunks play real games, the report adds up."""

import pytest

from core.errors import DomainError
from decks.models import Visibility
from decks.services import deck_create
from playtest.dreadgate import ENGINE_VERSION, new_game
from playtest.jobs import services
from playtest.models import Run, RunStatus
from playtest.simulation import games as dreadgate_sim
from playtest.simulation.report import report
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db




def play_all(run):
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    return run


def test_the_sample_games_keep_their_frames_and_the_others_none(alice):
    """docs/rules.md RV-2: what each step of a sample game showed, every card (the game is over)."""
    from core.frames import from_text, unpack

    deck = starter_deck(alice)
    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk}, games=7,
                                       seed=3))  # fmt: skip
    samples = run.result["samples"]
    assert [s["game"] for s in samples] == [0, 1, 2, 3, 4]
    for sample in samples:
        frames = unpack(from_text(sample["frames"]))
        assert len(frames) == len(sample["record"]["actions"]) + 1 and set(frames[0]) == {"all"}
        assert frames[-1]["all"]["seen"]["phase"] == "over"


def test_submission_snapshots_every_card_of_the_deck(alice):
    deck = starter_deck(alice)
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk}, games=4, seed=1)
    snapshot = run.params["decks"][0]
    assert snapshot["id"] == deck.pk
    assert len(snapshot["list"]) == deck.card_count + 1  # the main deck and its gateway card
    assert set(snapshot["list"]) == set(snapshot["cards"])
    assert run.params["policies"] == ["goldfish", "passive"]
    assert run.engine_version == ENGINE_VERSION


def test_a_cards_definition_is_read_once_per_catalog_and_a_saved_card_is_seen_at_once(alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cards.models import Card

    deck = starter_deck(alice)
    submit = lambda: services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk},  # noqa: E731
                                         games=4, seed=1)
    submit()
    with CaptureQueriesContext(connection) as again:
        submit()
    assert not [q for q in again.captured_queries if "cards_card_keywords" in q["sql"]]
    card = Card.objects.get(collector_number=deck.entries.order_by("pk").first().card.collector_number)
    card.name = "Renamed in the admin"
    card.save()
    assert submit().params["decks"][0]["cards"][card.collector_number]["name"] == "Renamed in the admin"


def test_a_decks_snapshot_is_read_once_per_version_and_a_saved_deck_is_seen_at_once(alice):
    """Run after run of one version of a deck reads its cards once; a save (a new version) is played as saved."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from decks.selectors import deck_entries
    from decks.services import deck_update

    deck = starter_deck(alice)
    submit = lambda: services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk},  # noqa: E731
                                         games=4, seed=1)
    first = submit().params["decks"][0]
    with CaptureQueriesContext(connection) as again:
        assert submit().params["decks"][0] == first
    assert not [q for q in again.captured_queries if "decks_deckentry" in q["sql"]]
    *kept, last = deck_entries(deck)
    fewer = [*kept, type(last)(last.card, last.count - 1)] if last.count > 1 else kept  # one copy fewer
    deck = deck_update(deck=deck, actor=alice, expected_version=deck.version, name="Renamed", entries=fewer)
    saved = submit().params["decks"][0]
    assert saved["name"] == "Renamed" and saved["version"] == deck.version
    assert len(saved["list"]) == len(first["list"]) - 1


def test_a_game_of_a_list_is_set_up_once_whatever_the_deck_is_called_or_described(alice, monkeypatch):
    """The setup check depends on the lists and the catalog alone: a deck renamed or described anew between two
    runs is not set up again (the deck edit then a run that a player repeats), a list changed is."""
    from decks.selectors import deck_entries
    from decks.services import deck_update
    from playtest.simulation import job_kind

    setups = []
    monkeypatch.setattr(job_kind, "new_game", lambda *args: setups.append(args) or new_game(*args))
    monkeypatch.setattr(job_kind, "_setups", job_kind._PerCatalog(kept=16))  # nothing remembered from other tests
    deck = starter_deck(alice)
    submit = lambda: services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk},  # noqa: E731
                                         games=4, seed=1)
    submit()
    deck = deck_update(deck=deck, actor=alice, expected_version=deck.version, name="Renamed", description="New")
    assert submit().params["decks"][0]["name"] == "Renamed"
    assert len(setups) == 1
    deck = deck_update(deck=deck, actor=alice, expected_version=deck.version, entries=deck_entries(deck)[1:])
    submit()
    assert len(setups) == 2


def test_a_run_with_a_slow_policy_plays_in_small_chunks(alice):
    """A chunk of `strong` games must end well within the task's time limit: a few games a chunk, not a hundred."""
    deck = starter_deck(alice)
    usual = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk}, games=20, seed=1)
    slow = services.run_submit(owner=alice, kind="dreadgate_playtest", games=20, seed=1,
                               params={"deck": deck.pk, "mode": "matchup", "opponent": deck.pk,
                                       "policies": ["strong", "matchup"]})
    assert usual.chunk_size == 100 and usual.chunks.count() == 1
    assert slow.chunk_size == 4 and slow.chunks.count() == 5


def test_the_api_shows_each_deck_snapshot_summarised(client, alice):
    deck = starter_deck(alice)
    client.force_login(alice)
    response = client.post("/api/runs/", {"kind": "dreadgate_playtest", "games": 2, "params": {"deck": deck.pk}},
                           content_type="application/json")
    assert response.status_code == 202, response.json()
    shown = response.json()["params"]
    expected = {"id": deck.pk, "name": deck.name, "version": deck.version, "legal": deck.is_legal,
                "cards": deck.card_count}  # as its page gives it: the snapshot also holds its gateway card
    assert shown["decks"] == [expected, expected] and shown["mode"] == "goldfish"
    assert client.get(f"/api/runs/{response.json()['id']}/").json()["params"] == shown
    # The workers still play from the whole snapshot.
    assert len(Run.objects.get(pk=response.json()["id"]).params["decks"][0]["cards"]) > 1


def test_a_goldfish_run_reports_turns_to_win_and_card_use(alice):
    deck = starter_deck(alice)
    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk},
                                       games=12, seed=5))
    assert run.status == RunStatus.DONE, run.error
    result = run.result
    assert result["games"] == 12
    assert sum(result["wins"]) + result["draws"] == 12
    assert result["wins"][1] == 0, "the goldfish opponent does nothing, so it never wins"
    figures = report(result, run.params)
    mine = figures["decks"][0]
    assert mine["wins"] == result["wins"][0]
    if mine["wins"]:
        to_win = mine["turns_to_win"]
        assert to_win["median_low"] <= to_win["median"] <= to_win["median_high"]
        assert mine["won_by_turn"][-1][1] == pytest.approx(mine["wins"] / 12)
    assert mine["played"], "a goldfish deck plays cards"
    assert len(figures["samples"]) == 5


def test_a_matchup_plays_both_decks(alice, bob):
    mine = starter_deck(alice, craft="champion")
    theirs = starter_deck(bob, craft="sorcery", visibility=Visibility.PUBLIC)
    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest",
                                       params={"mode": "matchup", "deck": mine.pk, "opponent": theirs.pk},
                                       games=6, seed=2))
    assert run.status == RunStatus.DONE, run.error
    assert run.params["policies"] == ["matchup", "matchup"]
    assert sum(run.result["wins"]) + run.result["draws"] == 6
    assert run.result["played"][1], "the opponent plays too"


@pytest.mark.parametrize("mode", ["goldfish", "matchup"])
def test_same_seed_same_report_whatever_the_chunking(alice, mode):
    """The whole-deck policies draw all their randomness from the game's seed: chunks change nothing."""
    deck = starter_deck(alice)
    rival = starter_deck(alice, craft="sorcery", name="Rival")
    asked = {"deck": deck.pk, "mode": mode, "opponent": rival.pk if mode == "matchup" else None}
    params = services.run_submit(owner=alice, kind="dreadgate_playtest", params=asked, games=1).params
    assert params["policies"] == (["goldfish", "passive"] if mode == "goldfish" else ["matchup", "matchup"])
    whole = dreadgate_sim.play_chunk(params, 77, 0, 6)
    split = dreadgate_sim.merge([dreadgate_sim.play_chunk(params, 77, 0, 2),
                                 dreadgate_sim.play_chunk(params, 77, 2, 4)], params)
    assert dreadgate_sim.merge([whole], params) == split
    again = dreadgate_sim.merge([dreadgate_sim.play_chunk(params, 77, 0, 6)], params)
    assert again == split


def test_someone_elses_private_deck_cannot_be_playtested(alice, bob):
    hidden = starter_deck(bob)
    with pytest.raises(DomainError) as refused:
        services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": hidden.pk}, games=4)
    assert refused.value.status_code == 404


def test_a_public_deck_may_be_playtested_by_anyone_and_the_run_is_theirs(alice, bob):
    public = starter_deck(bob, visibility=Visibility.PUBLIC)
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": public.pk}, games=4)
    assert run.owner == alice


def test_a_matchup_without_an_opponent_is_a_400_naming_the_field(alice):
    deck = starter_deck(alice)
    with pytest.raises(DomainError) as refused:
        services.run_submit(owner=alice, kind="dreadgate_playtest", params={"mode": "matchup", "deck": deck.pk},
                            games=4)
    assert refused.value.status_code == 400 and refused.value.details["field"] == "opponent"


def test_a_cancelled_runs_page_reports_the_games_it_played(client, alice):
    """Cancelling a long run part-way keeps what it played: its page reports the games of its finished chunks, says
    how many of how many, and that the figures count those only."""
    deck = starter_deck(alice)
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk}, games=150, seed=9)
    services.chunk_execute(run_id=run.pk, index=0)  # 100 games
    services.run_cancel(run=run)
    client.force_login(alice)
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    assert "Report of the 100 games played before it stopped" in page
    assert "The run was cancelled after 100 of its 150 games" in page
    assert "Turns to win" in page and f"/playtest/runs/{run.pk}/games/0/" in page  # the report, its sample games
    assert client.get(f"/playtest/runs/{run.pk}/games/0/?step=3").status_code == 200  # and they replay


def test_the_report_page_and_a_replay_step(client, alice):
    deck = starter_deck(alice)
    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk},
                                       games=5, seed=9))
    client.force_login(alice)
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    assert "Turns to win" in page and "Probability of having won by turn N" in page
    assert f"/playtest/runs/{run.pk}/games/0/" in page
    replay = client.get(f"/playtest/runs/{run.pk}/games/0/?step=3")
    assert replay.status_code == 200
    html = replay.content.decode()
    assert "Step 3 of" in html and 'data-cell="c3"' in html
    log = html[html.index('id="log-h"'):]
    assert log.count("keeps their hand") + log.count("takes a mulligan") >= 2  # the log in words, South and North
    assert "South " in log and "<li>keep</li>" not in log
    assert client.get(f"/playtest/runs/{run.pk}/games/9/").status_code == 404


def test_two_runs_side_by_side(client, alice):
    deck = starter_deck(alice)
    runs = [play_all(services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk},
                                         games=4, seed=seed)) for seed in (1, 2)]
    client.force_login(alice)
    html = client.get("/playtest/compare/", {"run": [str(r.pk) for r in runs]}).content.decode()
    assert html.count(f"/playtest/runs/{runs[0].pk}/") == 1 and html.count(f"/playtest/runs/{runs[1].pk}/") == 1
    assert "Turns to win, median (95% CI)" in html


def test_a_comparison_skips_malformed_run_ids_and_reads_any_spelling_of_a_good_one(client, alice):
    deck = starter_deck(alice)
    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk},
                                       games=4, seed=1))
    client.force_login(alice)
    response = client.get("/playtest/compare/", {"run": ["not-a-run", run.pk.hex.upper()]})
    assert response.status_code == 200
    assert response.content.decode().count(f"/playtest/runs/{run.pk}/") == 1


def test_someone_elses_run_is_left_out_of_a_comparison(client, alice, bob):
    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest",
                                       params={"deck": starter_deck(alice).pk}, games=4, seed=1))
    client.force_login(bob)
    html = client.get("/playtest/compare/", {"run": [str(run.pk)]}).content.decode()
    assert str(run.pk) not in html


def _older_sample(run, steps=6):
    """Sample game 0 of the run as if it had been played under older rules, which dealt seven cards: its record and
    its frames say so (the rules that played it are not this app's)."""
    from core.frames import pack, to_text
    from playtest.dreadgate import game_frames
    from playtest.simulation.games import deck_cards
    from tests.playtest.dreadgate import older_rules

    state = older_rules.new_game([deck_cards(d) for d in run.params["decks"]], 4, run.params["format"])
    for _ in range(steps):
        state.apply(state.legal_actions()[0])
    sample = run.result["samples"][0]
    sample["record"] = older_rules.to_record(state)
    sample["frames"] = to_text(pack(game_frames(state, ("all",))))
    run.save(update_fields=["result"])
    return sample


def test_a_replay_of_older_rules_is_shown_from_its_frames_and_says_so(client, alice):
    """docs/rules.md RV-4: the older rules dealt seven cards, so the replay shows seven-card hands; no engine
    replays it."""
    from playtest.goldfish.board import CardFaces
    from playtest.goldfish.stored import replay_view, sample_frames

    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": starter_deck(alice).pk},
                                       games=5, seed=9))  # fmt: skip
    sample = _older_sample(run)
    opening = replay_view(sample_frames(sample), 0, CardFaces.from_decks(run.params["decks"]))["view"]["players"]
    assert [len(p["hand"]) for p in opening] == [7, 7]
    client.force_login(alice)
    html = client.get(f"/playtest/runs/{run.pk}/games/0/?step=6").content.decode()
    assert "Step 6 of 6" in html and "Played under rules version <strong>0.9.0-test</strong>" in html
    assert "rule RV-4" in html


def test_a_replay_of_rules_the_app_no_longer_has_and_no_frames_says_so_instead_of_failing(client, alice):
    """docs/rules.md RV-6."""
    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": starter_deck(alice).pk},
                                       games=5, seed=9))  # fmt: skip
    run.result["samples"][0]["record"]["engine"] = "0.0.1"
    del run.result["samples"][0]["frames"]
    run.save(update_fields=["result"])
    client.force_login(alice)
    response = client.get(f"/playtest/runs/{run.pk}/games/0/?step=3")
    assert response.status_code == 200
    assert "which this app no longer has" in response.content.decode()


def test_a_deck_the_engine_cant_set_up_is_refused_each_time_it_is_submitted(alice):
    """A Tactical deck saved with a talent in it (work in progress) can't start a game (DG-1.4): refused with the
    engine's words, again on the next submission of the same list (the setup is remembered per list), and accepted
    once the deck is mended."""
    from decks.services import deck_create, deck_update
    from tests.decks.factories import entries_of, legal_pool, make_card

    units, talent = legal_pool(9), make_card("talent")
    deck = deck_create(owner=alice, name="Tactical, unfinished", format="tactical",
                       entries=entries_of(*[(card, 4) for card in units], (talent, 1)))
    for _ in range(2):
        with pytest.raises(DomainError) as refused:
            services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk}, games=2)
        assert refused.value.code == "deck_unplayable" and "not played in Tactical (DG-1.4)" in str(refused.value)
    mended = deck_update(deck=deck, actor=alice, expected_version=deck.version,
                         entries=entries_of(*[(card, 4) for card in units]))
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": mended.pk}, games=2)
    assert run.params["decks"][0]["version"] == mended.version


def test_an_empty_decks_report_draws_no_card_and_says_no_game_was_won(client, alice):
    empty = deck_create(owner=alice, name="Nothing yet", entries=[])
    run = play_all(services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": empty.pk}, games=4))
    figures = report(run.result, run.params)["decks"][0]
    assert figures["wins"] == 0 and figures["drawn_per_game"] == 0  # it said 6.0: an opening hand of a full deck
    client.force_login(alice)
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    assert "No game won: no turns to win to chart." in page and "Probability of having won by turn N" not in page
