from django.urls import path

from . import api_views

urlpatterns = [
    path("cards/", api_views.CardListView.as_view(), name="api-cards"),
    path("cards/<str:collector_number>/", api_views.CardDetailView.as_view(), name="api-card"),
    path("crafts/", api_views.CraftListView.as_view(), name="api-crafts"),
    path("types/", api_views.CardTypeListView.as_view(), name="api-types"),
    path("keywords/", api_views.KeywordListView.as_view(), name="api-keywords"),
    path("catalog/export/", api_views.CatalogExportView.as_view(), name="api-catalog-export"),
]
