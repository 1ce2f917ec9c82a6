"""The swaps a tuning run considers, and the shortlist it races (before any game is played).

A candidate is a single swap: one copy of a card of the deck out, one copy of another card in: a card of the
deck's crafts or a universal card, of a type the format allows, such that the deck after the swap passes the
deck validator (DC-1..DC-7: copies, unique cards, size). Every candidate is validated; none is proposed that
the deck builder would refuse.

The shortlist rule (said in the report, SHORTLIST_RULE): each swap gets a cheap score, the card in's worth minus
the card out's, where a card's worth is
- its power, as a z-score among the units that could be in the deck (other cards count as an average unit): for
  the goldfish goal, the points a unit carries through the Gateway (its vitality, DG-9.1) counted up to
  RACE_VITALITY and less above it (a unit costing more than a turn and a half of action points is slow to
  deploy: measured on the starters, Quick, in docs/ai.md), plus half its maneuver; for the matchup goal, its
  attack + defense + range + maneuver per point of vitality (what it brings to a fight for what it costs);
- how common it is in the public decks of the same crafts (the share of those decks that hold it, doubled);
- a half point for a card the deck already holds (another copy makes it more consistent);
- for the goldfish goal, a point less for a card none of whose effects can bring a goldfish win closer
  (playtest.policies.passive_effects: it only acts on an opponent, and there is none);
and the best-scored legal swaps are kept, at most MAX_PER_CUT per card out and MAX_PER_ADD per card in, so that
the race sees more than one idea.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from statistics import fmean, pstdev

from cards.models import Card
from core.formats import FORMATS
from decks.cardinfo import LEGEND, MAIN_DECK_TYPES, UNIT, UNIVERSAL, CardInfo, Entry
from decks.models import Deck, DeckEntry, Visibility
from decks.selectors import card_index, deck_entries, deck_gateway_info
from decks.validation import validate_deck
from playtest.policies.passive_effects import abilities_need_an_opponent

MAX_SHORTLIST = 200
RACE_VITALITY = 6
MAX_PER_CUT, MAX_PER_ADD = 20, 10
SHORTLIST_RULE = (
    "Swaps are scored before any game: the card in's worth minus the card out's, where a card's worth is its "
    "power against the other units it could replace (goldfish: the points a unit carries through the Gateway, its "
    f"vitality, counted up to {RACE_VITALITY} and less above, plus half its maneuver; matchup: its attack, defense, "
    "range and maneuver per point of vitality; other cards count as an average unit), plus twice the share of "
    "public decks of the same crafts that hold it, plus half a point if the deck already holds it, minus a point, "
    "when the goal is goldfish, for a card whose every effect needs an opponent. The best-scored legal swaps are "
    "raced, at most "
    f"{MAX_PER_CUT} for any one card out and {MAX_PER_ADD} for any one card in."
)


@dataclass(frozen=True, slots=True)
class Swap:
    cut: CardInfo
    add: CardInfo
    score: float

    def as_dict(self) -> dict[str, str]:
        return {"cut": self.cut.collector_number, "add": self.add.collector_number}


def unit_power(card: CardInfo) -> float:
    """What a unit brings to a fight for what it costs: its stats per point of vitality."""
    stats = (card.attack or 0) + (card.defense or 0) + (card.range or 0) + (card.maneuver or 0)
    return stats / max(card.vitality or 1, 1)


def race_power(card: CardInfo) -> float:
    """What a unit brings to a goldfish race: the points it carries through, if it can be deployed soon."""
    vitality = card.vitality or 0
    carried = vitality if vitality <= RACE_VITALITY else 2 * RACE_VITALITY - vitality
    return carried + (card.maneuver or 0) / 2


POWER = {"goldfish": race_power, "matchup": unit_power}


def _pool(crafts: set[str], fmt: str) -> list[CardInfo]:
    allowed = FORMATS[fmt].allowed_types & MAIN_DECK_TYPES
    return sorted((card for card in card_index().by_id.values()
                   if card.type in allowed and (card.craft in crafts or card.craft == UNIVERSAL)),
                  key=lambda card: card.collector_number)


def _popularity(deck_id: int | None, crafts: set[str]) -> dict[int, float]:
    """The share of public decks (other than this one) holding each card, among decks of the same crafts."""
    decks = set(Deck.objects.filter(visibility=Visibility.PUBLIC).exclude(pk=deck_id)
                .filter(entries__card__craft__in=crafts).values_list("pk", flat=True))
    if not decks:
        return {}
    holding = Counter(DeckEntry.objects.filter(deck_id__in=decks).values_list("card_id", flat=True))
    return {card_id: n / len(decks) for card_id, n in holding.items()}


def _idle_in_goldfish(cards: list[CardInfo]) -> set[int]:
    """The cards none of whose effects can bring a goldfish win closer."""
    rows = Card.objects.filter(pk__in=[c.id for c in cards if c.type not in (UNIT, LEGEND)]).values_list(
        "pk", "type", "abilities")
    return {pk for pk, card_type, abilities in rows if abilities_need_an_opponent(card_type, abilities or [])}


def _worths(pool: list[CardInfo], held: set[int], popularity: dict[int, float], idle: set[int],
            goal: str) -> dict[int, float]:
    power = POWER[goal]
    powers = [power(card) for card in pool if card.type == UNIT]
    mean, spread = (fmean(powers), pstdev(powers) or 1.0) if powers else (0.0, 1.0)
    return {card.id: ((power(card) - mean) / spread if card.type == UNIT else 0.0)
            + 2 * popularity.get(card.id, 0.0) + (0.5 if card.id in held else 0.0) - (1.0 if card.id in idle else 0.0)
            for card in pool}


def candidates(deck: Deck, fmt: str, goal: str = "goldfish", limit: int = MAX_SHORTLIST) -> tuple[list[Swap], int]:
    """The shortlist of the deck as it is now: shortlist_of its entries."""
    return shortlist_of(deck_entries(deck), deck_gateway_info(deck), deck_id=deck.pk, fmt=fmt, goal=goal, limit=limit)


def shortlist_of(entries: list[Entry], gateway: CardInfo | None, *, deck_id: int | None, fmt: str,
                 goal: str = "goldfish", limit: int = MAX_SHORTLIST) -> tuple[list[Swap], int]:
    """The shortlist (best first, every swap legal) of a deck's entries and the number of swaps it was taken from;
    `deck_id`'s own public copy does not count in the cards' popularity."""
    counts = {e.card.id: e.count for e in entries}
    cards = {e.card.id: e.card for e in entries}
    crafts = {card.craft for card in cards.values() if card.craft != UNIVERSAL}
    pool = _pool(crafts, fmt)
    every = pool + [c for c in cards.values() if c.id not in {p.id for p in pool}]
    worth = _worths(every, set(counts), _popularity(deck_id, crafts),
                    _idle_in_goldfish(every) if goal == "goldfish" else set(), goal)
    cuts = [card for card in cards.values() if card.type in MAIN_DECK_TYPES]
    scored = sorted((Swap(cut, add, worth.get(add.id, 0.0) - worth.get(cut.id, 0.0))
                     for cut in cuts for add in pool if add.id != cut.id),
                    key=lambda s: (-s.score, s.cut.collector_number, s.add.collector_number))
    shortlist: list[Swap] = []
    per_cut: Counter[int] = Counter()
    per_add: Counter[int] = Counter()
    for swap in scored:
        if len(shortlist) == limit:
            break
        if per_cut[swap.cut.id] >= MAX_PER_CUT or per_add[swap.add.id] >= MAX_PER_ADD:
            continue
        if is_legal_swap(entries, swap, fmt, gateway):  # validated one by one: only the shortlist's need it
            shortlist.append(swap)
            per_cut[swap.cut.id] += 1
            per_add[swap.add.id] += 1
    return shortlist, len(scored)


def swapped_entries(entries: list[Entry], cut: CardInfo, add: CardInfo) -> list[Entry]:
    """The deck's entries with one copy of `cut` out and one of `add` in."""
    out: list[Entry] = []
    added = False
    for entry in entries:
        count = entry.count - (entry.card.id == cut.id) + (entry.card.id == add.id)
        added = added or entry.card.id == add.id
        if count:
            out.append(Entry(entry.card, count))
    return out if added else [*out, Entry(add, 1)]


def is_legal_swap(entries: list[Entry], swap: Swap, fmt: str, gateway: CardInfo | None) -> bool:
    if not any(e.card.id == swap.cut.id for e in entries):
        return False
    return validate_deck(swapped_entries(entries, swap.cut, swap.add), fmt, gateway=gateway).legal

