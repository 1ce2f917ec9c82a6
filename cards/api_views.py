from __future__ import annotations

import json

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from core.errors import DomainError, ErrorCode
from core.intbounds import shortened

from . import selectors
from .api_params import page_parameters, whole_number
from .filters import CardSearchFilter, api_search, api_search_answer
from .models import Card
from .renderers import CardCSVRenderer, CardTextRenderer, ExplicitFormat, content_disposition, file_name_part
from .search.parser import MAX_QUERY_LENGTH
from .serializers import (
    CardDetailSerializer,
    CardSerializer,
    CardTypeSerializer,
    CatalogExportCardSerializer,
    CraftSerializer,
    KeywordSerializer,
)

WARNING_SCHEMA = {  # a search warning (SearchWarning.as_dict), inline in the paginated response schema
    "type": "object", "required": ["message"],
    "properties": {"message": {"type": "string"}, "position": {"type": "integer"}, "column": {"type": "integer"},
                   "suggestions": {"type": "array", "items": {"type": "string"},
                                   "description": "Terms that may have been meant, best first."}},
}


class CardPagination(PageNumberPagination):
    """Page numbers; the count and the page come from one search (selectors.card_search_answer: the
    in-process index, or one query, selectors.card_search_rows).

    (Counting with COUNT(*) OVER () would make PostgreSQL sort every matching row instead of
    keeping the top of the page; a scalar subquery is counted once, apart from the sort.)
    A page or page size out of its bounds is a 400 naming them (cards.api_params), so the
    next and previous links carry the page size asked for, never one read another way.
    """

    page_size_query_param = "page_size"
    max_page_size = 200

    def get_schema_operation_parameters(self, view):
        """The bounds, declared (and so checked before the view: config/api_contract.py)."""
        return page_parameters(self)

    def get_page_size(self, request):
        return whole_number(request.query_params, self.page_size_query_param, self.page_size)

    def page_bounds(self, request) -> tuple[int, int]:
        """(offset, limit) of the page asked for."""
        self.request = request
        self.page_size_now = self.get_page_size(request)
        # The bounds are the schema's, checked before the view (config/api_contract.py).
        self.number = whole_number(request.query_params, self.page_query_param, 1)
        return (self.number - 1) * self.page_size_now, self.page_size_now

    def set_count(self, count: int | None) -> None:
        if count is None:
            raise NotFound(f"There is no page {self.number}: the results end at this page's start.")
        self.count = count

    def get_next_link(self):
        if self.number * self.page_size_now >= self.count:
            return None
        return replace_query_param(self.request.build_absolute_uri(), self.page_query_param, self.number + 1)

    def get_previous_link(self):
        if self.number <= 1:
            return None
        url = self.request.build_absolute_uri()
        if self.number == 2:
            return remove_query_param(url, self.page_query_param)
        return replace_query_param(url, self.page_query_param, self.number - 1)

    def get_paginated_response(self, data):
        return Response({"count": self.count, "next": self.get_next_link(), "previous": self.get_previous_link(),
                         "results": data})

    def get_paginated_response_schema(self, schema):
        paginated = super().get_paginated_response_schema(schema)
        paginated["required"] = [*paginated.get("required", []), "warnings"]
        paginated["properties"]["warnings"] = {"type": "array", "items": WARNING_SCHEMA}
        return paginated


class CardSearchBackend(DjangoFilterBackend):
    """The search parameters of CardSearchFilter, keeping the warnings for the response.

    The filter set documents the parameters in the schema; requests skip its form, which only
    passes the three strings on (a measurable share of a search's time).
    """

    def filter_queryset(self, request, queryset, view):
        params = request.query_params
        result = api_search(queryset, params.get("q"), params.get("order"), params.get("direction"))
        view.search_warnings = result.warnings
        return result.queryset


RESULT_FORMATS = ("json", "csv", "text")


class CardListView(generics.ListAPIView):
    """Cards matching a query in the search language, paginated, with any warnings; as JSON, CSV or text."""

    serializer_class = CardSerializer
    pagination_class = CardPagination
    throttle_scope = "search"
    filter_backends = [CardSearchBackend]
    filterset_class = CardSearchFilter
    queryset = Card.objects.all()
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CardCSVRenderer, CardTextRenderer]
    content_negotiation_class = ExplicitFormat

    def perform_content_negotiation(self, request, force=False):
        try:
            return super().perform_content_negotiation(request, force)
        except Http404:  # DRF's answer to an unknown ?format=
            asked = shortened(request.query_params.get("format", ""))
            raise DomainError(f"format must be one of {', '.join(RESULT_FORMATS)}, not “{asked}”.",
                              code=ErrorCode.INVALID_PARAMETER,
                              details={"parameter": "format", "allowed": list(RESULT_FORMATS)}) from None

    def finalize_response(self, request, response, *args, **kwargs):
        if response.status_code >= 400 and getattr(request, "accepted_renderer", None) is not None \
                and request.accepted_renderer.format in ("csv", "text"):
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
        return super().finalize_response(request, response, *args, **kwargs)

    @extend_schema(responses=CardSerializer(many=True), parameters=[
        OpenApiParameter(
            "q", {"type": "string", "maxLength": MAX_QUERY_LENGTH},
            description=f"A query in the search language (see /cards/help/), up to {MAX_QUERY_LENGTH} characters "
                        "(characters, not bytes: a query at the limit is answered however long its percent-encoded "
                        "URL); a longer one is a 400 `invalid_parameter` naming the limit."),
        OpenApiParameter(
            "format", str, enum=list(RESULT_FORMATS),
            description="json (the default), csv (one row a card) or text (one block a card); it decides whatever "
                        "the Accept header asks. Without it, an Accept header of text/csv or text/plain does the same. "
                        "CSV and text carry the page links in a Link header and the count in X-Total-Count.")])
    def get(self, request, *args, **kwargs):
        # An answer depends only on the parameters and the catalog, which changes only when loaded.
        # JSON answers are kept rendered, so a repeated search costs a cache read and no encoding.
        seconds = settings.SEARCH_CACHE_SECONDS if request.accepted_renderer.format == "json" else 0
        if seconds:
            origin = f"{request.scheme}://{request.get_host()}"  # the answer's links are absolute
            key = selectors.search_cache_key(origin=origin, params=list(request.query_params.items()))
            body = selectors.answer_get(key)
            if body is not None:
                return HttpResponse(body, content_type="application/json")
        params = request.query_params
        offset, limit = self.paginator.page_bounds(request)
        answer = api_search_answer(params.get("q"), params.get("order"), params.get("direction"),
                                   offset=offset, limit=limit)
        self.paginator.set_count(answer.count)
        warnings = [w.as_dict() for w in answer.warnings]
        kind = request.accepted_renderer.format
        if answer.results_json is not None and kind == "json" and "indent" not in request.accepted_media_type:
            body = self._spliced(answer.results_json, warnings)
        else:
            data = self.get_paginated_response(answer.rows()).data
            data["warnings"] = warnings
            if kind in ("csv", "text"):
                return self._file(Response(data), data, kind)
            if not seconds:
                return Response(data)
            body = JSONRenderer().render(data)  # encoded once, for the cache and this answer alike
        if seconds:
            selectors.answer_set(key, body, seconds)
        return HttpResponse(body, content_type="application/json")

    def _spliced(self, results_json: list[bytes], warnings: list[dict]) -> bytes:
        """The JSON answer around results already encoded by the index: the bytes JSONRenderer gives
        for the whole answer (compact separators), without encoding the cards again."""
        render = JSONRenderer().render
        head = render({"count": self.paginator.count, "next": self.paginator.get_next_link(),
                       "previous": self.paginator.get_previous_link()})
        return b"".join((head[:-1], b',"results":[', b",".join(results_json), b'],"warnings":', render(warnings),
                         b"}"))


    def _file(self, response: Response, data: dict, kind: str) -> Response:
        query = file_name_part(self.request.query_params.get("q", "")) or "all"
        page = self.paginator.number
        response["Content-Disposition"] = content_disposition(
            f"dreadgate-cards-{query}{f'-page{page}' if page > 1 else ''}.{'csv' if kind == 'csv' else 'txt'}")
        links = [f'<{data[rel]}>; rel="{rel}"' for rel in ("next", "previous") if data.get(rel)]
        if links:
            response["Link"] = ", ".join(links)
        response["X-Total-Count"] = str(data["count"])
        if data["warnings"]:  # JSON with ASCII escapes: a header holds no other characters
            response["X-Search-Warnings"] = json.dumps([w["message"] for w in data["warnings"]])
        return response


class CardDetailView(generics.RetrieveAPIView):
    """One card by collector number, in any case (u-10011 is U-10011)."""

    serializer_class = CardDetailSerializer
    queryset = Card.objects.prefetch_related("keywords")
    lookup_field = "collector_number"
    throttle_scope = "search"  # a look-up, counted with the searches (docs/search.md)

    def get_object(self):
        card = self.get_queryset().filter(collector_number__iexact=self.kwargs["collector_number"]).first()
        if card is None:
            raise NotFound(f"No card has collector number {self.kwargs['collector_number']!r}.")
        return card


ERROR = OpenApiResponse(description='The error envelope: {"error": {"code", "message", "details"}}.')
NAME_LENGTH = 100  # longer than any card name


def _one_parameter(request, names: tuple[str, ...]) -> tuple[str, str]:
    given = [(n, request.query_params[n]) for n in names if request.query_params.get(n, "").strip()]
    if len(given) != 1:
        listed = " or ".join(names)
        # Not a bound of one parameter but a rule between two, which an OpenAPI 3.0 schema cannot state:
        # its own code, apart from the contract's invalid_parameter.
        raise DomainError(f"Give exactly one of {listed}.", code=ErrorCode.EXACTLY_ONE_PARAMETER,
                          details={"parameter": names[0] if not given else given[1][0], "allowed": list(names)})
    return given[0]


NAME_AND_NUMBER = {"name": serializers.CharField(), "collector_number": serializers.CharField()}


def _names(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"name": name, "collector_number": number} for name, number in pairs]


class CardNamedView(APIView):
    """A card by its exact name, or the one card a name written in part or misspelt means (Scryfall's fuzzy)."""

    throttle_scope = "search"

    @extend_schema(
        summary="A card by name: exact, or fuzzy (the one card meant and the alternatives; 404 ambiguous when "
                "several names hold every word)",
        parameters=[
            OpenApiParameter("exact", {"type": "string", "minLength": 1, "maxLength": NAME_LENGTH},
                             description="The whole name, in any case."),
            OpenApiParameter("fuzzy", {"type": "string", "minLength": 1, "maxLength": NAME_LENGTH},
                             description="Part of the name or a misspelling: the name that holds every word, or "
                                         "the closest names. Several names holding every word are a 404 "
                                         f"`ambiguous` listing up to {selectors.AMBIGUOUS_LISTED} of them "
                                         "(details.alternatives) and their number (details.matching); no such "
                                         "name, a 404 `card_not_found` with the closest (details.suggestions)."),
        ],
        responses={200: inline_serializer("CardNamed", {
            "card": CardDetailSerializer(),
            "alternatives": inline_serializer("CardNamedAlternative", NAME_AND_NUMBER, many=True),
        }), 400: ERROR, 404: ERROR},
    )
    def get(self, request):
        kind, text = _one_parameter(request, ("exact", "fuzzy"))
        if kind == "exact":
            match = selectors.FuzzyMatch(selectors.card_named_exact(name=text), [])
        else:
            match = selectors.card_named_fuzzy(text=text)
        if match.ambiguous:
            raise DomainError(f"{match.matching} cards have every word of {text!r} in their names; give more of "
                              "the name.", code=ErrorCode.AMBIGUOUS, status_code=404,
                              details={"parameter": kind, "matching": match.matching,
                                       "alternatives": _names(match.alternatives)})
        if match.card is None:
            raise DomainError(f"No card is named {text!r}.", code=ErrorCode.CARD_NOT_FOUND, status_code=404,
                              details={"parameter": kind, "suggestions": _names(selectors.close_names(text=text))})
        return Response({"card": CardDetailSerializer(match.card).data, "alternatives": _names(match.alternatives)})


class CardAutocompleteView(APIView):
    throttle_scope = "search"

    @extend_schema(
        summary=f"Card names for a name being typed (at most {selectors.AUTOCOMPLETE_LIMIT})",
        parameters=[OpenApiParameter("q", {"type": "string", "maxLength": NAME_LENGTH}, description=(
            f"The start or a part of a name; fewer than {selectors.AUTOCOMPLETE_MIN_LENGTH} characters give "
            "nothing. Names that start with it come first."))],
        responses={200: inline_serializer("CardAutocomplete", {
            "count": serializers.IntegerField(), "results": serializers.ListField(child=serializers.CharField())})},
    )
    def get(self, request):
        names = selectors.card_autocomplete(text=request.query_params.get("q", ""))
        return Response({"count": len(names), "results": names})


class CardRandomView(APIView):
    throttle_scope = "search"

    @extend_schema(
        summary="A random card, of those matching a query",
        parameters=[OpenApiParameter(
            "q", {"type": "string", "maxLength": MAX_QUERY_LENGTH},
            description=f"A query in the search language (see /cards/help/), up to {MAX_QUERY_LENGTH} characters "
                        "(a longer one is a 400 naming the limit); empty: any card.")],
        responses={200: CardDetailSerializer, 400: ERROR, 404: ERROR},
    )
    def get(self, request):
        result = api_search(Card.objects.all(), request.query_params.get("q"), None, None)
        card = selectors.card_random(queryset=result.queryset)
        if card is None:
            raise DomainError("No card matches the query.", code=ErrorCode.NO_MATCH, status_code=404,
                              details={"query": request.query_params.get("q", "")})
        response = Response(CardDetailSerializer(card).data)
        response["Cache-Control"] = "no-store"
        return response


IDENTIFIER_RULE = 'An identifier is {"collector_number": ...} or {"name": ...}.'
_TEXT = {"type": "string", "minLength": 1, "pattern": r"\S"}  # not blank once trimmed, as the serializer reads it
IDENTIFIER_FORMS = [  # one key, either one
    {"type": "object", "properties": {"collector_number": {**_TEXT, "maxLength": 16}},
     "required": ["collector_number"], "additionalProperties": False},
    {"type": "object", "properties": {"name": {**_TEXT, "maxLength": NAME_LENGTH}},
     "required": ["name"], "additionalProperties": False},
]


class CardIdentifierSerializer(serializers.Serializer):
    collector_number = serializers.CharField(required=False, max_length=16)
    name = serializers.CharField(required=False, max_length=NAME_LENGTH)

    def validate(self, attrs):
        if len(attrs) != 1:
            raise serializers.ValidationError(IDENTIFIER_RULE)
        return attrs


@extend_schema_field({
    "type": "array", "minItems": 1, "maxItems": selectors.COLLECTION_LIMIT,
    "description": f"From 1 to {selectors.COLLECTION_LIMIT} identifiers.",
    "items": {"description": IDENTIFIER_RULE, "oneOf": IDENTIFIER_FORMS},
})
class IdentifierListField(serializers.ListField):
    """The identifiers as the schema states them (oneOf), so the contract refuses any other shape before the view."""


class CardCollectionRequestSerializer(serializers.Serializer):
    identifiers = IdentifierListField(child=CardIdentifierSerializer(), min_length=1,
                                      max_length=selectors.COLLECTION_LIMIT)


class CardCollectionView(APIView):
    """Many cards at once, by collector number or name. Open to anyone (it writes nothing); a signed-in
    browser sends its CSRF token, as for every unsafe request."""

    permission_classes = [AllowAny]
    throttle_scope = "search"

    @extend_schema(
        summary=f"Up to {selectors.COLLECTION_LIMIT} cards at once, by collector number or name (any case)",
        request=CardCollectionRequestSerializer,
        responses={200: inline_serializer("CardCollection", {
            "data": CardSerializer(many=True),
            "not_found": inline_serializer("CardCollectionMiss", {
                "collector_number": serializers.CharField(required=False),
                "name": serializers.CharField(required=False),
                "suggestions": inline_serializer("CardCollectionSuggestion", NAME_AND_NUMBER, many=True,
                                                 required=False,
                                                 help_text="For a name: the closest names, best first."),
            }, many=True)}), 400: ERROR},
    )
    def post(self, request):
        body = CardCollectionRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        cards, missing = selectors.card_collection(identifiers=body.validated_data["identifiers"])
        return Response({"data": CardSerializer(cards, many=True).data, "not_found": missing})


class CraftListView(APIView):
    @extend_schema(responses=CraftSerializer(many=True))
    def get(self, request):
        return Response(CraftSerializer(selectors.craft_list(), many=True).data)


class CardTypeListView(APIView):
    @extend_schema(responses=CardTypeSerializer(many=True))
    def get(self, request):
        return Response(CardTypeSerializer(selectors.card_type_list(), many=True).data)


class KeywordListView(APIView):
    @extend_schema(responses=KeywordSerializer(many=True))
    def get(self, request):
        return Response(selectors.keyword_list())


class CatalogExportView(APIView):
    """The whole catalog as one JSON document, versioned: `catalog_version` names what it holds."""

    @extend_schema(responses=inline_serializer("CatalogExport", {
        "format": serializers.IntegerField(),
        "catalog_version": serializers.CharField(),
        "card_count": serializers.IntegerField(),
        "cards": CatalogExportCardSerializer(many=True),
        "keywords": KeywordSerializer(many=True),
    }))
    def get(self, request):
        version = selectors.catalog_version()
        etag = f'"catalog-{version}-f{selectors.EXPORT_FORMAT}"'
        if etag in request.headers.get("If-None-Match", ""):
            response = HttpResponseNotModified()
        else:
            response = Response(selectors.catalog_export(version=version))
            response["Content-Disposition"] = f'inline; filename="dreadgate-catalog-{version}.json"'
        response["ETag"] = etag
        response["Cache-Control"] = "public, max-age=3600"
        return response
