from django.urls import path

from . import api

urlpatterns = [
    path("decks/", api.DeckListView.as_view(), name="api-deck-list"),
    path("decks/validate/", api.ValidateView.as_view(), name="api-deck-validate"),
    path("decks/import/", api.DeckImportView.as_view(), name="api-deck-import"),
    path("decks/export/", api.MyDecksExportView.as_view(), name="api-deck-export-all"),
    path("decks/compare/", api.DeckCompareView.as_view(), name="api-deck-compare"),
    path("decks/<int:pk>/", api.DeckDetailView.as_view(), name="api-deck-detail"),
    path("decks/<int:pk>/copy/", api.DeckCopyView.as_view(), name="api-deck-copy"),
    path("decks/<int:pk>/revert/", api.DeckRevertView.as_view(), name="api-deck-revert"),
    path("decks/<int:pk>/unpublish/", api.DeckUnpublishView.as_view(), name="api-deck-unpublish"),
    path("decks/<int:pk>/revisions/", api.DeckRevisionsView.as_view(), name="api-deck-revisions"),
    path("decks/<int:pk>/diff/", api.DeckDiffView.as_view(), name="api-deck-diff"),
    path("decks/<int:pk>/export/", api.DeckExportView.as_view(), name="api-deck-export"),
    path("decks/<int:pk>/odds/", api.DeckOddsView.as_view(), name="api-deck-odds"),
]
