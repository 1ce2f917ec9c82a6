"""The decks API: thin views over decks.services and decks.selectors.

Visibility is checked before ownership, so a deck the caller may not see answers 404 on every
endpoint and a visible deck of someone else answers 403 to writes. Every write names the version
it started from in If-Match (the ETag of GET): 428 without one, 412 when stale. As RFC 9110 says,
`If-Match: *` matches the deck whatever its version, a list of ETags matches if any of them does,
and a weak ETag (W/"3") never matches a write (§13.1.1: If-Match compares strongly). Then, on a
write, an If-None-Match that names the current version (or *) is a 412 (§13.2.2: If-Match first,
then If-None-Match); GET answers 304 to it instead (compared weakly).
"""

from __future__ import annotations

import hashlib
from typing import NoReturn

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from cards.api_params import bounded, page_parameter, whole_number
from cards.models import Card, CardType
from cards.selectors import answer_get, answer_kept, answer_set, catalog_version_recent
from core.crafts import CRAFTS
from core.errors import ErrorCode
from core.formats import FORMAT_SLUGS
from core.intbounds import MAX_BIG_INTEGER, MAX_INTEGER, shortened

from . import selectors, services, stats
from .compare import compare_decks
from .errors import DeckForbidden, DeckNotFound, InvalidDeck, StaleVersion, VersionRequired
from .models import Deck, Visibility
from .presenters import DEFAULT_TURNS, OPENING_HAND
from .serializers import (
    CopySerializer,
    DeckOutSerializer,
    DeckReplaceSerializer,
    DeckSummarySerializer,
    DeckWriteSerializer,
    ImportRequestSerializer,
    RevertSerializer,
    RevisionSerializer,
    ValidateRequestSerializer,
    ValidationReportSerializer,
    deck_list_out,
)

KEY_PARAM = OpenApiParameter("key", str, description="The secret of an unlisted deck's link.")
# Not blank: a header with nothing in it names no version, as a missing one (428).
IF_MATCH = OpenApiParameter("If-Match", {"type": "string", "pattern": r"\S"}, OpenApiParameter.HEADER, required=True,
                            description='The deck\'s ETag from GET, e.g. "3"; a list ("3", "4") matches if any '
                                        'does; * matches whatever the version.')
IF_NONE_MATCH = OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER,
                                 description="ETags you hold; the current one (or *) answers 304 Not Modified.")
IF_NONE_MATCH_WRITE = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER,
    description="Optional: ETags the deck must not have; the current one (W/ or not) or * answers 412, after "
                "If-Match.")
ERROR = OpenApiResponse(description='The error envelope: {"error": {"code", "message", "details"}}.')
PRECONDITION_FAILED = OpenApiResponse(description=(
    "The error envelope. stale_version: If-Match names another version (details: expected, current); "
    "precondition_failed: If-Match names the current version only as a weak ETag, or If-None-Match names it."))


def _entity_tags(raw: str) -> list[tuple[str, bool]]:
    """The entity tags an If-Match or If-None-Match header names, each as (its text, weak): 'W/"3"' is ("3", True),
    '"3"' is ("3", False), "*" is ("*", False)."""
    return [(tag.removeprefix("W/").strip('"'), tag.startswith("W/"))
            for tag in (part.strip() for part in raw.split(",")) if tag]


def expected_version(request, deck: Deck) -> int:
    """The version a write starts from, the deck's, once the preconditions hold in RFC 9110's order (§13.2.2):
    If-Match names it (compared strongly) or is *, else 428 (none) or 412; then If-None-Match does not name it."""
    raw = request.headers.get("If-Match", "").strip()
    tags = _entity_tags(raw)
    if not tags:
        raise VersionRequired()
    if not any(tag in ("*", str(deck.version)) and not weak for tag, weak in tags):
        _refuse_if_match(raw, tags, deck)
    if not_modified(request, deck):
        raise StaleVersion(f"If-None-Match names the deck's current version ({deck.version}), so the write is not "
                           "applied.", code=ErrorCode.PRECONDITION_FAILED,
                           details={"if_none_match": request.headers.get("If-None-Match", ""),
                                    "current": deck.version})
    return deck.version


def _refuse_if_match(raw: str, tags: list[tuple[str, bool]], deck: Deck) -> NoReturn:
    if any(weak and tag == str(deck.version) for tag, weak in tags):
        raise StaleVersion(f"If-Match {raw!r} names the current version only as a weak ETag, which never matches a "
                           f"write (RFC 9110 §13.1.1); send the ETag as GET gives it, {deck.etag}.",
                           code=ErrorCode.PRECONDITION_FAILED, details={"if_match": raw, "current": deck.version})
    if any(not (tag.isascii() and tag.isdigit()) for tag, _ in tags):
        raise StaleVersion(f"If-Match {raw!r} is not a version of this deck.", details={"if_match": raw})
    named = [int(tag) for tag, _ in tags]
    raise StaleVersion(details={"expected": named[0] if len(named) == 1 else named, "current": deck.version})


def not_modified(request, deck: Deck) -> bool:
    """If-None-Match names the deck's version (compared weakly: W/"3" names version 3) or is *."""
    return any(tag in ("*", str(deck.version)) for tag, _ in _entity_tags(request.headers.get("If-None-Match", "")))


def require_login(request, to: str = "create or change decks") -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated(f"Log in to {to}.")


def visible_deck(request, pk) -> Deck:
    return selectors.deck_for_viewer(deck_id=pk, user=request.user, key=request.query_params.get("key"))


def owned_deck(request, pk) -> Deck:
    """Writes: 401 when not authenticated, 404 for a deck the caller cannot see, then 403 unless it is
    theirs (before reading the body)."""
    require_login(request)
    deck = visible_deck(request, pk)
    if not selectors.can_edit(deck, request.user):
        raise DeckForbidden()
    return deck


def deck_payload(deck: Deck, user, *, written: bool = False) -> dict:
    """The deck as the API shows it, kept in the answer cache per version of the deck (as the deck page's body is):
    reading it again costs no query of its cards. The key names everything the payload shows that a version of the
    deck does not fix (the catalog's version, the owner's name, whether the secret link is shown), so that no copy
    of it is ever stale. A write (`written`: a version no one has read yet) keeps its answer in the shared cache
    too: the read that follows a save is as likely served by another web process as by this one, and answering it
    there from the cache (one round trip on the write) costs less than reading and writing out the deck again."""
    share = deck.visibility == Visibility.UNLISTED and selectors.can_edit(deck, user)
    shown_source = selectors.source_shown(deck, user)
    parts = (deck.version, deck.updated_at.timestamp(), catalog_version_recent(),
             deck.owner.username if deck.owner_id else None, share, shown_source)
    key = f"deck-api:{deck.pk}:{hashlib.sha256(repr(parts).encode()).hexdigest()}"
    seconds = settings.DECK_PAGE_CACHE_SECONDS
    payload = answer_get(key) if seconds and not written else None
    if payload is None:
        # What it shows of its list is kept per list version: a new name or description does not read its cards.
        listed = answer_kept(f"deck-api-list:{deck.pk}:{deck.list_version}:{deck.created_at.timestamp()}:"
                             f"{catalog_version_recent()}", lambda: deck_list_out(
                                 deck, selectors.deck_entries(deck), selectors.deck_tags(deck),
                                 selectors.deck_considering(deck)), seconds)
        payload = dict(DeckOutSerializer(deck, context={"listed": listed, "user": user,
                                                        "source_shown": shown_source}).data)
        if seconds:
            answer_set(key, payload, seconds)
    return payload


def with_etag(response: Response, deck: Deck) -> Response:
    response["ETag"] = deck.etag
    return response


def write_kwargs(data: dict, deck: Deck | None = None) -> dict:
    """The service's arguments for a create (`deck` None) or an update of `deck`. A card sent without a `tag`
    keeps the one it has."""
    kwargs = {k: data[k] for k in ("name", "description", "format", "visibility") if k in data}
    if "cards" in data:
        entries = services.entries_from_counts([(c["card"], c["count"]) for c in data["cards"]], field="cards")
        current = selectors.deck_tags(deck) if deck is not None else {}
        tags: dict[str, str] = {}
        for entry, item in zip(entries, data["cards"], strict=True):
            number = entry.card.collector_number
            tags[number] = item["tag"] if "tag" in item else tags.get(number, current.get(number, ""))
        kwargs["entries"], kwargs["tags"] = entries, tags
    if "considering" in data:
        kwargs["considering"] = services.entries_from_counts([(c["card"], c["count"]) for c in data["considering"]],
                                                             field="considering")
    if "gateway" in data:
        if data["gateway"] is None:
            kwargs["gateway"] = None
        else:
            gateway = Card.objects.filter(collector_number__iexact=data["gateway"], type=CardType.GATEWAY).first()
            if gateway is None:
                raise InvalidDeck(f"{data['gateway']!r} is not a gateway card.", details={"field": "gateway"})
            kwargs["gateway"] = gateway
    return kwargs


class DeckListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="decks_list",
        summary="List decks: your own (mine=true) or the public ones",
        parameters=[page_parameter(),
                    OpenApiParameter("mine", bool), OpenApiParameter("craft", str, enum=list(CRAFTS)),
                    OpenApiParameter("deck_format", str, enum=list(FORMAT_SLUGS)),
                    OpenApiParameter("card", str, description="Collector number or part of a card name."),
                    OpenApiParameter("q", str, description="Words of the deck name or description.")],
        responses={200: inline_serializer("PaginatedDeckSummaryList", {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": DeckSummarySerializer(many=True),
        })},
    )
    def get(self, request):
        p = request.query_params
        if p.get("mine") == "true":
            require_login(request, "list your own decks (mine=true); the public ones need no log-in")
            decks = selectors.deck_list_for_owner(user=request.user)
        else:
            decks = selectors.deck_list_public(craft=p.get("craft", ""), format=p.get("deck_format", ""),
                                               card=p.get("card", ""), q=p.get("q", ""))
        paginator = api_settings.DEFAULT_PAGINATION_CLASS()
        page = paginator.paginate_queryset(decks, request, view=self)
        return paginator.get_paginated_response(DeckSummarySerializer(page, many=True).data)

    @extend_schema(summary="Create a deck", request=DeckWriteSerializer,
                   responses={201: DeckOutSerializer, 400: ERROR, 403: ERROR})
    def post(self, request):
        require_login(request)
        body = DeckWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        deck = services.deck_create(owner=request.user, **write_kwargs(body.validated_data))
        return with_etag(Response(deck_payload(deck, request.user, written=True), status=status.HTTP_201_CREATED),
                         deck)


class DeckDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="A deck, with its cards, legality and deck code; the ETag header is its version",
                   parameters=[KEY_PARAM, IF_NONE_MATCH],
                   responses={200: DeckOutSerializer, 304: OpenApiResponse(description="Not modified."), 404: ERROR})
    def get(self, request, pk):
        deck = visible_deck(request, pk)
        if not_modified(request, deck):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), deck)
        return with_etag(Response(deck_payload(deck, request.user)), deck)

    def _update(self, request, pk, partial: bool):
        deck = owned_deck(request, pk)
        # A PUT replaces the whole deck, so it gives every field; a PATCH only those it changes.
        body = DeckWriteSerializer(data=request.data, partial=True) if partial else DeckReplaceSerializer(
            data=request.data)
        body.is_valid(raise_exception=True)
        deck = services.deck_update(deck=deck, actor=request.user, expected_version=expected_version(request, deck),
                                    **write_kwargs(body.validated_data, deck))
        return with_etag(Response(deck_payload(deck, request.user, written=True)), deck)

    @extend_schema(summary="Replace a deck: every field, as a whole (owner only; If-Match required)",
                   parameters=[KEY_PARAM, IF_MATCH, IF_NONE_MATCH_WRITE], request=DeckReplaceSerializer,
                   responses={200: DeckOutSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 412: PRECONDITION_FAILED,
                              428: ERROR})
    def put(self, request, pk):
        return self._update(request, pk, partial=False)

    @extend_schema(summary="Change some of a deck's fields (owner only; If-Match required)",
                   parameters=[KEY_PARAM, IF_MATCH, IF_NONE_MATCH_WRITE], request=DeckWriteSerializer,
                   responses={200: DeckOutSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 412: PRECONDITION_FAILED,
                              428: ERROR})
    def patch(self, request, pk):
        return self._update(request, pk, partial=True)

    @extend_schema(summary="Delete a deck (owner only; If-Match required)",
                   parameters=[KEY_PARAM, IF_MATCH, IF_NONE_MATCH_WRITE],
                   responses={204: None, 403: ERROR, 404: ERROR, 412: PRECONDITION_FAILED, 428: ERROR})
    def delete(self, request, pk):
        deck = owned_deck(request, pk)
        services.deck_delete(deck=deck, actor=request.user, expected_version=expected_version(request, deck))
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeckCopyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Copy a deck you can see into a new private deck of yours", parameters=[KEY_PARAM],
                   request=CopySerializer, responses={201: DeckOutSerializer, 403: ERROR, 404: ERROR})
    def post(self, request, pk):
        require_login(request)
        deck = visible_deck(request, pk)
        body = CopySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        copy = services.deck_copy(deck=deck, owner=request.user, name=body.validated_data.get("name"))
        return with_etag(Response(deck_payload(copy, request.user, written=True), status=status.HTTP_201_CREATED),
                         copy)


class DeckRevertView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Revert a deck to an earlier version (a new version; If-Match required)",
                   parameters=[KEY_PARAM, IF_MATCH, IF_NONE_MATCH_WRITE], request=RevertSerializer,
                   responses={200: DeckOutSerializer, 403: ERROR, 404: ERROR, 412: PRECONDITION_FAILED, 428: ERROR})
    def post(self, request, pk):
        deck = owned_deck(request, pk)
        body = RevertSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        deck = services.deck_revert(deck=deck, actor=request.user, number=body.validated_data["version"],
                                    expected_version=expected_version(request, deck))
        return with_etag(Response(deck_payload(deck, request.user, written=True)), deck)


class DeckUnpublishView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Staff: take a public deck out of the public list", request=None,
                   responses={200: DeckOutSerializer, 403: ERROR, 404: ERROR, 409: ERROR})
    def post(self, request, pk):
        require_login(request)
        deck = visible_deck(request, pk)
        deck = services.deck_unpublish(deck=deck, actor=request.user)
        return with_etag(Response(deck_payload(deck, request.user, written=True)), deck)


class DeckRevisionsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="A deck's saved versions, newest first, a page at a time", parameters=[KEY_PARAM,
                                                                                                 page_parameter()],
                   responses={200: inline_serializer("PaginatedRevisionList", {
                       "count": serializers.IntegerField(),
                       "next": serializers.URLField(allow_null=True),
                       "previous": serializers.URLField(allow_null=True),
                       "results": RevisionSerializer(many=True),
                   }), 404: ERROR})
    def get(self, request, pk):
        # Paged: the editor saves a version per change, and each version holds its whole list.
        deck = visible_deck(request, pk)
        paginator = api_settings.DEFAULT_PAGINATION_CLASS()
        page = paginator.paginate_queryset(selectors.deck_revisions(deck), request, view=self)
        return paginator.get_paginated_response(RevisionSerializer(page, many=True).data)


class DeckDiffView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="What changed between two versions of a deck",
                   parameters=[KEY_PARAM,
                               bounded("from", 1, MAX_INTEGER, "A version number of the deck.", required=True),
                               bounded("to", 1, MAX_INTEGER, "A version number of the deck.", required=True)],
                   responses={200: OpenApiTypes.OBJECT, 400: ERROR, 404: ERROR})
    def get(self, request, pk):
        deck = visible_deck(request, pk)
        # Both are required and bounded in the schema, checked before the view (config/api_contract.py):
        # a number past the version column's range never reaches the query (SQLite's driver overflows).
        numbers = [int(request.query_params[name]) for name in ("from", "to")]
        revisions, missing = selectors.deck_revisions_numbered(deck, numbers)
        if missing:
            raise InvalidDeck(f"Deck {deck.pk} has no version {missing[0]}.", details={"missing": missing},
                              status_code=404, code=ErrorCode.REVISION_NOT_FOUND)
        return Response(services.revision_diff(revisions[numbers[0]], revisions[numbers[1]]))


class DeckCompareView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Two decks side by side: the cards only one holds, those both hold, and each deck's copies",
        parameters=[bounded("a", 0, MAX_BIG_INTEGER, "The first deck's id.", required=True),
                    bounded("b", 0, MAX_BIG_INTEGER, "The second deck's id.", required=True),
                    OpenApiParameter("a_key", str, description="The first deck's share key, if it is unlisted."),
                    OpenApiParameter("b_key", str, description="The second deck's share key, if it is unlisted.")],
        responses={200: OpenApiTypes.OBJECT, 400: ERROR, 404: ERROR})
    def get(self, request):
        decks = []
        for field in ("a", "b"):
            # Both are required and bounded in the schema, checked before the view (config/api_contract.py).
            pk, key = int(request.query_params[field]), request.query_params.get(f"{field}_key")
            try:
                decks.append(selectors.deck_for_viewer(deck_id=pk, user=request.user, key=key))
            except DeckNotFound:
                raise DeckNotFound(f"{field}: there is no deck {pk} that you may see.",
                                   details={"field": field}) from None
        first, second = decks
        compared = compare_decks(selectors.deck_entries(first), selectors.deck_entries(second))

        def rows(found) -> list[dict]:
            return [{"card": row.card.collector_number, "name": row.card.name, "type": row.card.type,
                     "first": row.first, "second": row.second} for row in found]

        return Response({
            "first": {"id": first.pk, "name": first.name, "cards": compared.first_total},
            "second": {"id": second.pk, "name": second.name, "cards": compared.second_total},
            "shared": compared.shared, "differing": compared.differing, "only_first": rows(compared.only_first),
            "only_second": rows(compared.only_second), "both": rows(compared.both)})


class DeckExportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(summary="Export a deck as text, deck code or JSON",
                   parameters=[KEY_PARAM, OpenApiParameter("as", str, enum=["text", "code", "json"])],
                   responses={(200, "text/plain"): OpenApiTypes.STR, (200, "application/json"): OpenApiTypes.OBJECT,
                              404: ERROR})
    def get(self, request, pk):
        deck = visible_deck(request, pk)
        kind = request.query_params.get("as", "json")
        if kind == "text":
            response = HttpResponse(selectors.deck_export_text(deck), content_type="text/plain; charset=utf-8")
        elif kind == "code":
            response = HttpResponse(selectors.deck_export_code(deck), content_type="text/plain; charset=utf-8")
        elif kind == "json":
            response = Response(selectors.deck_export_json(deck))
        else:
            raise InvalidDeck("'as' is one of text, code, json.", details={"field": "as"})
        response["Content-Disposition"] = f'attachment; filename="{selectors.deck_export_file_name(deck, kind)}"'
        return response


ODDS_BOUNDS = {"hand": (0, 20), "draws": (0, 10), "by_turn": (0, 15)}


def _bounded(name: str, description: str) -> OpenApiParameter:
    low, high = ODDS_BOUNDS[name]
    return bounded(name, low, high, f"{description} From {low} to {high}.")


class DeckOddsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Draw odds: the exact chance of at least one card of each category by each turn (hypergeometric)",
        parameters=[KEY_PARAM,
                    _bounded("hand", f"Cards in the opening hand (default {OPENING_HAND}, DG-4.4)."),
                    _bounded("draws", "Cards drawn each turn (default 1)."),
                    _bounded("by_turn", f"The last turn shown (default {DEFAULT_TURNS}); turn 0 is the opening "
                                        "hand."),
                    OpenApiParameter("category", str, description=(
                        "One category (type:unit, vit:3, craft:divine, card:<collector number>); every "
                        "category of the deck when left out."))],
        responses={200: OpenApiTypes.OBJECT, 400: ERROR, 404: ERROR},
    )
    def get(self, request, pk):
        deck = visible_deck(request, pk)
        # Each is bounded in the schema (ODDS_BOUNDS), checked before the view (config/api_contract.py).
        hand = whole_number(request.query_params, "hand", OPENING_HAND)
        draws = whole_number(request.query_params, "draws", 1)
        turns = whole_number(request.query_params, "by_turn", DEFAULT_TURNS)
        entries = selectors.deck_entries(deck)
        category = request.query_params.get("category") or None
        known = stats.categories(entries)
        if category is not None and category not in known:
            raise InvalidDeck(f"This deck has no odds category “{shortened(category, 60)}”.",
                              code=ErrorCode.INVALID_PARAMETER,
                              details={"parameter": "category", "allowed": list(known)})
        table = stats.odds_table(entries, hand_size=hand, draws_per_turn=draws, turns=turns, category=category)
        return Response({"deck": deck.pk, "version": deck.version,
                         "deck_size": sum(e.count for e in stats.main_entries(entries)),
                         "hand": hand, "draws": draws, "by_turn": turns, "categories": table})


class MyDecksExportView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="decks_export_mine", summary="Export all your decks at once (JSON)",
                   responses={200: OpenApiTypes.OBJECT, 403: ERROR})
    def get(self, request):
        require_login(request, "export your decks")
        decks = selectors.deck_list_for_owner(user=request.user).select_related("gateway")
        return Response({"decks": [dict(selectors.deck_export_json(d), id=d.pk, visibility=d.visibility)
                                   for d in decks]})


class DeckImportView(APIView):
    permission_classes = [AllowAny]
    throttle_scope = "imports"

    @extend_schema(
        summary="Create a deck from a text list, a deck code or a JSON deck; nothing is saved while any line is bad",
        request=ImportRequestSerializer,
        responses={201: DeckOutSerializer, 400: OpenApiResponse(description="Error envelope; details.problems "
                                                                "lists every bad line (code, message, line)."),
                   403: ERROR},
    )
    def post(self, request):
        require_login(request)
        body = ImportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data
        deck = services.deck_import(owner=request.user, text=d.get("list", ""), code=d.get("code", ""),
                                    data=d.get("deck"), name=d.get("name", ""), format=d.get("format", ""),
                                    visibility=d.get("visibility", Visibility.PRIVATE))
        return with_etag(Response(deck_payload(deck, request.user, written=True), status=status.HTTP_201_CREATED),
                         deck)


class ValidateView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []  # open to anyone, writes nothing: no session (so no CSRF) needed
    throttle_scope = "imports"

    @extend_schema(
        summary="Check a deck list against a format's rules without saving anything",
        request=ValidateRequestSerializer,
        responses={200: ValidationReportSerializer, 400: ERROR},
    )
    def post(self, request):
        body = ValidateRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        return Response(services.validate_list(body.validated_data["list"], body.validated_data["format"]))
