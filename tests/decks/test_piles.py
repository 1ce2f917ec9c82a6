"""The piles' groupings (decks/piles.py): what a pile is made of, and the ids the page gives it."""

from decks.cardinfo import CardInfo, Entry
from decks.piles import piles


def entry(number: str, name: str) -> Entry:
    return Entry(CardInfo(id=int(number[-1]), collector_number=number, name=name, craft="hinter", type="unit"), 2)


def test_tag_piles_each_have_an_id_of_their_own_however_their_tags_are_written():
    cards = [entry("T-1", "One"), entry("T-2", "Two"), entry("T-3", "Three"), entry("T-4", "Four"),
             entry("T-5", "Five")]
    tags = {"T-1": "a!", "T-2": "A?", "T-3": "untagged", "T-4": "🔥"}
    made = piles(cards, "tag", tags)
    assert [(p["key"], p["slug"]) for p in made] == [
        ("a!", "a"), ("A?", "a-2"), ("untagged", "untagged"), ("🔥", "tag"), ("", "untagged-2")]
