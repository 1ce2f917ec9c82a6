"""The editor's edits beside the counts: a card's tag, the considering list, and moves between that list and the
main deck.

The considering list (a maybeboard) holds cards kept for later beside the deck: it is neither counted nor
validated. A tag is the owner's label on a card of the main deck; a card that leaves the deck loses it.

Each edit is saved as one new version on top of the latest one (so no one's edit is overwritten; retried if
another save lands in between), by the deck's owner only, and returns the deck and what changed, enough for the
editor to undo it with the same function. Nothing is saved when nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from core.invisible import seen_as

from .cardinfo import GATEWAY, CardInfo, Entry
from .errors import DeckForbidden, InvalidDeck, StaleTag, StaleVersion
from .models import Deck
from .selectors import can_edit, deck_considering, deck_entries, deck_tags
from .services import MAX_COPIES_STORED, CardChange, clean_tag, deck_update, words_within
from .validation import copies_allowed

TO_DECK = "deck"
TO_CONSIDERING = "considering"
Destination = Literal["deck", "considering"]
ATTEMPTS = 3


@dataclass(frozen=True, slots=True)
class TagChange:
    """A card's tag before and after ("" is untagged). Undo: deck_tag_card(card=card, tag=before)."""

    card: CardInfo
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class CardMove:
    """Copies of a card moved between the considering list and the main deck, with both counts and the card's tag
    before and after. `refused` says why fewer copies moved than were asked ("" when all did).
    Undo: deck_move_card(card=card, count=moved, to=the other place, tag=tag_before)."""

    card: CardInfo
    to: str
    moved: int
    deck_before: int
    deck_after: int
    considering_before: int
    considering_after: int
    tag_before: str
    tag_after: str
    refused: str = ""


def _editable(deck: Deck, actor, just_read: bool) -> Deck:
    """The deck a change is first tried on: the latest, or the caller's when it has `just_read` it (as
    decks.services.deck_change_cards says); after a conflict each change tries again on _latest."""
    if not can_edit(deck, actor):
        raise DeckForbidden()
    return deck if just_read else _latest(deck)


def _latest(deck: Deck) -> Deck:
    return Deck.objects.select_related("gateway").get(pk=deck.pk)


def _check_card(card: CardInfo) -> None:
    if card.type == GATEWAY:
        raise InvalidDeck(f"{card.name} is the gateway card: it comes with the deck, not in it or on its considering "
                          "list.", details={"card": card.collector_number})


def _set(counts: dict[int, Entry], card: CardInfo, count: int) -> None:
    if count:
        counts[card.id] = Entry(card, count)
    else:
        counts.pop(card.id, None)


def tag_words(name: str, before: str, after: str) -> str:
    """A tag change in words: "Pilfer: tag “ramp” → “draw”", "Pilfer: tagged “draw”", "Pilfer: tag “ramp” removed"."""
    if not before:
        return f"{name}: tagged “{after}”"
    if not after:
        return f"{name}: tag “{before}” removed"
    return f"{name}: tag “{before}” → “{after}”"


def deck_tag_card(*, deck: Deck, actor, card: CardInfo, tag: str, just_read: bool = False,
                  was: str | None = None) -> tuple[Deck, TagChange]:
    """Set the tag of a card of the main deck ("" untags it): deck_tag_cards with one card."""
    deck, changes = deck_tag_cards(deck=deck, actor=actor, tagging=[(card, tag, was)], just_read=just_read)
    return deck, changes[0]


def deck_tag_cards(*, deck: Deck, actor, tagging: Sequence[tuple[CardInfo, str, str | None]],
                   just_read: bool = False) -> tuple[Deck, list[TagChange]]:
    """Set the tags of cards of the main deck, each (card, tag, was) ("" untags it), in one version: every one or
    none. Refuses (InvalidDeck, naming the card) a card not in the main deck and a tag that is too long or holds a
    control character. `was`: the tag the player saw on the card (None: not checked); a tag set meanwhile (another
    window, or an undo of a tag another window changed since) is not written over: refused (StaleTag), saying what
    it is now."""
    deck = _editable(deck, actor, just_read)
    cleaned = [(card, clean_tag(card, tag), was) for card, tag, was in tagging]
    for attempt in range(ATTEMPTS):
        if attempt:
            deck = _latest(deck)
        tags = deck_tags(deck)
        held = {entry.card.id for entry in deck_entries(deck)}  # the rows deck_tags read: no query
        changes = []
        for card, tag, was in cleaned:
            if card.id not in held:
                raise InvalidDeck(f"{card.name} is not in the main deck: only a card of the deck has a tag.",
                                  details={"card": card.collector_number, "field": "tag"})
            change = TagChange(card, tags.get(card.collector_number, ""), _as_spelled(tag, tags, card))
            if was is not None and change.before != was.strip():
                raise _stale_tag(card, change.before)
            tags[card.collector_number] = change.after
            changes.append(change)
        said = [tag_words(c.card.name, c.before, c.after) for c in changes if c.before != c.after]
        if not said:
            return deck, changes
        try:
            deck = deck_update(deck=deck, actor=actor, expected_version=deck.version, tags=tags,
                               message=words_within(said))
            return deck, changes
        except StaleVersion:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _stale_tag(card: CardInfo, now: str) -> StaleTag:
    return StaleTag(f"{card.name}: its tag was changed in another window, to “{now}”, so yours was not saved; set it "
                    "again if you still want it." if now else
                    f"{card.name}: its tag was taken off in another window, so yours was not saved; set it again if "
                    "you still want it.", details={"card": card.collector_number, "field": "tag", "now": now})


def _as_spelled(tag: str, tags: dict[str, str], card: CardInfo) -> str:
    """A tag another card of the deck already has, whatever its case and the characters drawn as nothing in it, is
    that tag: "burn" joins "Burn" (one pile), as the tags offered while typing suggest, and a tag that only looks
    like another (a joiner inside it) joins that one rather than make a second pile of the same name."""
    seen = seen_as(tag)
    for number, other in tags.items():
        if number != card.collector_number and seen_as(other) == seen:
            return other
    return tag


def deck_consider(*, deck: Deck, actor, card: CardInfo, delta: int, just_read: bool = False) -> tuple[Deck, CardChange]:
    """Add (delta > 0) or remove (delta < 0) copies of a card on the considering list; returns the deck and the
    card's count on the list before and after (undo: delta=before - after). The list holds at most
    MAX_COPIES_STORED copies of a card: past that, the change's `refused` says so. The gateway card is refused."""
    deck = _editable(deck, actor, just_read)
    _check_card(card)
    if not isinstance(delta, int) or isinstance(delta, bool):
        raise InvalidDeck(f"{card.name}: a change of copies is a whole number.",
                          details={"card": card.collector_number})
    for attempt in range(ATTEMPTS):
        if attempt:
            deck = _latest(deck)
        considering = {e.card.id: e for e in deck_considering(deck)}
        before = considering[card.id].count if card.id in considering else 0
        after, refused = min(max(before + delta, 0), MAX_COPIES_STORED), ""
        if before + delta > MAX_COPIES_STORED:
            refused = (f"The considering list holds at most {MAX_COPIES_STORED} copies of {card.name}"
                       + (f"; {after - before} added." if after > before else "."))
        change = CardChange(card, before, after, refused)
        if after == before:
            return deck, change
        _set(considering, card, after)
        try:
            deck = deck_update(deck=deck, actor=actor, expected_version=deck.version,
                               considering=list(considering.values()),
                               message=f"Considering {card.name}: {before} → {after}"[:200])
            return deck, change
        except StaleVersion:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def deck_move_card(*, deck: Deck, actor, card: CardInfo, count: int, to: Destination,
                   tag: str | None = None, just_read: bool = False) -> tuple[Deck, CardMove]:
    """Move `count` copies of a card from the considering list into the main deck (to="deck") or back
    (to="considering"), in one version.

    Into the deck, no more than the copy limits allow (DC-4, DC-5) go: when fewer than `count` can, those that can
    move and the move's `refused` says why; when none can, nothing is saved and InvalidDeck (code
    copies_over_limit or unique_over_limit) says why. Fewer copies than asked move, saying so, when the place they
    come from holds fewer. `tag`, when given, becomes the card's tag in the main deck if it is still there after
    the move (None keeps the tag it has); a card that leaves the deck loses its tag.
    """
    deck = _editable(deck, actor, just_read)
    _check_card(card)
    if to not in (TO_DECK, TO_CONSIDERING):
        raise InvalidDeck(f"A card moves to {TO_DECK!r} or to {TO_CONSIDERING!r}, not to {to!r}.",
                          details={"field": "to"})
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise InvalidDeck(f"{card.name}: move a whole number of copies, at least 1.",
                          details={"card": card.collector_number})
    new_tag = clean_tag(card, tag) if tag is not None else None
    for attempt in range(ATTEMPTS):
        if attempt:
            deck = _latest(deck)
        entries = {e.card.id: e for e in deck_entries(deck)}
        considering = {e.card.id: e for e in deck_considering(deck)}
        tags = deck_tags(deck)
        in_deck = entries[card.id].count if card.id in entries else 0
        held = considering[card.id].count if card.id in considering else 0
        moved, refused = _how_many(deck, card, count, to, in_deck, held)
        deck_after = in_deck + moved if to == TO_DECK else in_deck - moved
        considering_after = held - moved if to == TO_DECK else held + moved
        tag_before = tags.get(card.collector_number, "")
        tag_after = "" if not deck_after else (tag_before if new_tag is None else new_tag)
        result = CardMove(card, to, moved, in_deck, deck_after, held, considering_after, tag_before, tag_after,
                          refused)
        _set(entries, card, deck_after)
        _set(considering, card, considering_after)
        tags.pop(card.collector_number, None)
        if tag_after:
            tags[card.collector_number] = tag_after
        message = (f"Moved {moved} {card.name} into the deck" if to == TO_DECK
                   else f"Moved {moved} {card.name} to the considering list")
        if tag_after and tag_after != tag_before:
            message += f", tagged “{tag_after}”"
        try:
            deck = deck_update(deck=deck, actor=actor, expected_version=deck.version, entries=list(entries.values()),
                               considering=list(considering.values()), tags=tags, message=message[:200])
            return deck, result
        except StaleVersion:
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _how_many(deck: Deck, card: CardInfo, count: int, to: str, in_deck: int, held: int) -> tuple[int, str]:
    """How many copies of `count` can move, and why not all ("" when all can); raises when none can."""
    details = {"card": card.collector_number, "deck": in_deck, "considering": held}
    if to == TO_DECK:
        if not held:
            raise InvalidDeck(f"{card.name} is not on the considering list.", details=details)
        allowed = copies_allowed(card, deck.format)
        room = max(min(allowed.limit, MAX_COPIES_STORED) - in_deck, 0)
        if not room:
            raise InvalidDeck(f"{allowed.text}, and the deck has {in_deck}: nothing was moved.", code=allowed.code,
                              details={**details, "rule": allowed.rule, "limit": allowed.limit})
        moved = min(count, held, room)
        if moved == count:
            return moved, ""
        if room < min(count, held):
            return moved, f"{allowed.text}; {moved} moved."
        return moved, f"Only {held} {card.name} on the considering list; {moved} moved."
    if not in_deck:
        raise InvalidDeck(f"{card.name} is not in the main deck.", details=details)
    room = MAX_COPIES_STORED - held
    if not room:
        raise InvalidDeck(f"The considering list holds at most {MAX_COPIES_STORED} copies of {card.name}: nothing "
                          "was moved.", details=details)
    moved = min(count, in_deck, room)
    if moved == count:
        return moved, ""
    if room < min(count, in_deck):
        return moved, f"The considering list holds at most {MAX_COPIES_STORED} copies of {card.name}; {moved} moved."
    return moved, f"Only {in_deck} {card.name} in the deck; {moved} moved."
