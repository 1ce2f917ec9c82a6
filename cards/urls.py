from django.urls import path

from . import views

app_name = "cards"
urlpatterns = [
    path("", views.index, name="index"),
    path("help/", views.search_help, name="help"),
    path("<str:collector_number>.svg", views.card_svg, name="svg"),
    path("<str:collector_number>/", views.detail, name="detail"),
    path("<str:collector_number>/preview/", views.preview, name="preview"),
]
