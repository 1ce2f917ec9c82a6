"""Starter decks: loaded from the data file as public, ownerless, legal, clonable decks; idempotent."""

import pytest
import yaml

from decks.models import Deck, Visibility
from decks.services import deck_copy
from decks.starters import StarterDeckError, load_starter_decks

from .factories import make_card, make_user

pytestmark = pytest.mark.django_db


def write_file(tmp_path, decks):
    path = tmp_path / "starter_decks.yaml"
    path.write_text(yaml.safe_dump({"decks": decks}), encoding="utf-8")
    return path


def test_loads_public_ownerless_legal_decks_and_is_idempotent(tmp_path):
    gate = make_card("gateway", name="Zz Test Gate", collector_number="X-TGATE", craft="universal", vitality=None)
    units = [make_card(craft="hinter") for _ in range(9)]
    legend = make_card("legend", name="Zz Beast Queen", craft="hinter", unique=True)
    cards = {u.collector_number: 4 for u in units[:8]} | {units[8].name: 3, legend.name: 1}
    path = write_file(tmp_path, {"testcraft": {"name": "Hinter Starter", "description": "Beasts.", "gateway": "X-TGATE",
                                            "cards": cards}})
    assert load_starter_decks(path) == {"created": 1, "updated": 0, "unchanged": 0}
    deck = Deck.objects.get(is_starter=True, starter_key="testcraft")
    assert deck.owner is None and deck.visibility == Visibility.PUBLIC and deck.is_legal
    assert deck.card_count == 36 and deck.gateway == gate and deck.crafts == "hinter"
    assert load_starter_decks(path) == {"created": 0, "updated": 0, "unchanged": 1}
    cards[units[8].name] = 4
    path = write_file(tmp_path, {"testcraft": {"name": "Hinter Starter", "gateway": "X-TGATE", "cards": cards}})
    assert load_starter_decks(path) == {"created": 0, "updated": 1, "unchanged": 0}
    deck.refresh_from_db()
    assert deck.card_count == 37 and deck.version == 2
    copy = deck_copy(deck=deck, owner=make_user())
    assert copy.copied_from == deck and copy.card_count == 37 and not copy.is_starter


def test_unknown_cards_or_an_illegal_starter_deck_stop_the_load(tmp_path):
    unit = make_card()
    path = write_file(tmp_path, {"bad": {"name": "Bad", "cards": {unit.collector_number: 5, "No Such Card": 1}}})
    with pytest.raises(StarterDeckError) as exc:
        load_starter_decks(path)
    assert "No Such Card" in str(exc.value) and "at most 4 copies" in str(exc.value)
    assert not Deck.objects.filter(is_starter=True, starter_key="bad").exists()


def test_two_legal_public_starter_decks_per_craft_come_with_the_catalog():
    """One for Standard and Quick with its gateway pair, one for Tactical with none (DC-6, DC-7)."""
    # Idempotent: a no-op after the session setup, and reloads them if a live-server test flushed the decks.
    load_starter_decks()
    starters = list(Deck.objects.filter(is_starter=True).order_by("starter_key"))
    crafts = ["artifice", "champion", "divine", "engineering", "hinter", "sorcery"]
    assert [d.starter_key for d in starters] == sorted(crafts + [f"{c}-tactical" for c in crafts])
    for deck in starters:
        assert deck.is_legal and deck.visibility == Visibility.PUBLIC and deck.owner is None, deck.name
        assert 36 <= deck.card_count <= 60
        tactical = deck.starter_key.endswith("-tactical")
        assert deck.format == ("tactical" if tactical else "standard")
        assert (deck.gateway is None) == tactical
        assert deck.starter_key.removesuffix("-tactical") in deck.crafts.split()
