from django.urls import path

from . import views

app_name = "dreaddraw"
urlpatterns = [
    path("", views.index, name="index"),
    path("cards/", views.card_list, name="cards"),
    path("cards/<int:number>/", views.card_detail, name="card"),
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/<uuid:table_id>/", views.table_detail, name="table"),
    path("tables/<uuid:table_id>/board/", views.table_board_view, name="table_board"),
    path("tables/<uuid:table_id>/act/", views.table_act_view, name="table_act"),
    path("tables/<uuid:table_id>/join/", views.table_join_view, name="table_join"),
    path("tables/<uuid:table_id>/again/", views.table_again_view, name="table_again"),
    path("tables/<uuid:table_id>/reveal/", views.table_reveal, name="table_reveal"),
    path("tournaments/new/", views.tournament_new, name="tournament_new"),
]
