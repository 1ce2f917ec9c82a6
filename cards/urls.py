from django.urls import path

from . import views

app_name = "cards"
urlpatterns = [
    path("", views.index, name="index"),
    path("<str:collector_number>.svg", views.card_svg, name="svg"),
]
