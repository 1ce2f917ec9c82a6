from django.urls import path

from . import views

app_name = "dreaddraw"
urlpatterns = [
    path("", views.dreaddraw_index, name="index"),
]
