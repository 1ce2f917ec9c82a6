from django.urls import path

from . import views

app_name = "playtest"
urlpatterns = [
    path("", views.index, name="index"),
]
