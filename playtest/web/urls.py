from django.urls import path

from playtest.goldfish import views as goldfish_views
from playtest.web import views

app_name = "playtest"
urlpatterns = [
    path("", views.index, name="index"),
    path("runs/<uuid:run_id>/", views.run_detail, name="run_detail"),
    path("runs/<uuid:run_id>/progress/", views.run_progress, name="run_progress"),
    path("runs/<uuid:run_id>/cancel/", views.run_cancel, name="run_cancel"),
    path("runs/<uuid:run_id>/games/<int:game>/", views.replay, name="replay"),
    path("new/", goldfish_views.new_playtest, name="new"),
    path("compare/", views.compare, name="compare"),
    path("metagame/", views.metagame_new, name="metagame_new"),
    path("metagame/budget/", views.metagame_budget, name="metagame_budget"),
    path("tune/", views.tune_new, name="tune_new"),
    path("tune/budget/", views.tune_budget, name="tune_budget"),
    path("runs/<uuid:run_id>/swaps/<int:index>/apply/", views.swap_apply_view, name="swap_apply"),
    path("runs/<uuid:run_id>/plan/apply/", views.swap_apply_view, name="plan_apply"),
    path("tables/<uuid:table_id>/", goldfish_views.table, name="table"),
    path("tables/<uuid:table_id>/act/", goldfish_views.table_act, name="table_act"),
    path("tables/<uuid:table_id>/undo/", goldfish_views.table_undo, name="table_undo"),
    path("tables/<uuid:table_id>/ai-turn/", goldfish_views.table_ai_turn, name="table_ai_turn"),
    path("tables/<uuid:table_id>/dummy/", goldfish_views.table_dummy, name="table_dummy"),
    path("tables/<uuid:table_id>/concede/", goldfish_views.table_concede, name="table_concede"),
    path("tables/<uuid:table_id>/replay/", goldfish_views.table_replay, name="table_replay"),
]
