from django.urls import path

from . import api_views

urlpatterns = [
    path("cards/", api_views.CardListView.as_view(), name="api-cards"),
    # Before cards/<collector_number>/, which would take these words for collector numbers.
    path("cards/named/", api_views.CardNamedView.as_view(), name="api-card-named"),
    path("cards/autocomplete/", api_views.CardAutocompleteView.as_view(), name="api-card-autocomplete"),
    path("cards/random/", api_views.CardRandomView.as_view(), name="api-card-random"),
    path("cards/collection/", api_views.CardCollectionView.as_view(), name="api-card-collection"),
    path("cards/<str:collector_number>/", api_views.CardDetailView.as_view(), name="api-card"),
    path("crafts/", api_views.CraftListView.as_view(), name="api-crafts"),
    path("types/", api_views.CardTypeListView.as_view(), name="api-types"),
    path("keywords/", api_views.KeywordListView.as_view(), name="api-keywords"),
    path("catalog/export/", api_views.CatalogExportView.as_view(), name="api-catalog-export"),
]
