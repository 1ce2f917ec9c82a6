from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import (
    Aggregate,
    Case,
    CharField,
    Count,
    F,
    Func,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
)

from core.names import plain_name
from core.release import code_release

from .models import Card, CardType, CatalogRelease, Keyword
from .summaries import EXPORT_FIELDS, SUMMARY_FIELDS, card_summary


def catalog_version() -> str:
    """The version of the loaded catalog ('unloaded' before the first load)."""
    return _catalog_release()[0]


def _catalog_release() -> tuple[str, str]:
    """(version, stamp) of the loaded catalog. The stamp also changes when a version is loaded again
    with other content (the loader then moves its release's loaded_at)."""
    release = CatalogRelease.objects.order_by("-loaded_at").values_list("pk", "version", "loaded_at").first()
    if release is None:
        return "unloaded", "unloaded"
    pk, version, loaded_at = release
    return version, f"{version}:{pk}:{loaded_at.isoformat()}"


def catalog_summary() -> dict[str, object]:
    """The catalog's version and its cards counted by type: on every catalog page, and the same until a new catalog
    is loaded, so kept per catalog stamp as search answers are (SEARCH_CACHE_SECONDS)."""
    from django.conf import settings

    def summary() -> dict[str, object]:
        counts = dict(Card.objects.values_list("type").annotate(n=Count("id")).order_by())
        return {"version": catalog_version(), "total": sum(counts.values()), "by_type": counts}

    return answer_kept(f"catalog-summary:{catalog_stamp_recent()}", summary, settings.SEARCH_CACHE_SECONDS)


def card_get(*, collector_number: str) -> Card | None:
    """One card by collector number (case-insensitive)."""
    return Card.objects.filter(collector_number__iexact=collector_number).first()


def card_keywords(card: Card) -> list[Keyword]:
    """The card's keywords, by name."""
    return list(card.keywords.order_by("name"))


def card_texts(*, codes) -> dict[str, str]:
    """The rules text of each card the catalog holds among these collector numbers (absent: no such card)."""
    return dict(Card.objects.filter(collector_number__in=list(codes)).values_list("collector_number", "text"))


def card_face_svg(card: Card) -> str:
    """The card's SVG face, cached per card, catalog version and drawing version."""
    from django.core.cache import cache

    from .svg import RENDER_VERSION, render_card_svg

    key = f"card-svg:{RENDER_VERSION}:{card.collector_number}:{card.catalog_version}"
    svg = cache.get(key)
    if svg is None:
        svg = render_card_svg(card, [k.name for k in card_keywords(card)])
        cache.set(key, svg, 24 * 3600)
    return svg


def card_face_etag(card: Card) -> str:
    from .svg import RENDER_VERSION

    return f'"{card.collector_number}-{card.catalog_version}-r{RENDER_VERSION}"'


def craft_list() -> list[dict[str, str]]:
    from .crafts import CRAFTS

    return [
        {"slug": key, "name": info.label, "colour": info.colour, "hex": info.hex, "icon": info.icon,
         "speciality": info.speciality}
        for key, info in CRAFTS.items()
    ]


_keywords_memo: tuple[tuple[str, int], list[dict[str, str]]] | None = None


def keyword_list() -> list[dict[str, str]]:
    """The catalog's keywords in name order, read once per catalog in this process, as the search index is: a new
    load is seen by its stamp, a keyword saved here (the admin) at once."""
    global _keywords_memo
    key = catalog_seen()
    if _keywords_memo is None or _keywords_memo[0] != key:
        _keywords_memo = (key, list(Keyword.objects.order_by("name").values("slug", "name", "reminder")))
    return _keywords_memo[1]


def card_type_list() -> list[dict[str, object]]:
    from .models import ITEM_SUBTYPES, TALENT_SUBTYPES, CardType, Subtype

    subtypes = {CardType.TALENT: TALENT_SUBTYPES, CardType.ITEM: ITEM_SUBTYPES}
    return [
        {"slug": t.value, "name": t.label, "subtypes": [s.value for s in Subtype if s in subtypes.get(t, ())]}
        for t in CardType
    ]


EXPORT_FORMAT = 1


def catalog_export(*, version: str) -> dict[str, object]:
    """Every card with its keywords, built from plain rows (8,100+ cards) and cached per catalog version."""
    from django.core.cache import cache

    from .svg import directions_of

    key = f"catalog-export:{EXPORT_FORMAT}:{version}"
    export = cache.get(key)
    if export is not None:
        return export
    keywords: dict[int, list[str]] = {}
    links = Card.keywords.through.objects.values_list("card_id", "keyword__slug").order_by("keyword__slug")
    for card_id, slug in links:
        keywords.setdefault(card_id, []).append(slug)
    cards = []
    for row in Card.objects.order_by("collector_number").values("id", *EXPORT_FIELDS):
        card_id = row.pop("id")
        row["attack_directions"] = directions_of(row["attack_directions"])
        row["maneuver_directions"] = directions_of(row["maneuver_directions"])
        row["keywords"] = keywords.get(card_id, [])
        cards.append(row)
    export = {"format": EXPORT_FORMAT, "catalog_version": version, "card_count": len(cards), "cards": cards,
              "keywords": list(Keyword.objects.values("slug", "name", "reminder"))}
    cache.set(key, export, 24 * 3600)
    return export


PAGE_SIZE = 60
TABLE_COLUMNS = (  # (order key, heading, abbreviation shown on narrow screens)
    ("name", "Name", "Name"), ("craft", "Craft", "Craft"), ("vit", "Vitality", "Vit"), ("atk", "Attack", "Atk"),
    ("def", "Defense", "Def"), ("rng", "Range", "Rng"), ("man", "Maneuver", "Man"), ("cn", "Number", "No."),
)


def search_engine() -> str:
    """Which path answers searches: "index" (the in-process index) or "sql" (settings.SEARCH_ENGINE)."""
    from django.conf import settings

    return getattr(settings, "SEARCH_ENGINE", "index")


def search_index():
    """The in-process index of the current catalog (cards/search/index.py), built on first use."""
    from django.urls import reverse

    from .search.index import catalog_index

    return catalog_index(catalog_stamp_recent(), lambda: reverse("cards:svg", args=["CN"]))  # URL: at a build only


class _IndexedCards:
    """The cards an indexed search found, in order, as the Paginator reads them: a length, and slices
    of Card objects (one query for the page's cards)."""

    def __init__(self, result) -> None:
        self.result = result
        self.total = result.page(0, 0)[0]

    def __len__(self) -> int:
        return self.total

    def __getitem__(self, part: slice) -> list[Card]:
        start = part.start or 0
        stop = self.total if part.stop is None else part.stop
        _count, positions = self.result.page(start, stop - start)
        ids = [self.result.index.ids[p] for p in positions]
        cards = Card.objects.in_bulk(ids)
        return [cards[i] for i in ids if i in cards]


def card_search_page(*, query: str, order: str | None, direction: str | None, page_number: str | int | None):
    """One page of search results for the catalog page; raises SearchError like search_cards."""
    from django.core.paginator import Paginator

    from .search import search_cards, search_indexed

    if search_engine() == "index":
        result = search_indexed(query, order, direction, index=search_index())
        return result, Paginator(_IndexedCards(result), PAGE_SIZE).get_page(page_number)
    result = search_cards(query, order, direction)
    page = Paginator(result.queryset, PAGE_SIZE).get_page(page_number)
    return result, page


# What a list of matching cards shows (the deck editor's search results): a card's name and its type line.
MATCH_FIELDS = ("collector_number", "name", "type", "craft", "is_unique", "vitality")


# A query of plain words: a name (or part of one) as typed, with no field, operator, quote or pattern.
PLAIN_WORDS = re.compile(r"\w[\w '’.,-]*")


def cards_matching(*, query: str, limit: int, exclude_type: str = "", names_first: bool = False,
                   ) -> tuple[list[dict], list]:
    """The first `limit` cards a query finds, in its order, as dicts of MATCH_FIELDS and `type_label`, leaving out
    one type (the editor leaves out gateway cards), and its warnings. By the engine of settings.SEARCH_ENGINE, as the
    API: the index answers from memory, with no database query. Raises SearchError.

    `names_first` (the deck editor's search, whose Enter adds the first card): a query of plain words in the
    default order finds the card of that very name first, then the names that start with it, then those with a
    later word that starts with it, then the rest, each in name order: "battle" finds Battle Cry before
    Ardent Militant of Ten Battles, as a deck builder's search box does."""
    from .search import DEFAULT_DIRECTION, DEFAULT_ORDER, search_cards, search_indexed
    from .search.index import positions_of

    text = plain_name(query) if names_first and PLAIN_WORDS.fullmatch(query.strip()) else ""
    if search_engine() == "index":
        result = search_indexed(query, None, None, index=search_index())
        index = result.index
        ranked = text and result.order == DEFAULT_ORDER and result.direction == DEFAULT_DIRECTION
        matched = index.all if result.matched is None else result.matched
        rows: list[dict] = []
        taken: set[int] = set()  # the cards the names put first: not again in the rest
        for bits in index.names_first(text) if ranked else []:
            for position in positions_of(bits & matched):  # positions are in name order
                if len(rows) == limit:
                    break
                taken.add(position)
                rows += [row for row in index.rows([position], MATCH_FIELDS) if row["type"] != exclude_type]
        offset = 0
        while len(rows) < limit:  # a type left out may take some of the first places: read on past them
            _count, positions = result.page(offset, limit)
            if not positions:
                break
            rest = [p for p in positions if p not in taken]
            rows += [row for row in index.rows(rest, MATCH_FIELDS) if row["type"] != exclude_type]
            offset += len(positions)
        warnings = result.warnings
    else:
        sql = search_cards(query)
        queryset = sql.queryset.exclude(type=exclude_type)
        if text and sql.order == DEFAULT_ORDER and sql.direction == DEFAULT_DIRECTION:
            best = Case(When(name__iexact=text, then=Value(0)), When(name__istartswith=text, then=Value(1)),
                        When(name__icontains=" " + text, then=Value(2)), default=Value(3),
                        output_field=IntegerField())
            queryset = queryset.annotate(best=best).order_by("best", *queryset.query.order_by)
        rows = list(queryset.values(*MATCH_FIELDS)[:limit])
        warnings = sql.warnings
    labels = dict(CardType.choices)
    return [{**row, "type_label": labels.get(row["type"], row["type"])} for row in rows[:limit]], warnings


@dataclass(frozen=True, slots=True)
class SearchAnswer:
    """One page of an API search: the count (None for an empty page past the first: past the end),
    the results as dicts (SQL) or as the JSON bytes the index prepared, and the warnings."""

    count: int | None
    results: list[dict] | None
    results_json: list[bytes] | None
    warnings: list

    def rows(self) -> list[dict]:
        """The results as dicts, whichever engine answered."""
        if self.results is not None:
            return self.results
        import json

        return [json.loads(row) for row in self.results_json or ()]


def card_search_answer(*, query: str, order: str | None, direction: str | None, offset: int,
                       limit: int) -> SearchAnswer:
    """One page of results of the search API, by the engine of settings.SEARCH_ENGINE; raises SearchError."""
    from .search import search_cards, search_indexed

    if search_engine() == "index":
        result = search_indexed(query, order, direction, index=search_index())
        count, positions = result.page(offset, limit)
        index = result.index
        return SearchAnswer(None if offset and not positions else count, None,
                            index.results_json(positions), result.warnings)
    sql = search_cards(query, order, direction)
    total, rows = card_search_rows(sql.queryset, offset=offset, limit=limit)
    return SearchAnswer(total, card_summaries(rows), None, sql.warnings)


class _SlugList(Aggregate):
    """Keyword slugs joined by commas: GROUP_CONCAT on SQLite, STRING_AGG on PostgreSQL."""

    function = "GROUP_CONCAT"
    template = "%(function)s(%(expressions)s, ',')"
    output_field = CharField()

    def as_postgresql(self, compiler, connection, **extra):
        return self.as_sql(compiler, connection, function="STRING_AGG", **extra)


def card_search_rows(queryset: QuerySet[Card], *, offset: int, limit: int) -> tuple[int | None, list[dict]]:
    """(matching cards, one page of `values("id", *SUMMARY_FIELDS)` rows with keyword slugs), in one query.

    The count is an uncorrelated scalar subquery, which the database computes once; the keyword
    slugs are a correlated one, computed for the page's rows only. A round trip costs more than
    either on a small catalog. The count is None when the page is empty: it is then known only
    to be at most `offset`.
    """
    through = Card.keywords.through.objects
    total = queryset.order_by().annotate(n=Func(F("pk"), function="COUNT", output_field=IntegerField())).values("n")
    slugs = (through.filter(card_id=OuterRef("pk")).order_by().values("card_id")
             .annotate(slugs=_SlugList("keyword__slug")).values("slugs"))
    if offset:
        # The page's ids in a limited subquery, so that the slugs are looked up for its rows alone
        # (a correlated subquery in the select list also runs for every row an OFFSET skips).
        ordering = queryset.query.order_by or Card._meta.ordering
        queryset = Card.objects.filter(pk__in=queryset.values("pk")[offset : offset + limit]).order_by(*ordering)
    page = (queryset.annotate(search_total=Subquery(total), search_slugs=Subquery(slugs))
            .values("id", *SUMMARY_FIELDS, "search_total", "search_slugs"))
    rows = list(page[:limit] if not offset else page)
    count = rows[0]["search_total"] if rows else (0 if offset == 0 else None)
    return count, rows


def card_summaries(rows: list[dict]) -> list[dict]:
    """Search results as plain dicts, from card_search_rows(): no model instances on this hot path."""
    from django.urls import reverse

    image = reverse("cards:svg", args=["CN"])
    return [card_summary(row, row["search_slugs"].split(",") if row["search_slugs"] else [], image) for row in rows]


# (expiry on the monotonic clock, version, stamp), or None when nothing is remembered. Not a time of
# 0: the monotonic clock starts near 0 at boot, so "0" would look fresh on a machine just started.
_version_memo: tuple[float, str, str] | None = None
VERSION_MEMO_SECONDS = 2.0


def _release_recent() -> tuple[float, str, str]:
    import time

    global _version_memo
    now = time.monotonic()
    if _version_memo is None or now >= _version_memo[0]:
        _version_memo = (now + VERSION_MEMO_SECONDS, *_catalog_release())
    return _version_memo


def catalog_version_recent() -> str:
    """catalog_version(), remembered in this process for two seconds: the key of cached answers.

    A new catalog load is seen by every server within those two seconds.
    """
    return _release_recent()[1]


def catalog_stamp_recent() -> str:
    """The stamp of the loaded catalog (a version loaded again with other content has another),
    remembered like catalog_version_recent: the key of the in-process search index."""
    return _release_recent()[2]


def catalog_seen() -> tuple[str, int]:
    """The catalog as this process sees it: the loaded one's stamp, and the card index's generation (a card or keyword
    saved in this process, the admin's, moves it at once). What is read or rendered of the catalog is kept per this."""
    from .search.index import generation

    return catalog_stamp_recent(), generation()


LOCAL_ANSWER_SECONDS = 300


def answer_get(key: str):
    """A cached answer whose key names every version it depends on (the catalog's, a deck's; the code's is added
    here, core/release.py), so that no copy of it is ever stale: from this process's own copy first (the "local"
    cache, no round trip), else from the shared cache, then kept here too. None when neither has it."""
    from django.core.cache import cache, caches

    key = f"{code_release()}:{key}"
    local = caches["local"]
    answer = local.get(key)
    if answer is None:
        answer = cache.get(key)
        if answer is not None:
            local.set(key, answer, LOCAL_ANSWER_SECONDS)
    return answer


def answer_kept(key: str, make, seconds: int, *, shared: bool = True):
    """The answer kept under `key` (answer_get), else `make()`'s, kept for `seconds` (answer_set; 0 keeps nothing)."""
    answer = answer_get(key) if seconds else None
    if answer is None:
        answer = make()
        if seconds:
            answer_set(key, answer, seconds, shared=shared)
    return answer


def answer_set(key: str, answer, seconds: int, *, shared: bool = True) -> None:
    """Keep an answer in this process and, if `shared`, in the shared cache (where there is no local cache, the
    cache is the only place to keep it: the process's own, in the embedded default)."""
    from django.core.cache import cache, caches
    from django.core.cache.backends.dummy import DummyCache

    key = f"{code_release()}:{key}"
    local = caches["local"]
    if shared or isinstance(local, DummyCache):
        cache.set(key, answer, seconds)
    local.set(key, answer, min(seconds, LOCAL_ANSWER_SECONDS))


def search_cache_key(*, origin: str, params: list[tuple[str, str]]) -> str:
    """Cache key of one search answer: catalog version, scheme and host (links are absolute), parameters."""
    import hashlib

    text = repr((origin, sorted(params)))
    return f"card-search:{catalog_version_recent()}:{hashlib.sha256(text.encode()).hexdigest()}"


# --- Look-ups by name and number (the API's named, autocomplete, random and collection) -----------------

AUTOCOMPLETE_LIMIT = 20
AUTOCOMPLETE_MIN_LENGTH = 2
COLLECTION_LIMIT = 75


def card_named_exact(*, name: str) -> Card | None:
    """The card with exactly this name, ignoring case, runs of spaces and the apostrophe's shape (core.names)."""
    return Card.objects.prefetch_related("keywords").filter(name__iexact=plain_name(name)).first()


AMBIGUOUS_LISTED = 20  # the names an ambiguous fuzzy name lists


@dataclass(frozen=True, slots=True)
class FuzzyMatch:
    """What a fuzzy name finds: one card and the next best names, or, when it is ambiguous (several names hold
    every word of it, none exactly), no card, `matching` the number of those names and `alternatives` the first."""

    card: Card | None
    alternatives: list[tuple[str, str]]  # (name, collector number)
    matching: int = 0

    @property
    def ambiguous(self) -> bool:
        return self.card is None and self.matching > 1


def card_named_fuzzy(*, text: str, limit: int = 5) -> FuzzyMatch:
    """The card a name written in part or misspelt means, as Scryfall's fuzzy name reads it.

    The exact name first; then the one name holding every word of the text (several such names are
    ambiguous: no card, the count and the first of them, a name that starts with the text before one
    that only contains it, then the shorter); then the closest names to a misspelling (close_names:
    trigram similarity on PostgreSQL, difflib's measure elsewhere: cards.closeness), the best with the next ones
    as alternatives.
    """
    text = plain_name(text)
    if not text:
        return FuzzyMatch(None, [])
    exact = card_named_exact(name=text)
    if exact is not None:
        return FuzzyMatch(exact, [])
    from django.db.models import Case, IntegerField, Q, Value, When
    from django.db.models.functions import Length

    words = Q()
    for word in text.split():
        words &= Q(name__icontains=word)
    holding = Card.objects.filter(words)
    found = list(
        holding.annotate(starts=Case(When(name__istartswith=text, then=Value(0)), default=Value(1),
                                     output_field=IntegerField()), length=Length("name"))
        .order_by("starts", "length", "name")
        .values_list("name", "collector_number")[:AMBIGUOUS_LISTED]
    )
    if len(found) > 1:
        return FuzzyMatch(None, found, holding.count())
    if not found:
        found = close_names(text=text, limit=limit + 1)
    if not found:
        return FuzzyMatch(None, [])
    best = Card.objects.prefetch_related("keywords").get(collector_number=found[0][1])
    return FuzzyMatch(best, found[1:])


def card_autocomplete(*, text: str, limit: int = AUTOCOMPLETE_LIMIT) -> list[str]:
    """Up to `limit` card names for a name being typed: those that start with it first, then those that
    contain it, each alphabetically. Fewer than two characters give nothing."""
    text = plain_name(text)
    if len(text) < AUTOCOMPLETE_MIN_LENGTH:
        return []
    names = list(Card.objects.filter(name__istartswith=text).order_by("name").values_list("name", flat=True)[:limit])
    if len(names) < limit:
        names += list(Card.objects.filter(name__icontains=text).exclude(name__istartswith=text).order_by("name")
                      .values_list("name", flat=True)[: limit - len(names)])
    return names


def card_random(*, queryset: QuerySet[Card]) -> Card | None:
    """One card of `queryset` taken at random (None when it is empty)."""
    import random

    count = queryset.count()
    if not count:
        return None
    pk = queryset.values_list("pk", flat=True)[random.randrange(count)]
    return Card.objects.prefetch_related("keywords").get(pk=pk)


def card_collection(*, identifiers: list[dict[str, str]]) -> tuple[list[Card], list[dict]]:
    """The cards named by `identifiers` ({"collector_number": ...} or {"name": ...}, either in any case, a name
    as core.names reads it), in the order asked, and the identifiers that name no card, a name with the closest
    names as `suggestions` ({"name", "collector_number"}). Two queries, and close_names' for the names missed."""
    from django.db.models.functions import Upper

    def key(value: str) -> str:
        return plain_name(value).upper()

    numbers = [key(i["collector_number"]) for i in identifiers if "collector_number" in i]
    names = [key(i["name"]) for i in identifiers if "name" in i]
    cards = (Card.objects.prefetch_related("keywords")
             .annotate(number_key=Upper("collector_number"), name_key=Upper("name")))
    by_number = {c.number_key: c for c in cards.filter(number_key__in=numbers)} if numbers else {}
    by_name = {c.name_key: c for c in cards.filter(name_key__in=names)} if names else {}
    found, missing = [], []
    for identifier in identifiers:
        if "collector_number" in identifier:
            card = by_number.get(key(identifier["collector_number"]))
        else:
            card = by_name.get(key(identifier["name"]))
        if card is None:
            missing.append(dict(identifier))
        else:
            found.append(card)
    missed_names = [m for m in missing if "name" in m]
    for miss, close in zip(missed_names, close_names_each(texts=[plain_name(m["name"]) for m in missed_names]),
                           strict=True):
        miss["suggestions"] = [{"name": name, "collector_number": number} for name, number in close]
    return found, missing


def close_names(*, text: str, limit: int = 5) -> list[tuple[str, str]]:
    """(name, collector number) of the cards whose names are closest to `text`, best first.

    PostgreSQL ranks by trigram word similarity (pg_trgm); elsewhere difflib's measure (cards.closeness) does the
    same job over the names and their words.
    """
    return close_names_each(texts=[text], limit=limit)[0]


def close_names_each(*, texts: list[str], limit: int = 5) -> list[list[tuple[str, str]]]:
    """close_names() of each text: a query each on PostgreSQL, the names read once elsewhere."""
    from django.db import connection

    texts = [plain_name(text) for text in texts]
    if not any(len(text) >= 3 for text in texts):
        return [[] for _ in texts]
    if connection.vendor == "postgresql":
        from django.contrib.postgres.search import TrigramSimilarity, TrigramWordSimilarity

        return [list(
            Card.objects.annotate(word=TrigramWordSimilarity(text, "name"), whole=TrigramSimilarity("name", text))
            .filter(word__gte=0.5)
            .order_by("-word", "-whole", "name")
            .values_list("name", "collector_number")[:limit]
        ) if len(text) >= 3 else [] for text in texts]
    from .closeness import close_matches

    cards = dict(Card.objects.values_list("name", "collector_number"))
    lowered = {name.lower(): name for name in cards}
    by_word: dict[str, str] = {}
    for name in sorted(cards):
        for word in name.lower().replace(",", " ").split():
            by_word.setdefault(word, name.lower())

    names, words = list(lowered), list(by_word)

    def closest(text: str) -> list[tuple[str, str]]:
        if len(text) < 3:
            return []
        matches = close_matches(text.lower(), names, limit=limit, cutoff=0.6)
        if not matches:  # close to one word of a longer name
            matches = [by_word[w] for w in close_matches(text.lower(), words, limit=limit, cutoff=0.75)]
        return [(lowered[m], cards[lowered[m]]) for m in dict.fromkeys(matches)]

    return [closest(text) for text in texts]


def name_suggestions(*, query: str, limit: int = 5) -> list[tuple[str, str]]:
    """(name, collector number) of cards whose names are close to the query's bare words.

    For a search that found nothing (close_names does the ranking).
    """
    from .search import SearchError
    from .search.parser import Term, parse

    try:
        node = parse(query)
    except SearchError:
        return []
    words: list[str] = []
    stack = [node] if node is not None else []
    while stack:  # bare words outside negations (a Not has a child, not children)
        item = stack.pop()
        if isinstance(item, Term):
            if item.field is None:
                words.append(item.value)
        elif hasattr(item, "children"):
            stack.extend(reversed(item.children))
    return close_names(text=" ".join(words).strip(), limit=limit)
