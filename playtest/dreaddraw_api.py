"""API for the Dread Draw card set (/api/dreaddraw/...), apart from the Dreadgate /api/cards/."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny

from .dreaddraw_selectors import KEYWORD_VALUES, dreaddraw_card_filters, dreaddraw_card_get, dreaddraw_card_list
from .dreaddraw_serializers import DreadDrawCardSerializer


@extend_schema(parameters=[
    OpenApiParameter("q", OpenApiTypes.STR, description="Words in the name, rules text or fortune meanings."),
    OpenApiParameter("strength", OpenApiTypes.INT), OpenApiParameter("damage", OpenApiTypes.INT),
    OpenApiParameter("keyword", OpenApiTypes.STR, enum=KEYWORD_VALUES),
])
class DreadDrawCardListView(generics.ListAPIView):
    """The 100 cards of the Dread Draw set, filtered."""

    serializer_class = DreadDrawCardSerializer
    permission_classes = [AllowAny]
    filter_backends: list = []

    def get_queryset(self):
        return dreaddraw_card_list(**dreaddraw_card_filters(self.request.query_params))


class DreadDrawCardDetailView(generics.RetrieveAPIView):
    serializer_class = DreadDrawCardSerializer
    permission_classes = [AllowAny]

    def get_object(self):
        card = dreaddraw_card_get(number=self.kwargs["number"])
        if card is None:
            raise NotFound(f"There is no Dread Draw card number {self.kwargs['number']}.")
        return card
