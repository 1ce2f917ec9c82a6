"""Export then import gives back the same deck, for every card in the catalog."""

import pytest

from cards.models import Card
from decks import selectors
from decks.cardinfo import GATEWAY, Entry
from decks.deckcode import DeckCode, decode, encode
from decks.decklist import format_deck_list, parse_deck_list
from decks.selectors import card_index, deck_entries, deck_export_code, deck_export_json, deck_export_text
from decks.services import deck_create, deck_import

from .factories import make_user

pytestmark = pytest.mark.django_db


def catalog_chunks(size=60):
    index = card_index()
    cards = sorted((c for c in index.by_id.values() if c.type != GATEWAY), key=lambda c: c.collector_number)
    return index, [cards[i:i + size] for i in range(0, len(cards), size)]


def test_every_card_name_survives_text_export_and_import():
    index, chunks = catalog_chunks()
    assert sum(len(c) for c in chunks) >= 8100  # the whole catalog, not a sample
    for chunk in chunks:
        entries = [Entry(card, 1 + i % 4) for i, card in enumerate(chunk)]
        text = format_deck_list(entries, gateway=index.gateway, name="All the cards", format="standard")
        parsed = parse_deck_list(text, index)
        assert parsed.problems == [], parsed.problems[:3]
        assert [(e.card.id, e.count) for e in sorted(parsed.entries, key=lambda e: e.card.collector_number)] == \
            [(e.card.id, e.count) for e in entries]
        assert parsed.gateway == index.gateway


def test_every_card_survives_the_deck_code():
    index, chunks = catalog_chunks(150)
    for chunk in chunks:
        code = DeckCode("quick", tuple(sorted((c.collector_number, 1 + i % 4) for i, c in enumerate(chunk))),
                        index.gateway.collector_number if index.gateway else None)
        assert decode(encode(code)) == code
        assert all(number.casefold() in index.by_number for number, _ in decode(encode(code)).cards)


def test_a_saved_deck_round_trips_through_text_code_and_json():
    owner = make_user()
    units = list(Card.objects.filter(type="unit").order_by("collector_number")[:8])
    authored = list(Card.objects.exclude(type__in=["unit", "gateway"]).filter(is_unique=False)[:2])
    glyph = Card.objects.filter(is_unique=True).first()
    entries = [Entry(card, 4) for card in units + authored]
    from decks.selectors import card_info
    entries = [Entry(card_info(e.card), e.count) for e in entries] + [Entry(card_info(glyph), 1)]
    deck = deck_create(owner=owner, name="Round trip", format="tactical", entries=entries)
    want = sorted((e.card.id, e.count) for e in deck_entries(deck))
    from_text = deck_import(owner=owner, text=deck_export_text(deck))
    from_code = deck_import(owner=owner, code=deck_export_code(deck))
    as_json = deck_export_json(deck)
    from_json = deck_import(owner=owner, data=as_json)
    for copy in (from_text, from_code, from_json):
        assert sorted((e.card.id, e.count) for e in deck_entries(copy)) == want
        assert copy.format == "tactical" and copy.gateway_id == deck.gateway_id
        assert deck_export_code(copy) == deck_export_code(deck)
    assert from_text.name == "Round trip" and from_json.name == "Round trip"


def test_starter_deck_codes_are_compact_and_exact():
    from decks.models import Deck
    from decks.services import read_deck_code
    from decks.starters import load_starter_decks

    load_starter_decks()  # idempotent; restores them if a live-server test flushed the decks
    for deck in Deck.objects.filter(is_starter=True):
        code = deck_export_code(deck)
        assert len(code) <= 240, (deck.name, len(code))  # ~45 different cards, 3 to 4 bytes each
        _, entries, gateway = read_deck_code(code)
        assert sorted((e.card.id, e.count) for e in entries) == sorted((e.card.id, e.count)
                                                                       for e in deck_entries(deck))
        assert (gateway.id if gateway else None) == deck.gateway_id  # Tactical starters have none


def test_the_card_index_drops_a_card_deleted_by_another_process():
    from django.db import connection

    from .factories import make_card

    older = make_card(name="Zz Index Older")  # an older card goes, so the newest id stays the same
    make_card(name="Zz Index Newer")
    assert card_index().resolve("Zz Index Older") is not None
    with connection.cursor() as cursor:  # no signal reaches this process, as from another server
        cursor.execute("DELETE FROM cards_card WHERE id = %s", [older.pk])
    assert card_index().resolve("Zz Index Older") is not None  # the catalog is checked once in two seconds
    selectors._key_memo = None  # as if the two seconds had passed
    assert card_index().resolve("Zz Index Older") is None


def test_a_damaged_code_is_said_to_be_damaged_without_the_garbage_it_decodes_to():
    from decks.errors import InvalidDeckCode
    from decks.services import read_deck_code

    card = Card.objects.filter(type="unit").first()
    damaged = encode(DeckCode("standard", ((card.collector_number, 2),), "X-G\x00\x00\x00"))
    with pytest.raises(InvalidDeckCode) as refused:
        read_deck_code(damaged)
    assert "damaged" in refused.value.message and "\x00" not in refused.value.message
    with pytest.raises(InvalidDeckCode, match="not in the catalog: Z-NONE"):  # a readable number is still named
        read_deck_code(encode(DeckCode("standard", ((card.collector_number, 2),), "Z-NONE")))
