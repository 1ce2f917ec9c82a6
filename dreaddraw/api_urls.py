from django.urls import path

from . import api as dreaddraw_api

urlpatterns = [
    path("cards/", dreaddraw_api.DreadDrawCardListView.as_view(), name="api-dreaddraw-cards"),
    path("cards/<int:number>/", dreaddraw_api.DreadDrawCardDetailView.as_view(), name="api-dreaddraw-card"),
    path("tables/", dreaddraw_api.TableListView.as_view(), name="api-dreaddraw-tables"),
    path("tables/<uuid:table_id>/", dreaddraw_api.TableDetailView.as_view(), name="api-dreaddraw-table"),
    path("tables/<uuid:table_id>/decisions/", dreaddraw_api.TableDecisionView.as_view(),
         name="api-dreaddraw-table-decisions"),
    path("tables/<uuid:table_id>/join/", dreaddraw_api.TableJoinView.as_view(), name="api-dreaddraw-table-join"),
    path("tables/<uuid:table_id>/again/", dreaddraw_api.TableAgainView.as_view(), name="api-dreaddraw-table-again"),
]
