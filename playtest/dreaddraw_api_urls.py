from django.urls import path

from . import dreaddraw_api

urlpatterns = [
    path("cards/", dreaddraw_api.DreadDrawCardListView.as_view(), name="api-dreaddraw-cards"),
    path("cards/<int:number>/", dreaddraw_api.DreadDrawCardDetailView.as_view(), name="api-dreaddraw-card"),
]
