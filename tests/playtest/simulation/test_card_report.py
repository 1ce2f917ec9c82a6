"""The report speaks of every card, marks illegal decks, and still reads runs recorded before it did."""

import re
from dataclasses import asdict

import pytest
from django.utils.html import escape

from decks.selectors import card_info
from decks.services import deck_change_card
from playtest.jobs import services
from playtest.models import Run
from playtest.policies.passive_effects import acts_only_on_the_opponent, needs_an_opponent
from playtest.simulation import games
from playtest.simulation.catalog import starter_decks
from playtest.simulation.report import report
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db


def _params(deck_list, mode="goldfish"):
    cards = {c.collector_number: {"name": c.name, "type": c.type} for c in deck_list}
    snapshot = {"name": "Sorcery", "legal": True, "cards": cards, "list": [c.collector_number for c in deck_list]}
    return {"mode": mode, "format": "standard", "policies": ["goldfish", "passive"], "decks": [snapshot, snapshot]}


def test_every_card_of_the_deck_is_reported_with_its_use_or_why_it_never_could_be():
    deck = starter_decks()["sorcery"]
    params = _params(deck)
    part = games.play_chunk({**params, "decks": [_snapshot(deck), _snapshot(deck)]}, 3, 0, 12)
    figures = report(games.merge([part], params), params)["decks"][0]
    names = {c.name for c in deck if c.type != "gateway"}
    reported = {row["name"] for row in figures["cards"]} | {row["name"] for row in figures["never_played"]}
    assert reported == names
    assert all(row["reason"] for row in figures["never_played"])  # each with its reason
    merged = games.merge([part], params)["cards"][0]
    assert all(merged.get(row["name"], {"legal_games": 0})["legal_games"] == 0 for row in figures["never_played"])
    assert all(merged[row["name"]]["legal_games"] > 0 for row in figures["cards"])  # legal once: a row, not a reason
    refusals = [row["reason"] for row in figures["never_played"] if row["reason"].startswith("never legal when held: ")]
    codes = {c.collector_number for c in deck}
    assert refusals and all("(rule DG-" in reason and not any(code in reason for code in codes) for reason in refusals)
    played = [row for row in figures["cards"] if row["per_game"] > 0]
    row = played[0]
    assert row["association"]["played_games"] > 0 and row["association"]["played"]["mean"] > 0


def test_a_run_recorded_before_the_card_figures_still_reports():
    deck = starter_decks()["sorcery"]
    params = _params(deck)
    old = games.merge([games.play_chunk({**params, "decks": [_snapshot(deck), _snapshot(deck)]}, 3, 0, 2)], params)
    del old["cards"]  # what runs stored before
    figures = report(old, params)["decks"][0]
    assert figures["cards"] is None and figures["played"]


def test_an_illegal_deck_is_marked_on_the_report_the_list_and_the_comparison(client, alice):
    deck = starter_deck(alice)
    lone = card_info(deck.entries.order_by("card__name").first().card)
    # more copies than DC-4 allows
    deck_change_card(deck=deck, actor=alice, card=lone, count=9, expected_version=deck.version)
    deck.refresh_from_db()
    assert not deck.is_legal
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": deck.pk}, games=2, seed=1)
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    client.force_login(alice)
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    assert "is not legal for its format" in page and "illegal deck" in page
    assert "illegal deck" in client.get("/playtest/").content.decode()
    assert "illegal deck" in client.get("/playtest/compare/", {"run": str(run.pk)}).content.decode()


def test_the_comparison_names_every_card_never_played_legal_or_not(client, alice):
    """Its row listed only the cards never legal; a card legal and never chosen is never played too."""
    from playtest.simulation.report import report

    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": starter_deck(alice).pk},
                              games=20, seed=1)
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    deck = report(run.result, run.params)["decks"][0]
    expected = sorted(c["name"] for c in deck["never_played"] + deck["unchosen"])
    assert deck["unchosen"], "no card legal and never chosen in these games any more"
    client.force_login(alice)
    page = client.get("/playtest/compare/", {"run": str(run.pk)}).content.decode()
    row = page.split('<th scope="row">Never played</th>')[1].split("</tr>")[0]
    assert all(name.replace("'", "&#x27;") in row for name in expected)


def test_the_card_figures_are_labelled_association_and_hidden_with_the_reason_for_a_card_drawn_in_every_game(
        client, alice):
    run = services.run_submit(owner=alice, kind="dreadgate_playtest", params={"deck": starter_deck(alice).pk},
                              games=20, seed=1)
    for index in run.chunks.values_list("index", flat=True):
        services.chunk_execute(run_id=run.pk, index=index)
    run.refresh_from_db()
    cards = {name: row for name, row in run.result["cards"][0].items() if row["legal_games"]}
    always = {name for name, row in cards.items() if row["drawn_games"] >= 19}  # 95% of 20 games
    sometimes = set(cards) - always
    assert always and sometimes
    client.force_login(alice)
    page = client.get(f"/playtest/runs/{run.pk}/").content.decode()
    assert "Association: games where played" in page and "Association: games where drawn, not played" in page
    assert "an association, not a cause" in page
    rows = dict(re.findall(r"<tr><td>([^<]*)</td>(.*?)</tr>", page, re.S))
    for name, row in cards.items():
        shown = rows[escape(name)]
        if not row["played_games"]:  # "played in nearly every game" was said of a card never played
            assert "Not compared: never played in the games it was drawn in" in shown
        elif name in always:
            played = int(100 * row["played_games"] / row["drawn_games"])
            assert f"Not compared: drawn in {int(100 * row['drawn_games'] / 20)}% of games and played in {played}% " \
                   "of those" in shown and "by how the game went" in shown
            # "no games without it" only when it was drawn in every game (it was said at 95% too)
            every = row["drawn_games"] == 20
            assert ("with no games without it" in shown) == every
            assert ("with almost no games without it" in shown) == (not every)
        else:
            assert "Not compared" not in shown and " games" in shown
    assert any(cards[name]["played_games"] for name in always)


def test_a_matchup_against_an_illegal_opponent_warns_before_anything_is_queued(client, alice):
    mine = starter_deck(alice)
    rival = starter_deck(alice, craft="sorcery", name="Rival")
    lone = card_info(rival.entries.order_by("card__name").first().card)
    deck_change_card(deck=rival, actor=alice, card=lone, count=9, expected_version=rival.version)
    client.force_login(alice)
    form = {"deck": mine.pk, "what": "run", "mode": "matchup", "opponent": rival.pk, "games": 2}
    warned = client.post(f"/playtest/new/?deck={mine.pk}", form)
    assert warned.status_code == 200 and "Play against it anyway" in warned.content.decode()
    assert not Run.objects.exists()
    queued = client.post(f"/playtest/new/?deck={mine.pk}", {**form, "confirm_illegal": "1"})
    assert queued.status_code == 302 and Run.objects.count() == 1


def test_the_run_names_the_policy_each_side_plays(client, alice):
    mine = starter_deck(alice)
    client.force_login(alice)
    client.post(f"/playtest/new/?deck={mine.pk}", {"deck": mine.pk, "what": "run", "mode": "goldfish", "games": 2,
                                                    "policy": "classic-goldfish"})
    run = Run.objects.get()
    assert run.params["policies"] == ["classic-goldfish", "passive"]
    assert "classic-goldfish" in client.get(f"/playtest/runs/{run.pk}/").content.decode()


def _snapshot(deck_list):
    """A deck snapshot as the workers receive it: every card's definition and the list."""
    return {"cards": {c.collector_number: asdict(c) for c in deck_list},
            "list": [c.collector_number for c in deck_list]}



def test_a_card_legal_but_never_chosen_says_whether_a_goldfish_game_could_use_it():
    """Legal but never played: a card whose effects act only on an opponent is told apart from one the policy
    passed over; the reason is on the report page."""
    deck = starter_decks()["sorcery"]
    definitions = {c.name: asdict(c) for c in deck}
    snapshot = {"name": "Sorcery", "legal": True, **_snapshot(deck)}
    params = {**_params(deck), "decks": [snapshot, snapshot]}
    figures = report(games.merge([games.play_chunk(params, 3, 0, 12)], params), params)["decks"][0]
    unchosen = {row["name"]: row["reason"] for row in figures["unchosen"]}
    assert unchosen and all(row["per_game"] == 0 for row in figures["cards"] if row["name"] in unchosen)
    assert all(row["name"] in unchosen for row in figures["cards"] if row["per_game"] == 0)
    for name, reason in unchosen.items():
        fights_only = needs_an_opponent(definitions[name])
        assert ("goldfish opponent" in reason) == fights_only, name
        # "enemy units" only of a card whose every effect acts on the opponent, never of a heal or a buff
        assert ("act only on enemy units" in reason) == (fights_only and acts_only_on_the_opponent(definitions[name]))
        assert reason.startswith("legal in ")
    matchup = report(games.merge([games.play_chunk(params, 3, 0, 2)], {**params, "mode": "matchup"}),
                     {**params, "mode": "matchup"})["decks"][0]
    assert all("goldfish" not in row["reason"] for row in matchup["unchosen"])


@pytest.mark.parametrize("card, fights_only", [
    ({"type": "item", "abilities": [{"trigger": "consumable", "effect": {
        "op": "heal", "amount": 2, "target": {"select": "chosen", "side": "friendly"}}}]}, True),
    ({"type": "talent", "abilities": [{"trigger": "play", "effect": {
        "op": "modify", "stat": "maneuver", "amount": 1, "duration": "end_of_turn",
        "target": {"select": "all", "side": "friendly"}}}]}, False),
    ({"type": "talent", "abilities": [{"trigger": "play", "effect": {  # slows the enemy: nothing to slow
        "op": "modify", "stat": "maneuver", "amount": -1, "duration": "end_of_turn",
        "target": {"select": "all", "side": "enemy"}}}]}, True),
    ({"type": "glyph", "abilities": [{"trigger": "play", "effect": {"op": "sequence", "steps": [
        {"op": "grant_keyword", "keyword": "spectral", "duration": "end_of_turn",
         "target": {"select": "chosen", "side": "friendly"}},
        {"op": "modify", "stat": "maneuver", "amount": 2, "duration": "end_of_turn",
         "target": {"select": "previous"}}]}}]}, False),  # 'previous' is the friendly unit chosen before
    ({"type": "glyph", "abilities": [{"trigger": "play", "effect": {
        "op": "action_points", "player": "opponent", "amount": -2, "when": "next_turn"}}]}, True),
    ({"type": "item", "abilities": [{"trigger": "activated", "cost": 1, "effect": {
        "op": "draw", "player": "self", "amount": 1}}]}, False),
    ({"type": "item", "abilities": [{"trigger": "equipped", "effect": {
        "op": "modify", "stat": "maneuver", "amount": 1, "duration": "while_source",
        "target": {"select": "bearer"}}}]}, False),
])
def test_what_a_goldfish_game_can_use_is_read_from_the_effects(card, fights_only):
    assert needs_an_opponent(card) is fights_only


@pytest.mark.parametrize("card, enemy_only", [
    ({"abilities": [{"trigger": "play", "effect": {  # Battle Cry
        "op": "modify", "stat": "attack", "amount": 1, "target": {"select": "all", "side": "friendly"}}}]}, False),
    ({"abilities": [{"trigger": "play", "effect": {  # Prayer of Healing
        "op": "heal", "amount": 4, "target": {"select": "chosen", "side": "friendly"}}}]}, False),
    ({"abilities": [{"trigger": "play", "effect": {
        "op": "modify", "stat": "maneuver", "amount": -1, "target": {"select": "all", "side": "enemy"}}}]}, True),
    ({"abilities": [{"trigger": "play", "effect": {
        "op": "action_points", "player": "opponent", "amount": -2, "when": "next_turn"}}]}, True),
    ({"abilities": [{"trigger": "play", "effect": {  # a chosen unit of either side
        "op": "damage", "amount": 2, "target": {"select": "chosen"}}}]}, False),
])
def test_a_report_says_enemy_only_of_cards_whose_every_effect_acts_on_the_opponent(card, enemy_only):
    assert acts_only_on_the_opponent(card) is enemy_only


def test_a_consumable_held_unplayable_is_said_to_have_no_target_not_no_bearer():
    import random

    from playtest.dreadgate import new_game
    from playtest.dreadgate.state import MAIN_PHASE
    from playtest.dreadgate.view import SeatView
    from playtest.policies import POLICIES
    from playtest.simulation.card_usage import GameCards

    decks = starter_decks()
    state = new_game([decks["divine"], decks["engineering"]], 5, "standard")
    cards = GameCards(state)
    consumables = set()
    rng = random.Random(5)
    while state.winner < 0 and state.turn < 12:
        seat = state.current_player
        if state.phase == MAIN_PHASE and any(u.owner == seat for u in state.units.values()):  # a bearer to offer
            cards.explain(state.deck_of_seat[seat], seat)
            consumables |= {state.inst[i].card.name for i in state.hand[seat] if state.inst[i].consumable}
        # the Divine deck races (its units could bear an item), the Engineering deck never deploys
        policy = "classic-goldfish" if state.deck_of_seat[seat] == 0 else "passive"
        state.apply(POLICIES[policy](SeatView(state, seat), rng))
    said = {name: why for deck in (0, 1) for name, why in cards.why_not[deck].items() if name in consumables}
    assert said
    for name, why in said.items():
        assert "bearer" not in why and "DG-14.3" not in why, (name, why)


@pytest.mark.config_independent
def test_a_deck_whose_vitality_cannot_reach_the_beyond_total_is_told_so_in_its_report():
    from playtest.simulation.report import beyond_notice

    deck = starter_decks()["champion"]
    snapshot = {"name": "Champion", **_snapshot(deck)}
    total = sum(c.vitality or 0 for c in deck if c.type in ("unit", "legend"))
    assert total >= 40 and beyond_notice(snapshot, "standard") == ""
    units = [code for code in snapshot["list"] if snapshot["cards"][code]["type"] in ("unit", "legend")]
    short = {**snapshot, "list": [code for code in snapshot["list"] if code not in units[len(units) // 3:]]}
    kept = sum(snapshot["cards"][code]["vitality"] for code in short["list"] if code in units)
    assert kept < 40
    notice = beyond_notice(short, "standard")
    assert f"{kept} vitality" in notice and "40" in notice
    assert beyond_notice(short, "tactical") == ""  # no Beyond in Tactical
    params = {**_params(deck), "decks": [short, short]}
    figures = report(games.merge([games.play_chunk(params, 3, 0, 1)], params), params)
    assert figures["decks"][0]["beyond_notice"] == notice


@pytest.mark.config_independent
def test_a_tactical_goldfish_report_says_its_games_cannot_be_won_but_at_the_turn_limit():
    """A passive opponent never fills the Boneyard, the only way Tactical is won: the report's "20 of 20 won, 50
    turns to win" was the turn limit's tie-break (DG-1.9), said of nothing."""
    from playtest.simulation.report import goldfish_notice

    assert goldfish_notice("standard") == "" and goldfish_notice("quick") == ""
    assert "only by its opponent's Boneyard (DG-1.4)" in goldfish_notice("tactical")
    deck = starter_decks()["champion"]
    snapshot = {"name": "Champion", **_snapshot(deck)}
    standard = {**_params(deck), "decks": [snapshot, snapshot]}
    result = games.merge([games.play_chunk(standard, 3, 0, 1)], standard)
    assert report(result, standard)["goldfish_notice"] == ""
    assert report(result, {**standard, "format": "tactical"})["goldfish_notice"] == goldfish_notice("tactical")
    assert report(result, {**standard, "format": "tactical", "mode": "matchup"})["goldfish_notice"] == ""
