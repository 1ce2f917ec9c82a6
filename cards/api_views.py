from __future__ import annotations

from django.http import HttpResponseNotModified
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import generics, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from . import selectors
from .filters import CardSearchFilter
from .models import Card, Keyword
from .serializers import (
    CardDetailSerializer,
    CardSerializer,
    CardTypeSerializer,
    CraftSerializer,
    KeywordSerializer,
    WarningSerializer,
)


class CardPagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200


class CardSearchBackend(DjangoFilterBackend):
    """django-filter's backend, keeping the search warnings for the response."""

    def filter_queryset(self, request, queryset, view):
        filterset = self.get_filterset(request, queryset, view)
        queryset = super().filter_queryset(request, queryset, view) if filterset is None else filterset.qs
        view.search_warnings = getattr(filterset, "warnings", [])
        return queryset


class CardListView(generics.ListAPIView):
    """Cards matching a query in the search language, paginated, with any warnings."""

    serializer_class = CardSerializer
    pagination_class = CardPagination
    filter_backends = [CardSearchBackend]
    filterset_class = CardSearchFilter
    queryset = Card.objects.prefetch_related("keywords")

    @extend_schema(responses=inline_serializer("CardSearchPage", {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "warnings": WarningSerializer(many=True),
        "results": CardSerializer(many=True),
    }))
    def get(self, request, *args, **kwargs):
        response = self.list(request, *args, **kwargs)
        response.data["warnings"] = [w.as_dict() for w in getattr(self, "search_warnings", [])]
        return response


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
        "cards": CardDetailSerializer(many=True),
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
