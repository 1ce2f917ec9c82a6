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


def test_a_pile_is_sorted_by_name_by_vitality_or_by_copies_each_then_by_name():
    from tests.decks.factories import info

    cheap, dear = info(name="Zebra", vitality=1), info(name="Aardvark", vitality=5)
    also_dear = info(name="Mole", vitality=5)
    glyph = info("glyph", name="Glyph")
    entries = [Entry(cheap, 1), Entry(dear, 2), Entry(also_dear, 4), Entry(glyph, 4)]

    def order(sort: str, grouping: str = "craft") -> list[str]:
        return [e.card.name for pile in piles(entries, grouping, sort=sort) for e in pile["entries"]]

    assert order("name") == ["Aardvark", "Glyph", "Mole", "Zebra"]
    assert order("vitality") == ["Zebra", "Aardvark", "Mole", "Glyph"]  # the curve, a card without vitality last
    assert order("copies") == ["Glyph", "Mole", "Aardvark", "Zebra"]
    assert order("no such order") == order("name")
    assert order("vitality", "type") == ["Zebra", "Aardvark", "Mole", "Glyph"]  # within each pile: units, glyphs
