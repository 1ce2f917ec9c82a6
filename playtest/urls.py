from django.urls import path

from . import views

app_name = "playtest"
urlpatterns = [
    path("", views.index, name="index"),
    path("runs/<uuid:run_id>/", views.run_detail, name="run_detail"),
    path("runs/<uuid:run_id>/progress/", views.run_progress, name="run_progress"),
    path("runs/<uuid:run_id>/cancel/", views.run_cancel, name="run_cancel"),
    path("runs/<uuid:run_id>/games/<int:game>/", views.replay, name="replay"),
]
