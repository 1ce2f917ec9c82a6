"""Writes: create, update, copy, revert, delete and import decks. Every save writes an immutable
revision (the main deck, its tags and the considering list); every change to an existing deck names the
version it started from (412 when stale). The editor's edits of tags and the considering list are in
decks.considering."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from cards.models import Card
from cards.selectors import catalog_version_recent
from core.errors import ErrorCode
from core.formats import FORMATS
from core.intbounds import shortened
from core.invisible import control_in, without_invisible

from .cardindex import CardIndex
from .cardinfo import GATEWAY, CardInfo, Entry
from .deckcode import DeckCode, DeckCodeError, decode
from .decklist import DeckListError, parse_deck_list
from .errors import DeckForbidden, InvalidDeck, InvalidDeckCode, InvalidDeckList, StaleVersion, VersionRequired
from .models import (
    MAX_DESCRIPTION_LENGTH,
    MAX_NAME_LENGTH,
    MAX_TAG_LENGTH,
    ConsideringEntry,
    Deck,
    DeckEntry,
    DeckFormat,
    DeckRevision,
    Visibility,
    new_share_token,
)
from .selectors import (
    can_edit,
    card_index,
    carry_read_lists,
    deck_considering,
    deck_entries,
    deck_tags,
    default_gateway,
)
from .validation import ERROR, Issue, copies_allowed, validate_deck

MAX_COPIES_STORED = 60
# Problems of a list's lines that stop an import: the list is not saved until they are fixed.
# Deck-level problems (size, card types) do not: a deck may be saved as work in progress (DC rules).
IMPORT_BLOCKING = frozenset({"unknown_card", "bad_count", "bad_line", "unique_over_limit", "copies_over_limit"})


class _Unset:
    pass


UNSET: Any = _Unset()


def merged(entries: Iterable[Entry]) -> list[Entry]:
    """One entry per card, in first-seen order, counts added up."""
    out: dict[int, Entry] = {}
    for e in entries:
        prev = out.get(e.card.id)
        out[e.card.id] = Entry(e.card, e.count + (prev.count if prev else 0), prev.line if prev else e.line)
    return list(out.values())


def _check_entries(entries: list[Entry]) -> None:
    for e in entries:
        if e.card.type == GATEWAY:
            raise InvalidDeck(f"{e.card.name} is the gateway card: set it as the deck's gateway, not as an entry.",
                              details={"card": e.card.collector_number})
        if e.count > MAX_COPIES_STORED:  # a card listed more than once is added up first (merged)
            raise InvalidDeck(f"{e.card.name}: {e.count} copies in all (a card listed more than once is added up); "
                              f"a deck holds at most {MAX_COPIES_STORED} of a card.",
                              details={"card": e.card.collector_number, "count": e.count})
        if e.count < 1:
            raise InvalidDeck(f"{e.card.name}: a count is a whole number from 1 to {MAX_COPIES_STORED}.",
                              details={"card": e.card.collector_number, "count": e.count})


def clean_tag(card: CardInfo, tag: Any) -> str:
    """A tag as saved: its spaces trimmed and runs of them made one, composed (NFC) and without invisible characters;
    "" is untagged. Refuses (InvalidDeck,
    naming the card) a tag that is not text, holds a control character or is longer than MAX_TAG_LENGTH."""
    details = {"card": card.collector_number, "field": "tag"}
    if not isinstance(tag, str):
        raise InvalidDeck(f"{card.name}: a tag is text.", details=details)
    if control := control_in(tag):
        raise InvalidDeck(f"{card.name}: a tag cannot hold control characters (a tab, a line break and the like); "
                          f"it holds {control}.", details=details)
    # One tag looks one way: composed as NFC, without the characters drawn as nothing that would make a twin of it
    # (core/invisible.py: a zero-width space, a word joiner, a Hangul filler...; not those that shape a script or an
    # emoji inside a word).
    words = (without_invisible(word) for word in unicodedata.normalize("NFC", tag).split())
    tag = " ".join(word for word in words if word)
    if len(tag) > MAX_TAG_LENGTH:
        raise InvalidDeck(f"{card.name}: a tag is at most {MAX_TAG_LENGTH} characters; this one has {len(tag)}.",
                          details=details)
    return tag


def _checked_tags(entries: list[Entry], tags: Mapping[str, Any]) -> dict[str, str]:
    """{collector number: tag} for the main deck `entries`: every tag names one of its cards (a collector
    number, whatever its case); blank tags are left out."""
    by_number = {e.card.collector_number.casefold(): e.card for e in entries}
    out: dict[str, str] = {}
    for number, tag in tags.items():
        card = by_number.get(str(number).casefold())
        if card is None:
            raise InvalidDeck(f"{number}: only a card of the main deck has a tag, and the deck has no such card.",
                              details={"card": number, "field": "tag"})
        cleaned = clean_tag(card, tag)
        if cleaned:
            out[card.collector_number] = cleaned
    return out


def _checked_considering(considering: Iterable[Entry]) -> list[Entry]:
    entries = merged(considering)
    for e in entries:
        if e.card.type == GATEWAY:
            raise InvalidDeck(f"{e.card.name} is the gateway card: it comes with the deck, not on its considering "
                              "list.", details={"card": e.card.collector_number, "field": "considering"})
        if not 1 <= e.count <= MAX_COPIES_STORED:
            raise InvalidDeck(f"{e.card.name}: a count on the considering list is a whole number from 1 to "
                              f"{MAX_COPIES_STORED}.", details={"card": e.card.collector_number, "count": e.count,
                                                                "field": "considering"})
    return entries


def _require_owner(deck: Deck, actor) -> None:
    if not can_edit(deck, actor):
        raise DeckForbidden()


def _require_version(expected_version: int | None) -> int:
    if expected_version is None:
        raise VersionRequired()
    return expected_version


def _derived(deck_format: str, entries: list[Entry]) -> dict[str, Any]:
    report = validate_deck(entries, deck_format)
    crafts = sorted({e.card.craft for e in entries})
    return {"card_count": report.count, "is_legal": report.legal, "crafts": " ".join(crafts),
            # The version the card index checked (both are read at most once in two seconds a process): a query a
            # save saved, and what the deck was validated against.
            "catalog_version": catalog_version_recent()}


def _write_entries(deck: Deck, entries: list[Entry], tags: Mapping[str, str], *, replace: bool = True) -> None:
    if replace:
        deck.entries.all().delete()
    DeckEntry.objects.bulk_create(DeckEntry(deck=deck, card_id=e.card.id, count=e.count,
                                            tag=tags.get(e.card.collector_number, "")) for e in entries)


def _write_considering(deck: Deck, considering: list[Entry], *, replace: bool = True) -> None:
    if replace:
        deck.considering.all().delete()
    ConsideringEntry.objects.bulk_create(ConsideringEntry(deck=deck, card_id=e.card.id, count=e.count)
                                         for e in considering)


def _snapshot(deck: Deck, entries: list[Entry], author, message: str, *, tags: Mapping[str, str],
              considering: list[Entry]) -> DeckRevision:
    gateway = deck.gateway.collector_number if deck.gateway_id else ""
    deck.saved_message = message[:MESSAGE_LENGTH]  # what the save did, for its answer to say (decks/editor_views.py)
    return DeckRevision.objects.create(
        deck=deck, number=deck.version, author=author if author and author.is_authenticated else None,
        message=message[:MESSAGE_LENGTH], name=deck.name, description=deck.description, format=deck.format,
        gateway=gateway or "", cards=sorted([e.card.collector_number, e.count] for e in entries),
        tags={number: tags[number] for number in sorted(tags) if tags[number]},
        considering=sorted([e.card.collector_number, e.count] for e in considering),
        catalog_version=deck.catalog_version,
    )


def _check_fields(name: str, deck_format: str, visibility: str, description: str = "") -> None:
    if not name or not name.strip():
        raise InvalidDeck("A deck needs a name.", details={"field": "name"})
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidDeck(f"A deck name is at most {MAX_NAME_LENGTH} characters.", details={"field": "name"})
    if control := control_in(name):
        raise InvalidDeck("A deck name cannot hold control characters (a tab, a line break and the like); it holds "
                          f"{control}.", details={"field": "name"})
    if len(description) > MAX_DESCRIPTION_LENGTH:
        raise InvalidDeck(f"A deck description is at most {MAX_DESCRIPTION_LENGTH:,} characters.",
                          details={"field": "description"})
    if deck_format not in DeckFormat.values:
        raise InvalidDeck(f"Unknown format {deck_format!r}; use one of {', '.join(DeckFormat.values)}.",
                          details={"field": "format"})
    if visibility not in Visibility.values:
        raise InvalidDeck(f"Unknown visibility {visibility!r}; use one of {', '.join(Visibility.values)}.",
                          details={"field": "visibility"})


def _new_gateway(deck_format: str) -> Card | None:
    """The gateway pair a new deck gets (DC-7): the catalog's, unless its format is played without a gateway."""
    return default_gateway() if FORMATS[deck_format].uses_gateway else None


@transaction.atomic
def deck_create(*, owner, name: str, format: str = DeckFormat.STANDARD, description: str = "",
                visibility: str = Visibility.PRIVATE, entries: Iterable[Entry] = (),
                gateway: Card | None | _Unset = UNSET, copied_from: Deck | None = None,
                message: str = "Created", is_starter: bool = False, starter_key: str = "",
                tags: Mapping[str, str] | None = None, considering: Iterable[Entry] = ()) -> Deck:
    """A new deck at version 1. `tags`: {collector number: tag} of cards of `entries`; `considering`: the
    considering list (neither counted nor validated)."""
    name = saved_detail("name", name)
    _check_fields(name, format, visibility, description)
    entries = merged(entries)
    _check_entries(entries)
    new_tags = _checked_tags(entries, tags or {})
    new_considering = _checked_considering(considering)
    deck = Deck(owner=owner, name=name, description=description, format=format, visibility=visibility,
                gateway=_new_gateway(format) if gateway is UNSET else gateway, copied_from=copied_from,
                is_starter=is_starter, starter_key=starter_key, **_derived(format, entries))
    deck.save()
    _write_entries(deck, entries, new_tags, replace=False)
    _write_considering(deck, new_considering, replace=False)
    _snapshot(deck, entries, owner, message, tags=new_tags, considering=new_considering)
    return deck


@transaction.atomic
def deck_update(*, deck: Deck, actor, expected_version: int | None, name: str = UNSET, description: str = UNSET,
                format: str = UNSET, visibility: str = UNSET, entries: Iterable[Entry] | None = None,
                gateway: Card | None | _Unset = UNSET, tags: Mapping[str, str] | None = None,
                considering: Iterable[Entry] | None = None, message: str | None = None) -> Deck:
    """Change a deck; the write happens only if the deck is still at `expected_version`. The version's message is
    `message`, or else what the write changed (change_words).

    `entries` replace the main deck; `tags` ({collector number: tag}) replace every tag, and each must name a
    card of the main deck as saved; `considering` replaces the considering list. Left out (None), each stays
    as it is, except that a card that leaves the main deck loses its tag.
    """
    _require_owner(deck, actor)
    return _apply_update(deck=deck, author=actor, expected_version=expected_version, name=name,
                         description=description, format=format, visibility=visibility, entries=entries,
                         gateway=gateway, tags=tags, considering=considering, message=message)


MESSAGE_LENGTH = 200  # a version's message (DeckRevision.message)


def words_within(parts: Sequence[str], lead: str = "") -> str:
    """`lead` and the parts joined by "; ", as many whole ones as a version's message holds, the rest counted
    ("…; 2 more"). Cut at its length, "Abbot of the Last Prayer: 0 → 4" had read as a count of 0."""
    for named in range(len(parts), -1, -1):
        rest = len(parts) - named
        words = lead + "; ".join([*parts[:named], *([f"{rest} more"] if rest else [])])
        if len(words) <= MESSAGE_LENGTH:
            return words
    return (lead + f"{len(parts)} changes")[:MESSAGE_LENGTH]


def saved_detail(field: str, value: str) -> str:
    """A detail of the deck (name, description, format, visibility) as it is saved: a name without its outer spaces
    and without the characters drawn as nothing (a zero-width space), as a tag is, so that two names that look
    alike are alike."""
    return without_invisible(value).strip() if field == "name" else value


def detail_words(deck: Deck, fields: Mapping[str, str]) -> str:
    """A version's message for changed details, as its history shows it: "Name: Old → New; description changed"."""
    said = []
    for field, value in fields.items():
        if field == "description":
            said.append("description changed")
        else:
            labels = dict(Deck._meta.get_field(field).choices or ())
            before, after = getattr(deck, field), saved_detail(field, value)
            said.append(f"{field.capitalize()}: {labels.get(before, before)} → {labels.get(after, after)}")
    return words_within(said) or "Saved"


def _apply_update(*, deck: Deck, author, expected_version: int | None, name: str, description: str, format: str,
                  visibility: str, entries: Iterable[Entry] | None, gateway: Card | None | _Unset,
                  message: str | None, tags: Mapping[str, str] | None = None,
                  considering: Iterable[Entry] | None = None) -> Deck:
    expected = _require_version(expected_version)
    fields: dict[str, Any] = {}
    for field_name, value in (("name", name), ("description", description), ("format", format),
                              ("visibility", visibility)):
        if value is not UNSET:
            fields[field_name] = saved_detail(field_name, value)
    if gateway is not UNSET:
        fields["gateway"] = gateway
    if deck.visibility == Visibility.UNLISTED and fields.get("visibility", Visibility.UNLISTED) != Visibility.UNLISTED:
        # Leaving unlisted retires the link: coming back to unlisted later gives a new one, not the old.
        fields["share_token"] = new_share_token()
    _check_fields(fields.get("name", deck.name), fields.get("format", deck.format),
                  fields.get("visibility", deck.visibility), fields.get("description", ""))
    if entries is None:
        new_entries = deck_entries(deck)
    else:
        new_entries = merged(entries)
        _check_entries(new_entries)
    if tags is None:
        staying = {e.card.collector_number for e in new_entries}
        new_tags = {number: tag for number, tag in deck_tags(deck).items() if number in staying}
    else:
        new_tags = _checked_tags(new_entries, tags)
    new_considering = deck_considering(deck) if considering is None else _checked_considering(considering)
    if deck.version == expected and _changes_nothing(deck, fields, None if entries is None else new_entries,
                                                     None if tags is None else new_tags,
                                                     None if considering is None else new_considering):
        return deck  # a write that changes nothing makes no version (a stale one is refused below, as any)
    if message is None:
        message = change_words(deck, fields, None if entries is None else new_entries,
                               tags_changed=tags is not None and dict(new_tags) != deck_tags(deck),
                               considering_changed=considering is not None and _counts(new_considering)
                               != _counts(deck_considering(deck)))
    if entries is not None or tags is not None or considering is not None or {"format", "gateway"} & fields.keys():
        fields["list_version"] = expected + 1
    if "list_version" in fields or deck.catalog_version != catalog_version_recent():
        # The list and the catalog as the deck was last validated against leave its count, legality and crafts
        # as they are: a new name or description validates nothing again.
        fields.update(_derived(fields.get("format", deck.format), new_entries))
    # The compare-and-set: no row matches once someone else has saved.
    now = timezone.now()
    updated = Deck.objects.filter(pk=deck.pk, version=expected).update(version=F("version") + 1, updated_at=now,
                                                                       **fields)
    if not updated:
        current = Deck.objects.filter(pk=deck.pk).values_list("version", flat=True).first()
        raise StaleVersion(details={"expected": expected, "current": current})
    if deck.version != expected:  # the object was read at another version than the one written over
        deck.refresh_from_db()
    else:  # the row is what this write made of the object (read back, it could already be a later writer's)
        for field_name, value in {**fields, "version": expected + 1, "updated_at": now}.items():
            setattr(deck, field_name, value)
        unchanged = (("entries",) if entries is None and tags is None else ()) + (
            ("considering",) if considering is None else ())
        carry_read_lists(deck, expected, unchanged)
    if entries is not None or tags is not None:
        _write_entries(deck, new_entries, new_tags)
    if considering is not None:
        _write_considering(deck, new_considering)
    _snapshot(deck, new_entries, author, message, tags=new_tags, considering=new_considering)
    return deck


def change_words(deck: Deck, fields: Mapping[str, Any], entries: list[Entry] | None, *, tags_changed: bool,
                 considering_changed: bool) -> str:
    """A version's message for a write of several parts (the API's), as the history shows the editor's:
    "Visibility: Public → Unlisted; Shaggy Beetle: 0 → 2; tags changed"."""
    details = {name: value for name, value in fields.items()
               if name in ("name", "description", "format", "visibility") and value != getattr(deck, name)}
    said = [detail_words(deck, details)] if details else []
    if "gateway" in fields and (fields["gateway"].pk if fields["gateway"] else None) != deck.gateway_id:
        said.append("gateway changed")
    if entries is not None:
        before = {e.card.collector_number: (e.card.name, e.count) for e in deck_entries(deck)}
        after = {e.card.collector_number: (e.card.name, e.count) for e in entries}
        said += [f"{(after.get(number) or before[number])[0]}: {before.get(number, ('', 0))[1]} → "
                 f"{after.get(number, ('', 0))[1]}" for number in sorted(before.keys() | after.keys())
                 if before.get(number, ('', 0))[1] != after.get(number, ('', 0))[1]]
    said += [words for words, changed in (("tags changed", tags_changed), ("considering list changed",
                                                                           considering_changed)) if changed]
    return words_within(said) or "Saved"


def _counts(listed: Iterable[Entry]) -> dict[str, int]:
    return {e.card.collector_number: e.count for e in listed}


def _changes_nothing(deck: Deck, fields: Mapping[str, Any], entries: list[Entry] | None,
                     tags: Mapping[str, str] | None, considering: list[Entry] | None) -> bool:
    """Whether a write would leave the deck as it is: each detail as it is, and each list given (None: left out)
    the same cards, counts and tags."""

    for name, value in fields.items():
        now = deck.gateway_id if name == "gateway" else getattr(deck, name)
        if (value.pk if name == "gateway" and value is not None else value) != now:
            return False
    return ((entries is None or _counts(entries) == _counts(deck_entries(deck)))
            and (tags is None or dict(tags) == deck_tags(deck))
            and (considering is None or _counts(considering) == _counts(deck_considering(deck))))


@dataclass(frozen=True, slots=True)
class CardChange:
    """One card's count before and after a change; `refused` says why fewer copies went in (or out) than were asked."""

    card: CardInfo
    before: int
    after: int
    refused: str = ""
    considering: bool = False  # a count of the considering list, not of the main deck


def deck_change_card(*, deck: Deck, actor, card: CardInfo, delta: int | None = None, count: int | None = None,
                     expected_version: int | None = None, within_limits: bool = False,
                     just_read: bool = False) -> tuple[Deck, int, int]:
    """The editor's one-card edit; returns the deck and the card's count before and after.

    An absolute `count` replaces what the editor saw, so it needs `expected_version` (412 when stale).
    A `delta` ("one more") cannot overwrite anyone's edit: it applies to the latest version, retrying
    if another save lands in between. `within_limits`: a change that would go past the copies the rules
    allow (DC-4, DC-5) is refused (the editor's buttons), rather than saved and reported as illegal.
    `just_read`: as deck_change_cards says.
    """
    if (delta is None) == (count is None):
        raise InvalidDeck("Give either a count or a change of count.")
    if delta is not None:
        deck, (change,) = deck_change_cards(deck=deck, actor=actor, deltas=[(card, delta)], within_limits=within_limits,
                                            just_read=just_read)
        if change.refused and change.after == change.before:
            raise InvalidDeck(change.refused, code=ErrorCode.COPIES_OVER_LIMIT, details={"card": card.collector_number})
        if within_limits and delta < 0 and change.before == 0:  # a "−" pressed past the last copy: said, not "Saved"
            raise InvalidDeck(f"{card.name}: none in the deck, so none taken out.",
                              details={"card": card.collector_number})
        return deck, change.before, change.after
    _require_owner(deck, actor)
    _check_main_deck_card(card)
    entries = {e.card.id: e for e in deck_entries(deck)}
    current = entries[card.id].count if card.id in entries else 0
    target = min(max(count or 0, 0), MAX_COPIES_STORED)
    allowed = copies_allowed(card, deck.format)
    if within_limits and target > max(current, allowed.limit):
        raise InvalidDeck(f"{allowed.text}.", code=allowed.code, details={"card": card.collector_number})
    _set_count(entries, card, target)
    deck = deck_update(deck=deck, actor=actor, expected_version=_require_version(expected_version),
                       entries=list(entries.values()), message=f"{card.name}: {current} → {target}")
    return deck, current, target


def deck_change_cards(*, deck: Deck, actor, deltas: Sequence[tuple[CardInfo, int]],
                      within_limits: bool = False, just_read: bool = False,
                      considering: Sequence[tuple[CardInfo, int]] = ()) -> tuple[Deck, list[CardChange]]:
    """Add or remove copies of several cards, saved as one version on top of the latest one (so no one's edit is
    overwritten; retried if another save lands in between). With `within_limits`, an addition stops at the copies
    the rules allow (DC-4, DC-5) and its change says so. Nothing is saved when nothing changes. `considering`: the
    changes of the considering list saved in the same version (quick add's sideboard lines, DC-9), each at most
    MAX_COPIES_STORED copies, their changes last and marked `considering`.

    The first try reads the deck again, unless the caller has `just_read` it (in the same request: the editor's
    saves, which would read it twice): a change decided on an older read could be refused, or found to change
    nothing, on what is no longer so. A save onto a version that is no longer the latest is a conflict, and the
    next try reads the latest."""
    _require_owner(deck, actor)
    for card, _ in [*deltas, *considering]:
        _check_main_deck_card(card)
    for attempt in range(3):
        if attempt or not just_read:
            deck = Deck.objects.select_related("gateway").get(pk=deck.pk)
        entries = {e.card.id: e for e in deck_entries(deck)}
        considered = {e.card.id: e for e in deck_considering(deck)} if considering else {}
        changes = []
        for card, delta in deltas:
            before = entries[card.id].count if card.id in entries else 0
            after, refused = min(max(before + delta, 0), MAX_COPIES_STORED), ""
            allowed = copies_allowed(card, deck.format)
            if within_limits and delta > 0 and after > allowed.limit:
                after = max(before, allowed.limit)
                refused = f"{allowed.text}" + (f"; {after - before} added." if after > before else ".")
            elif 0 < before < -delta:  # more asked out than the deck holds: all of them go, and the words say so
                refused = f"{card.name}: {-delta} asked out, {before} in the deck; {before} taken out."
            _set_count(entries, card, after)
            changes.append(CardChange(card, before, after, refused))
        for card, delta in considering:
            before = considered[card.id].count if card.id in considered else 0
            after = min(max(before + delta, 0), MAX_COPIES_STORED)
            refused = (f"The considering list holds at most {MAX_COPIES_STORED} copies of {card.name}"
                       + (f"; {after - before} added." if after > before else ".")) if before + delta > after else ""
            _set_count(considered, card, after)
            changes.append(CardChange(card, before, after, refused, considering=True))
        moved = [c for c in changes if c.after != c.before]
        if not moved:
            return deck, changes
        message = words_within([f"{'Considering ' if c.considering else ''}{c.card.name}: {c.before} → {c.after}"
                                for c in moved])
        try:
            deck = deck_update(deck=deck, actor=actor, expected_version=deck.version,
                               entries=list(entries.values()), message=message,
                               considering=list(considered.values()) if considering else None)
            return deck, changes
        except StaleVersion:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _check_main_deck_card(card: CardInfo) -> None:
    if card.type == GATEWAY:
        raise InvalidDeck(f"{card.name} is the gateway card: it comes with the deck, not in it.")


def _set_count(entries: dict[int, Entry], card: CardInfo, count: int) -> None:
    if count:
        entries[card.id] = Entry(card, count)
    else:
        entries.pop(card.id, None)


@transaction.atomic
def starter_deck_save(*, key: str, name: str, description: str, entries: Iterable[Entry],
                      gateway: Card | None, format: str = DeckFormat.STANDARD) -> tuple[Deck, str]:
    """Create or update (in place, with a new revision) the public, ownerless starter deck `key`.
    Returns the deck and "created", "updated" or "unchanged": saving the same contents twice changes nothing."""
    entries = merged(entries)
    deck = Deck.objects.filter(is_starter=True, starter_key=key).first()
    if deck is None:
        return deck_create(owner=None, name=name, format=format, description=description,
                           visibility=Visibility.PUBLIC, entries=entries, gateway=gateway, is_starter=True,
                           starter_key=key, message="Starter deck"), "created"
    same = (deck.name == name and deck.description == description and deck.format == format
            and deck.gateway_id == (gateway and gateway.pk)
            and sorted((e.card.id, e.count) for e in deck_entries(deck)) == sorted((e.card.id, e.count)
                                                                                   for e in entries))
    if same:
        return deck, "unchanged"
    return _apply_update(deck=deck, author=None, expected_version=deck.version, name=name, description=description,
                         format=format, visibility=Visibility.PUBLIC, entries=entries, gateway=gateway,
                         message="Starter deck updated with the catalog"), "updated"


@transaction.atomic
def deck_copy(*, deck: Deck, owner, name: str | None = None) -> Deck:
    """A private copy of a deck the owner can see, recording where it came from."""
    return deck_create(owner=owner, name=(name or f"{deck.name} (copy)")[:100], format=deck.format,
                       description=deck.description, entries=deck_entries(deck), gateway=deck.gateway,
                       tags=deck_tags(deck), considering=deck_considering(deck),
                       copied_from=deck, message=copied_message(deck.version))


def copied_message(version: int) -> str:
    """A copy's first version's message. It names the source by its version alone: the history is shown to whoever
    may see the copy, and the deck page names the source only to whom it may (selectors.source_shown)."""
    return f"Copied from version {version} of its source deck"


def _revision_entries(revision: DeckRevision, index: CardIndex) -> tuple[list[Entry], list[Entry]]:
    """The main deck and the considering list of a revision, as entries of the catalog's cards."""
    missing: list[str] = []

    def entries_of(pairs: list) -> list[Entry]:
        entries = []
        for number, count in pairs:
            card = index.by_number.get(number.casefold())
            if card is None:
                missing.append(number)
            else:
                entries.append(Entry(card, count))
        return entries

    entries, considering = entries_of(revision.cards), entries_of(revision.considering or [])
    if missing:
        raise InvalidDeck(f"Version {revision.number} uses cards no longer in the catalog: {', '.join(missing)}.",
                          details={"missing": missing})
    return entries, considering


@transaction.atomic
def deck_revert(*, deck: Deck, actor, number: int, expected_version: int | None) -> Deck:
    """A new version whose contents are those of revision `number` (history is never rewritten)."""
    _require_owner(deck, actor)
    revision = deck.revisions.filter(number=number).first()
    if revision is None:
        raise InvalidDeck(f"Deck {deck.pk} has no version {number}.", details={"number": number},
                          status_code=404, code=ErrorCode.REVISION_NOT_FOUND)  # as a diff of a version it lacks
    gateway = Card.objects.filter(collector_number=revision.gateway).first() if revision.gateway else None
    entries, considering = _revision_entries(revision, card_index())
    return deck_update(deck=deck, actor=actor, expected_version=expected_version, name=revision.name,
                       description=revision.description, format=revision.format, entries=entries,
                       tags=revision.tags or {}, considering=considering, gateway=gateway,
                       message=f"Reverted to version {number}")


@transaction.atomic
def deck_delete(*, deck: Deck, actor, expected_version: int | None) -> None:
    _require_owner(deck, actor)
    expected = _require_version(expected_version)
    deleted, _ = Deck.objects.filter(pk=deck.pk, version=expected).delete()
    if not deleted:
        current = Deck.objects.filter(pk=deck.pk).values_list("version", flat=True).first()
        raise StaleVersion(details={"expected": expected, "current": current})


@transaction.atomic
def deck_unpublish(*, deck: Deck, actor) -> Deck:
    """Staff take a public deck out of the public list (it becomes private to its owner)."""
    if not (actor and actor.is_authenticated and actor.is_staff):
        raise DeckForbidden("Only staff may unpublish another player's deck.", code=ErrorCode.NOT_STAFF)
    if deck.visibility != Visibility.PUBLIC:
        raise InvalidDeck("Only a public deck can be unpublished.", code=ErrorCode.NOT_PUBLIC, status_code=409)
    entries = deck_entries(deck)
    Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PRIVATE, version=F("version") + 1,
                                           updated_at=timezone.now())
    deck.refresh_from_db()
    _snapshot(deck, entries, actor, f"Unpublished by staff ({actor.get_username()})", tags=deck_tags(deck),
              considering=deck_considering(deck))
    return deck


# --- import ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportResult:
    entries: list[Entry]
    gateway: CardInfo | None
    problems: list[Issue]
    meta: dict[str, str]
    considering: list[Entry]  # the cards of its sideboard and maybeboard sections (DC-9)


def read_deck_list(text: str, deck_format: str, index: CardIndex | None = None) -> ImportResult:
    """Read a list and find every line that stops it being imported (nothing is saved here)."""
    index = index or card_index()
    try:
        parsed = parse_deck_list(text, index)
    except DeckListError as exc:
        raise InvalidDeckList(str(exc), details={"problems": []}) from exc
    problems = parsed.problems + import_blocking(parsed.entries, deck_format)
    problems.sort(key=lambda i: (i.line or 0))
    return ImportResult(parsed.entries, parsed.gateway, problems, parsed.meta, parsed.considering)


def import_blocking(entries: Sequence[Entry], deck_format: str = DeckFormat.STANDARD) -> list[Issue]:
    """The rule violations that stop an import (copy limits), the same for a list, a code or a JSON deck."""
    report = validate_deck(entries, deck_format if deck_format in DeckFormat.values else "standard")
    return [i for i in report.errors if i.code in IMPORT_BLOCKING]


def read_deck_code(code_text: str, index: CardIndex | None = None) -> tuple[DeckCode, list[Entry], CardInfo | None]:
    index = index or card_index()
    try:
        code = decode(code_text)
    except DeckCodeError as exc:
        raise InvalidDeckCode(str(exc)) from exc
    missing = [n for n, _ in code.cards if n.casefold() not in index.by_number]
    if code.gateway and code.gateway.casefold() not in index.by_number:
        missing.append(code.gateway)
    if any(not number.isprintable() for number in missing):  # no collector number reads so: the code is damaged
        raise InvalidDeckCode("This deck code is damaged: part of it does not read as cards (a character changed or "
                              "cut off?). Copy the code again, whole.")
    if missing:
        raise InvalidDeckCode(f"The deck code names cards not in the catalog: {', '.join(missing)}.",
                              details={"missing": missing})
    entries = [Entry(index.by_number[n.casefold()], c) for n, c in code.cards]
    gateway = index.by_number[code.gateway.casefold()] if code.gateway else None
    return code, entries, gateway


def validate_list(text: str, deck_format: str, index: CardIndex | None = None) -> dict[str, Any]:
    """The validate endpoint's answer for a text list: reading errors and rule violations together."""
    index = index or card_index()
    try:
        parsed = parse_deck_list(text, index)
    except DeckListError as exc:
        raise InvalidDeckList(str(exc)) from exc
    return validate_deck(parsed.entries, deck_format, prior_errors=parsed.problems, gateway=parsed.gateway).as_dict()


def deck_json_as_list(data: Any) -> tuple[str, dict[str, str]]:
    """A deck in the JSON export's shape as a text list (item N of "cards" becomes line N, so problems
    name the item), plus its name, format and description. Shape errors raise InvalidDeck. The tags and
    the considering list are read by deck_json_tags and deck_json_considering."""
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise InvalidDeck('A JSON deck is an object with a "cards" list, as the JSON export writes it.',
                          details={"field": "cards"})
    lines = []
    for position, item in enumerate(data["cards"], start=1):
        if not isinstance(item, dict) or not isinstance(item.get("card") or item.get("name"), str) \
                or not isinstance(item.get("count"), int) or isinstance(item.get("count"), bool):
            raise InvalidDeck(f'Item {position} of "cards" needs "card" (collector number or name) and a whole '
                              'number "count".', details={"item": position})
        lines.append(f"{item['count']} {item.get('card') or item['name']}")
    gateway = data.get("gateway")
    if isinstance(gateway, dict) and isinstance(gateway.get("card"), str):
        lines += ["Gateway", f"2 {gateway['card']}"]  # a gateway card, or refused as the section's (DC-9)
    meta = {}
    for key in ("name", "format", "description"):  # absent or null: the form's, or the default
        if data.get(key) is not None and not isinstance(data[key], str):
            raise InvalidDeck(f'A JSON deck\'s "{key}" is text.', details={"field": key})
        meta[key] = data.get(key) or ""
    if meta["format"] and meta["format"].lower() not in DeckFormat.values:
        raise InvalidDeck(f'A JSON deck\'s "format" is one of {", ".join(DeckFormat.values)}, not '
                          f'"{shortened(meta["format"])}".', details={"field": "format"})
    meta["format"] = meta["format"].lower()
    return "\n".join(lines), meta


def deck_json_tags(data: dict) -> dict[int, str]:
    """The tags of a JSON deck's "cards" by item position (1-based, the line of deck_json_as_list's text);
    a missing or null "tag" is untagged."""
    tags = {}
    for position, item in enumerate(data["cards"], start=1):
        tag = item.get("tag")
        if tag is None:
            continue
        if not isinstance(tag, str):
            raise InvalidDeck(f'Item {position} of "cards": a "tag" is text.', details={"item": position})
        tags[position] = tag
    return tags


def deck_json_considering(data: dict, index: CardIndex) -> tuple[list[Entry], list[Issue]]:
    """The considering list of a JSON deck ("considering": [{"card", "count"}], as the export writes it) and the
    problems of its items (an unknown card, a bad count, the gateway card), each naming its item."""
    items = data.get("considering")
    if items is None:
        return [], []
    if not isinstance(items, list):
        raise InvalidDeck('"considering" is a list of {"card", "count"}, as the JSON export writes it.',
                          details={"field": "considering"})
    entries, problems = [], []
    for position, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("card") or item.get("name"), str) \
                or not isinstance(item.get("count"), int) or isinstance(item.get("count"), bool):
            raise InvalidDeck(f'Item {position} of "considering" needs "card" (collector number or name) and a '
                              'whole number "count".', details={"field": "considering", "item": position})
        text, count = item.get("card") or item["name"], item["count"]
        where = f'Item {position} of "considering"'
        card = index.resolve(text)
        if card is None:
            suggestions = index.suggest(text)
            hint = f" Did you mean {', '.join(suggestions)}?" if suggestions else ""
            problems.append(Issue("unknown_card", "", ERROR, f'{where}: no card is named "{text}".{hint}',
                                  suggestions=tuple(suggestions)))
        elif not 1 <= count <= MAX_COPIES_STORED:
            problems.append(Issue("bad_count", "", ERROR, f"{where}: {card.name}: a count is a whole number from 1 "
                                  f"to {MAX_COPIES_STORED}.", card.collector_number))
        elif card.type == GATEWAY:
            problems.append(Issue("bad_line", "", ERROR, f"{where}: {card.name} is the gateway card: it comes with "
                                  "the deck, not on its considering list.", card.collector_number))
        else:
            entries.append(Entry(card, count))
    return entries, problems


def deck_import(*, owner, text: str = "", code: str = "", data: Any = None, name: str = "", format: str = "",
                visibility: str = Visibility.PRIVATE, description: str = "") -> Deck:
    """Create a deck from a text list, a deck code or the JSON export; refuses (saving nothing) while any
    line is bad. The considering list is a text list's sideboard and maybeboard sections (DC-9) or the JSON
    export's; only the JSON export carries tags. One deck at a time: a list and a code given together are
    refused (which one was meant is not known), as is nothing at all."""
    given = [what for what, value in (("a deck list", text.strip()), ("a deck code", code.strip()),
                                      ("a JSON deck", data is not None)) if value]
    if len(given) > 1:
        raise InvalidDeck(f"Give one deck to import, not {' and '.join(given)}: clear the one you do not mean.",
                          details={"field": "code"})
    if not given:
        raise InvalidDeck("Nothing to import: paste a deck list, a deck code or a JSON deck.",
                          details={"field": "list"})
    index = card_index()
    item_tags: dict[int, str] = {}
    considering: list[Entry] = []
    considering_problems: list[Issue] = []
    if data is not None:
        text, meta = deck_json_as_list(data)
        item_tags = deck_json_tags(data)
        considering, considering_problems = deck_json_considering(data, index)
        name = name or meta.get("name", "")
        format = format or meta["format"]
        description = description or meta.get("description", "")
    if code:
        decoded, entries, gateway_info = read_deck_code(code, index)
        considering = []  # a code has no considering list, whatever a JSON deck sent beside it says
        deck_format = format or decoded.format
        problems = import_blocking(entries)  # the rules of a text list: a code is no way around them
        if problems:
            raise InvalidDeckList(
                f"{len(problems)} card{'s' if len(problems) != 1 else ''} of the deck code cannot be imported; "
                "nothing was saved.",
                code=ErrorCode.INVALID_DECK_CODE, details={"problems": [p.as_dict() for p in problems]})
    else:
        # Copy limits, the only deck rules that stop an import, are the same in every format.
        result = read_deck_list(text, DeckFormat.STANDARD, index)
        meta_format = result.meta.get("format", "").lower()
        if not format and meta_format and meta_format not in DeckFormat.values:
            raise InvalidDeck(f"The list's “# format: {shortened(result.meta['format'])}” names no format: "
                              f"write one of {', '.join(DeckFormat.values)}, or choose the format.",
                              details={"field": "list"})
        deck_format = format or meta_format or DeckFormat.STANDARD
        if result.problems or considering_problems:
            n, m = len(result.problems), len(considering_problems)
            what = [f"{n} line{'s' if n != 1 else ''} of the list"] if n else []
            what += [f"{m} item{'s' if m != 1 else ''} of the considering list"] if m else []
            raise InvalidDeckList(
                f"{' and '.join(what)} cannot be imported; nothing was saved.",
                details={"problems": [p.as_dict() for p in result.problems + considering_problems]},
            )
        entries, gateway_info = result.entries, result.gateway
        if data is None and not (entries or gateway_info or result.considering):
            raise InvalidDeck("Nothing to import: the list holds no card, only comments and headers.",
                              details={"field": "list"})
        considering = considering + result.considering
        name = name or result.meta.get("name", "")
        description = description or result.meta.get("description", "")
    # A JSON deck's item N is line N of its text: its card takes the item's tag.
    tags = {e.card.collector_number: item_tags[e.line] for e in entries if e.line in item_tags}
    gateway: Card | None | _Unset = UNSET
    if gateway_info is not None:
        gateway = Card.objects.get(pk=gateway_info.id)
    return deck_create(owner=owner, name=name or "Imported deck", format=deck_format,  # a name too long is refused
                       description=description, visibility=visibility, entries=entries, gateway=gateway,
                       tags=tags, considering=considering, message="Imported")


def entries_from_counts(counts: Sequence[tuple[str, int]], index: CardIndex | None = None,
                        field: str = "") -> list[Entry]:
    """Entries from (collector number or name, count) pairs, as the API and the editor send them; `field` names
    the list they came in (the API's `cards`), so that a refusal says which item."""
    index = index or card_index()
    out = []
    for i, (text, count) in enumerate(counts):
        card = index.resolve(str(text))
        if card is None:
            where = {"field": f"{field}[{i}].card"} if field else {}
            raise InvalidDeck(f"{where['field'] + ': ' if where else ''}No card is named or numbered "
                              f"“{shortened(str(text))}”.",
                              code=ErrorCode.UNKNOWN_CARD,
                              details={"card": text, "suggestions": index.suggest(str(text)), **where})
        if not isinstance(count, int) or isinstance(count, bool):
            raise InvalidDeck(f"{card.name}: the count must be a whole number.", details={"card": text})
        out.append(Entry(card, count))
    return out


def _count_changes(old: Iterable[Sequence], new: Iterable[Sequence]) -> list[dict[str, Any]]:
    a, b = dict(old), dict(new)
    changes = []
    for number in sorted(set(a) | set(b)):
        before, after = a.get(number, 0), b.get(number, 0)
        if before != after:
            changes.append({"card": number, "before": before, "after": after, "delta": after - before})
    return changes


def revision_diff(old: DeckRevision, new: DeckRevision) -> dict[str, Any]:
    """What changed from `old` to `new`: main-deck cards added, removed and recounted (`cards`), the same for the
    considering list (`considering`), the tags of the cards in `new`'s main deck that changed (`tags`: before
    and after, "" for untagged; a card that left the deck took its tag with it) and changed fields."""
    old_tags, new_tags = old.tags or {}, new.tags or {}
    in_new = {number for number, _ in new.cards}
    tags = [{"card": number, "before": old_tags.get(number, ""), "after": new_tags.get(number, "")}
            for number in sorted(set(old_tags) | set(new_tags))
            if number in in_new and old_tags.get(number, "") != new_tags.get(number, "")]
    fields = {f: {"before": getattr(old, f), "after": getattr(new, f)}
              for f in ("name", "description", "format", "gateway") if getattr(old, f) != getattr(new, f)}
    return {"from": old.number, "to": new.number, "cards": _count_changes(old.cards, new.cards),
            "considering": _count_changes(old.considering or [], new.considering or []), "tags": tags,
            "fields": fields}
