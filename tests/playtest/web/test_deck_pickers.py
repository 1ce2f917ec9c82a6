"""Every deck picker marks an illegal deck "not legal" in words and offers only the decks that the chosen format's
games take (docs/rules.md, DC-8); a deck of another format sent anyway is refused, naming the field."""

import re

import pytest

from decks.cardinfo import Entry
from decks.models import Deck
from decks.selectors import deck_entries
from decks.services import deck_create
from playtest.models import GoldfishTable, Run
from tests.playtest.dreadgate_decks import starter_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def decks(alice):
    """Alice's legal Quick deck, her 12-card Quick deck (illegal, DC-3), a Standard starter and a Tactical one."""
    quick = starter_deck(alice, name="My quick", format="quick")
    entries, total = [], 0
    for entry in deck_entries(quick):  # its first 12 cards
        if total < 12:
            entries.append(Entry(entry.card, min(entry.count, 12 - total)))
            total += entries[-1].count
    twelve = deck_create(owner=alice, name="Twelve cards", format="quick", entries=entries)
    assert quick.is_legal and not twelve.is_legal and twelve.card_count == 12
    standard = Deck.objects.filter(is_starter=True, format="standard").order_by("starter_key").first()
    tactical = Deck.objects.filter(is_starter=True, format="tactical").order_by("starter_key").first()
    return quick, twelve, standard, tactical


def options(html: str, select_id: str) -> dict[int, str]:
    """The select's options by deck id: each option's attributes and words."""
    select = re.search(rf'<select id="{select_id}"[^>]*>(.*?)</select>', html, re.S).group(1)
    return {int(pk): rest for pk, rest in re.findall(r'<option value="(\d+)"(.*?)</option>', select, re.S)}


def test_the_deck_pages_pickers_offer_the_decks_its_games_take_and_mark_the_illegal_ones(client, alice, decks):
    quick, twelve, standard, tactical = decks
    client.force_login(alice)
    html = client.get(f"/playtest/new/?deck={quick.pk}").content.decode()
    for select_id in ("opponent", "table-opponent"):  # a matchup's opponent, the AI's deck at a goldfish table
        offered = options(html, select_id)
        assert tactical.pk not in offered and standard.pk in offered  # a Standard deck plays in a Quick game
        assert offered[twelve.pk].endswith("Twelve cards (Quick, not legal)")
        assert offered[standard.pk].endswith(f"{standard.name} (Standard, starter)")


def test_the_playtest_pages_picker_hides_the_opponents_the_chosen_decks_games_do_not_take(client, alice, decks):
    quick, twelve, standard, tactical = decks
    client.force_login(alice)
    html = client.get("/playtest/").content.decode()
    mine = options(html, "sim-deck")
    assert mine[quick.pk] == ' data-takes="standard quick">My quick (Quick)'  # the first choice: a Quick deck
    assert mine[twelve.pk].endswith(">Twelve cards (Quick, not legal)")
    assert mine[tactical.pk].startswith(' data-takes="tactical">')
    opponents = options(html, "opponent")
    assert opponents[tactical.pk].startswith(' data-deck-format="tactical" hidden disabled>')
    assert opponents[standard.pk].startswith(' data-deck-format="standard">')


def test_a_deck_of_a_format_the_game_does_not_take_is_refused_naming_the_field(client, alice, decks):
    """DC-8: a Quick game takes Standard and Quick decks; a Tactical deck sent anyway is refused, nothing queued."""
    quick, _, _, tactical = decks
    client.force_login(alice)
    run = client.post("/playtest/new/", {"what": "run", "deck": quick.pk, "mode": "matchup",
                                         "opponent": tactical.pk, "games": "10"})
    assert run.status_code == 400 and not Run.objects.exists()
    assert (f"opponent: “{tactical.name}” is a Tactical deck, and a Quick game takes Standard and Quick decks only "
            "(rule DC-8)") in run.content.decode()
    table = client.post("/playtest/new/", {"what": "table", "deck": quick.pk, "table_opponent": tactical.pk})
    assert table.status_code == 400 and not GoldfishTable.objects.exists()
    assert "is a Tactical deck" in table.content.decode()
    api = client.post("/api/tunings/", {"deck": quick.pk, "goal": "matchup", "gauntlet": [tactical.pk],
                                        "budget": 2000}, content_type="application/json")
    error = api.json()["error"]
    assert api.status_code == 422 and error["code"] == "deck_format" and error["details"]["field"] == "gauntlet[0]"


def test_the_metagame_and_tuning_forms_mark_the_illegal_decks_and_leave_out_the_tactical_ones(client, alice, decks):
    quick, twelve, standard, tactical = decks
    client.force_login(alice)
    for url in ("/playtest/metagame/", f"/playtest/tune/?deck={quick.pk}"):
        html = client.get(url).content.decode()
        label = re.search(rf'<label data-deck-format="quick"><input type="checkbox" name="\w+" value="{twelve.pk}"'
                          r"[^>]*>(.*?)</label>", html, re.S)
        assert label and "not legal" in label.group(1), url
        assert f'value="{standard.pk}"' in html and f'value="{tactical.pk}"' not in html, url
