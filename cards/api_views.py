from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from . import selectors
from .filters import CardSearchFilter, api_search
from .models import Card, Keyword
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
    "properties": {"message": {"type": "string"}, "position": {"type": "integer"}, "column": {"type": "integer"}},
}


class CardPagination(PageNumberPagination):
    """Page numbers; the count and the page come from one query (selectors.card_search_rows).

    (Counting with COUNT(*) OVER () would make PostgreSQL sort every matching row instead of
    keeping the top of the page; a scalar subquery is counted once, apart from the sort.)
    """

    page_size_query_param = "page_size"
    max_page_size = 200
    max_page = 1_000_000

    def get_schema_operation_parameters(self, view):
        """The bounds the server enforces, declared (and checked before the view: config/api_contract.py)."""
        return [
            {"name": self.page_query_param, "required": False, "in": "query",
             "description": f"A page number, from 1 to {self.max_page}; past the last page is a 404.",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page}},
            {"name": self.page_size_query_param, "required": False, "in": "query",
             "description": f"Results per page, from 1 to {self.max_page_size}.",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page_size}},
        ]

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        self.page_size_now = self.get_page_size(request)
        # The bounds are the schema's, checked before the view (config/api_contract.py).
        self.number = int(request.query_params.get(self.page_query_param, "1"))
        offset = (self.number - 1) * self.page_size_now
        count, rows = selectors.card_search_rows(queryset, offset=offset, limit=self.page_size_now)
        if count is None:
            raise NotFound(f"There is no page {self.number}: the results end at this page's start.")
        self.count = count
        return rows

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


class CardListView(generics.ListAPIView):
    """Cards matching a query in the search language, paginated, with any warnings."""

    serializer_class = CardSerializer
    pagination_class = CardPagination
    throttle_scope = "search"
    filter_backends = [CardSearchBackend]
    filterset_class = CardSearchFilter
    queryset = Card.objects.all()

    @extend_schema(responses=CardSerializer(many=True), parameters=[OpenApiParameter(
        "q", {"type": "string", "maxLength": MAX_QUERY_LENGTH},
        description=f"A query in the search language (see /cards/help/), up to {MAX_QUERY_LENGTH} characters.")])
    def get(self, request, *args, **kwargs):
        # An answer depends only on the parameters and the catalog, which changes only when loaded.
        # JSON answers are kept rendered, so a repeated search costs a cache read and no encoding.
        seconds = settings.SEARCH_CACHE_SECONDS if request.accepted_renderer.format == "json" else 0
        if seconds:
            origin = f"{request.scheme}://{request.get_host()}"  # the answer's links are absolute
            key = selectors.search_cache_key(origin=origin, params=list(request.query_params.items()))
            body = cache.get(key)
            if body is not None:
                return HttpResponse(body, content_type="application/json")
        queryset = self.filter_queryset(self.get_queryset())
        rows = self.paginate_queryset(queryset)
        data = self.get_paginated_response(selectors.card_summaries(rows)).data
        data["warnings"] = [w.as_dict() for w in getattr(self, "search_warnings", [])]
        if not seconds:
            return Response(data)
        body = JSONRenderer().render(data)  # encoded once, for the cache and this answer alike
        cache.set(key, body, seconds)
        return HttpResponse(body, content_type="application/json")


class CardDetailView(generics.RetrieveAPIView):
    serializer_class = CardDetailSerializer
    queryset = Card.objects.prefetch_related("keywords")
    lookup_field = "collector_number"


class CraftListView(APIView):
    @extend_schema(responses=CraftSerializer(many=True))
    def get(self, request):
        return Response(CraftSerializer(selectors.craft_list(), many=True).data)


class CardTypeListView(APIView):
    @extend_schema(responses=CardTypeSerializer(many=True))
    def get(self, request):
        return Response(CardTypeSerializer(selectors.card_type_list(), many=True).data)


class KeywordListView(generics.ListAPIView):
    serializer_class = KeywordSerializer
    queryset = Keyword.objects.all()
    pagination_class = None


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
