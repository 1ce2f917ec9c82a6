"""Reads: which decks a user may see, and decks as plain validation data."""

from __future__ import annotations

import threading
import time

from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet

from cards import selectors as catalog
from cards.models import Card, CardType, CatalogRelease

from .cardindex import CardIndex
from .cardinfo import CardInfo, Entry
from .errors import DeckNotFound
from .models import PUBLIC_ORDER, ConsideringEntry, Deck, DeckEntry, DeckRevision, Visibility
from .prepared import PreparedGet, PreparedRows
from .validation import Report, validate_deck

_INFO_FIELDS = ("id", "collector_number", "name", "craft", "type", "subtype", "is_unique", "vitality", "attack",
                "defense", "range", "maneuver")
_NUMBER = _INFO_FIELDS.index("collector_number")


def card_info(card: Card) -> CardInfo:
    return CardInfo(*(getattr(card, f) for f in _INFO_FIELDS))


_index_lock = threading.Lock()
_index: tuple[tuple, CardIndex] | None = None
_key_memo: tuple[float, tuple] | None = None  # (expiry on the monotonic clock, the catalog's key)


def _catalog_key() -> tuple:
    """Changes with a new release, a new card or a deleted one, in whichever process they happen. Read at most once
    in cards.selectors.VERSION_MEMO_SECONDS by a process, as the catalog's version is: a change made in another
    process is seen within those seconds, and a burst of editor saves does not read it at each (two queries, one
    of them a count of the catalog). Single-card edits clear the index and this memo through signals (decks.apps),
    in the process that makes them."""
    global _key_memo
    now = time.monotonic()
    memo = _key_memo
    if memo is not None and now < memo[0]:
        return memo[1]
    release = CatalogRelease.objects.order_by("-loaded_at").values_list("version", flat=True).first()
    stats = Card.objects.aggregate(n=Count("id"), top=Max("id"))
    key = (release, stats["n"], stats["top"])
    _key_memo = (now + catalog.VERSION_MEMO_SECONDS, key)
    return key


def card_index() -> CardIndex:
    """The whole catalog as an in-memory index, rebuilt only when the catalog changes."""
    global _index
    key = _catalog_key()
    cached = _index
    if cached is not None and cached[0] == key:
        return cached[1]
    with _index_lock:
        index = CardIndex(CardInfo(*row) for row in Card.objects.values_list(*_INFO_FIELDS).iterator(2000))
        _index = (key, index)
    return index


def clear_card_index(**_: object) -> None:
    global _index, _key_memo
    _index = _key_memo = None


def default_gateway() -> Card | None:
    return Card.objects.filter(type=CardType.GATEWAY).order_by("collector_number").first()


def _read_once(deck: Deck, name: str, read):
    """A list of the deck as read once for this deck object at its version. A version's lists never change (every
    write makes a new version, decks.services), so a request that reads them twice (a write's checks, then its
    answer) reads the database once; the object's version moves with a write, and the next read is a new one."""
    memo = deck.__dict__.get("_read_once")
    if memo is None or memo[0] != (deck.pk, deck.version):
        memo = deck.__dict__["_read_once"] = ((deck.pk, deck.version), {})
    if name not in memo[1]:
        memo[1][name] = read()
    return memo[1][name]


def carry_read_lists(deck: Deck, from_version: int, names: tuple[str, ...]) -> None:
    """After a write that made `deck` a new version without changing the lists named ("entries", with their tags,
    and "considering"), what was read of them at `from_version` stands for the new version too."""
    memo = deck.__dict__.get("_read_once")
    if memo is not None and memo[0] == (deck.pk, from_version):
        deck.__dict__["_read_once"] = ((deck.pk, deck.version), {n: memo[1][n] for n in names if n in memo[1]})


# The lists of a deck, by name, each row its card's CardInfo columns and its count (and, in the main deck, its tag):
# read on every change in the editor and by most deck pages, so compiled once per connection (decks/prepared.py).
_ENTRY_ROWS = PreparedRows(lambda deck_id: DeckEntry.objects.filter(deck_id=deck_id).order_by("card__name")
                           .values_list(*(f"card__{f}" for f in _INFO_FIELDS), "count", "tag"))
_CONSIDERING_ROWS = PreparedRows(lambda deck_id: ConsideringEntry.objects.filter(deck_id=deck_id)
                                 .order_by("card__name").values_list(*(f"card__{f}" for f in _INFO_FIELDS), "count"))


def _entry_rows(deck: Deck) -> tuple:
    """The main deck's rows, each its card's CardInfo columns, its count and its tag: one query for both the entries
    and the tags."""
    return _read_once(deck, "entries", lambda: _ENTRY_ROWS.rows(deck.pk))


def deck_entries(deck: Deck) -> list[Entry]:
    # Plain rows of the CardInfo columns: no model instances, and not the long text and abilities.
    return [Entry(CardInfo(*row[:-2]), row[-2]) for row in _entry_rows(deck)]


def deck_considering(deck: Deck) -> list[Entry]:
    """The considering list: cards kept for later beside the deck (not counted, not validated), by name."""
    def read():
        return tuple(Entry(CardInfo(*row[:-1]), row[-1]) for row in _CONSIDERING_ROWS.rows(deck.pk))
    return list(_read_once(deck, "considering", read))


def deck_tags(deck: Deck) -> dict[str, str]:
    """The tagged cards of the main deck: {collector number: tag}; an untagged card is not in it."""
    return {row[_NUMBER]: row[-1] for row in _entry_rows(deck) if row[-1]}


def deck_report(deck: Deck, entries: list[Entry] | None = None) -> Report:
    return validate_deck(deck_entries(deck) if entries is None else entries, deck.format,
                         gateway=deck_gateway_info(deck))


def can_view(deck: Deck, user, key: str | None = None) -> bool:
    if deck.visibility == Visibility.PUBLIC:
        return True
    if user is not None and user.is_authenticated and deck.owner_id == user.pk:
        return True
    return deck.visibility == Visibility.UNLISTED and bool(key) and key == deck.share_token


def can_edit(deck: Deck, user) -> bool:
    return user is not None and user.is_authenticated and deck.owner_id is not None and deck.owner_id == user.pk


def source_shown(deck: Deck, user) -> bool:
    """Whether the deck's page and API name the deck it was copied from: a public deck, or one of the viewer's own
    (an unlisted or private source is "another deck", even to whoever copied it by its secret link)."""
    if not deck.copied_from_id:
        return False
    source = deck.copied_from
    return source.visibility == Visibility.PUBLIC or (
        user is not None and user.is_authenticated and source.owner_id == user.pk)


# What a deck read for a viewer brings along: the deck's own columns, and of its related rows only what pages and
# services show (the owner's name, the gateway's CardInfo columns, the source deck's link): a user row or a card's
# long text read on every deck request would cost more than the deck.
_VIEWER_FIELDS = (*(f.name for f in Deck._meta.concrete_fields), "owner__username",
                  *(f"gateway__{f}" for f in _INFO_FIELDS), "copied_from__name", "copied_from__owner_id",
                  "copied_from__visibility")


# Behind every deck page and deck API call: compiled once per connection (decks/prepared.py).
_VIEWER_READ = PreparedGet(lambda deck_id: Deck.objects.select_related("owner", "gateway", "copied_from")
                           .only(*_VIEWER_FIELDS).filter(pk=deck_id))


def deck_for_viewer(*, deck_id: int | str, user, key: str | None = None) -> Deck:
    """The deck if `user` may see it; otherwise DeckNotFound, so a hidden deck's existence never leaks."""
    try:
        deck = _VIEWER_READ.get(int(deck_id))
    except (Deck.DoesNotExist, ValueError, TypeError):
        raise DeckNotFound() from None
    if not can_view(deck, user, key):
        raise DeckNotFound()
    return deck


# How My decks may be sorted: the name a page's form sends, and the order.
OWNER_ORDERS = {"updated": ("-updated_at", "-id"), "name": ("name", "id"), "format": ("format", "name", "id")}


def deck_list_for_owner(*, user, craft: str = "", format: str = "", card: str = "", q: str = "",
                        order: str = "updated") -> QuerySet[Deck]:
    """The user's decks, found as the public list finds them (`deck_list_public`), in an order of OWNER_ORDERS (the
    last edited first unless asked otherwise)."""
    decks = _filtered(Deck.objects.filter(owner=user).select_related("owner"), craft=craft, format=format, card=card,
                      q=q)
    return decks.order_by(*OWNER_ORDERS[order])


def deck_list_public(*, craft: str = "", format: str = "", card: str = "", q: str = "") -> QuerySet[Deck]:
    return _filtered(_public_decks(), craft=craft, format=format, card=card, q=q).order_by(*PUBLIC_ORDER)


def _filtered(decks: QuerySet[Deck], *, craft: str, format: str, card: str, q: str) -> QuerySet[Deck]:
    if craft:
        decks = decks.filter(crafts__contains=craft)
    if format:
        decks = decks.filter(format=format)
    if card:
        # The cards named first (a few thousand rows at most), then the decks that hold one of them, through the
        # entries' card index: a join of every public deck's every entry, filtered card by card and made
        # distinct, grew with all the public decks' lists (20 ms at 5,000 public decks; under 1 ms now).
        named = list(Card.objects.filter(Q(collector_number__iexact=card) | Q(name__icontains=card))
                     .values_list("pk", flat=True))
        decks = decks.filter(Exists(DeckEntry.objects.filter(deck=OuterRef("pk"), card__in=named)))
    if q:
        decks = decks.filter(Q(name__icontains=q) | Q(description__icontains=q))
    return decks


def public_decks_with_card(card_id: int, limit: int = 20) -> list[Deck]:
    """The public decks that hold this card, in the public list's order: the columns a card's page shows of them.
    By the card's id, which the database's statistics know: a staple card held by most decks is then read by walking
    the public decks' index until the page is full (0.2 ms at 5,000 decks), where a card named through a join was
    planned as a rare one and all its decks sorted (17 ms)."""
    holding = DeckEntry.objects.filter(deck=OuterRef("pk"), card_id=card_id)
    decks = _public_decks().filter(Exists(holding))
    return list(decks.only("name", "visibility", "is_starter", "card_count", "owner__username")
                .order_by(*PUBLIC_ORDER)[:limit])


def _public_decks() -> QuerySet[Deck]:
    return Deck.objects.filter(visibility=Visibility.PUBLIC).select_related("owner")


def starter_deck_list(*, format: str = "standard") -> QuerySet[Deck]:
    """The public starter decks built for a format, one per craft, in the data file's key order."""
    return Deck.objects.filter(is_starter=True, format=format).order_by("starter_key")


def deck_revisions(deck: Deck) -> QuerySet[DeckRevision]:
    return deck.revisions.select_related("author").order_by("-number")


def deck_revisions_numbered(deck: Deck, numbers: list[int]) -> tuple[dict[int, DeckRevision], list[int]]:
    """The deck's versions of these numbers, by number, and the numbers it has no version of (each once)."""
    kept = {revision.number: revision for revision in deck.revisions.filter(number__in=numbers)}
    return kept, [number for number in dict.fromkeys(numbers) if number not in kept]


# --- exports (reads) ---------------------------------------------------------------------------------------


def deck_gateway_info(deck: Deck) -> CardInfo | None:
    return card_info(deck.gateway) if deck.gateway_id else None


def deck_export_file_name(deck: Deck, kind: str) -> str:
    """The file name of an export ("text", "code" or "json"): the deck's name, id and version."""
    import re

    stem = re.sub(r"[^a-z0-9]+", "-", deck.name.lower()).strip("-")[:40].rstrip("-") or "deck"
    return f"{stem}-{deck.pk}-v{deck.version}" + {"text": ".txt", "code": "-code.txt", "json": ".json"}[kind]


# The first line of a text export of a deck with tags: the text leaves them out.
TEXT_EXPORT_LEAVES_OUT = "# tags are in the JSON export only"


def deck_export_text(deck: Deck, entries: list[Entry] | None = None) -> str:
    """The deck as a text list, its considering list under a section of its own, as other sites write a sideboard.
    Tags are left out (a comment at the top says so when the deck has any); reading the text back gives the main
    deck, its gateway and its considering list."""
    from .decklist import format_deck_list
    text = format_deck_list(deck_entries(deck) if entries is None else entries, gateway=deck_gateway_info(deck),
                            name=deck.name, format=deck.format, considering=deck_considering(deck),
                            description=deck.description)
    if deck.entries.exclude(tag="").exists():
        text = f"{TEXT_EXPORT_LEAVES_OUT}\n{text}"
    return text


def deck_export_code(deck: Deck, entries: list[Entry] | None = None) -> str:
    """The deck code: the main deck and the gateway, never the tags or the considering list."""
    from .deckcode import DeckCode, encode
    entries = deck_entries(deck) if entries is None else entries
    gateway = deck_gateway_info(deck)
    return encode(DeckCode(deck.format, tuple(sorted((e.card.collector_number, e.count) for e in entries)),
                           gateway.collector_number if gateway else None))


def deck_export_json(deck: Deck, entries: list[Entry] | None = None) -> dict:
    """The whole deck as JSON: each card of the main deck with its `tag` ("" untagged), the considering list,
    the gateway and the deck code. POST /api/decks/import/ reads it back, tags and considering list too."""
    entries = deck_entries(deck) if entries is None else entries
    gateway = deck_gateway_info(deck)
    tags = deck_tags(deck)
    return {
        "name": deck.name,
        "description": deck.description,
        "format": deck.format,
        "version": deck.version,
        "catalog_version": deck.catalog_version,
        "gateway": {"card": gateway.collector_number, "name": gateway.name, "count": 2} if gateway else None,
        "cards": [{"card": e.card.collector_number, "name": e.card.name, "count": e.count,
                   "tag": tags.get(e.card.collector_number, "")}
                  for e in sorted(entries, key=lambda e: (e.card.type, e.card.name))],
        "considering": [{"card": e.card.collector_number, "name": e.card.name, "count": e.count}
                        for e in sorted(deck_considering(deck), key=lambda e: (e.card.type, e.card.name))],
        "code": deck_export_code(deck, entries),
    }
