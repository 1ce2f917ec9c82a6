"""Starter decks of the catalog as Deck rows, for the playtest tests."""

from cards.catalog.starter_decks import load_starter_decks
from cards.models import Card
from decks.cardinfo import Entry
from decks.selectors import card_info
from decks.services import deck_create


def starter_deck(owner, craft: str = "champion", **kwargs):
    starter = load_starter_decks()[craft]
    cards = {c.collector_number: c for c in Card.objects.filter(collector_number__in=[n for n, _ in starter.cards])}
    entries = [Entry(card_info(cards[number]), count) for number, count in starter.cards]
    gateway = Card.objects.get(collector_number=starter.gateway)
    return deck_create(owner=owner, name=kwargs.pop("name", starter.name), entries=entries, gateway=gateway, **kwargs)
