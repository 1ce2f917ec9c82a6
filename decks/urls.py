from django.urls import path

from . import editor_views, views

app_name = "decks"
urlpatterns = [
    path("", views.index, name="index"),
    path("public/", views.public, name="public"),
    path("new/", views.new, name="new"),
    path("import/", views.import_list, name="import"),
    path("export/", views.export_all, name="export_all"),
    path("compare/", views.compare, name="compare"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/stats/", views.stats_panel, name="stats"),
    path("<int:pk>/print/", views.printable, name="print"),
    path("<int:pk>/export.txt", views.export, {"kind": "txt"}, name="export_txt"),
    path("<int:pk>/export.json", views.export, {"kind": "json"}, name="export_json"),
    path("<int:pk>/history/", views.history, name="history"),
    path("<int:pk>/copy/", views.copy, name="copy"),
    path("<int:pk>/delete/", views.delete, name="delete"),
    path("<int:pk>/revert/<int:number>/", views.revert, name="revert"),
    path("<int:pk>/unpublish/", views.unpublish, name="unpublish"),
    path("<int:pk>/edit/", editor_views.edit, name="edit"),
    path("<int:pk>/edit/search/", editor_views.edit_search, name="edit_search"),
    path("<int:pk>/edit/change/", editor_views.edit_change, name="edit_change"),
    path("<int:pk>/edit/quick/", editor_views.edit_quick, name="edit_quick"),
    path("<int:pk>/edit/text/", editor_views.edit_text, name="edit_text"),
    path("<int:pk>/edit/whole/", editor_views.edit_whole, name="edit_whole"),
    path("<int:pk>/edit/tag/", editor_views.edit_tag, name="edit_tag"),
    path("<int:pk>/edit/consider/", editor_views.edit_consider, name="edit_consider"),
    path("<int:pk>/edit/move/", editor_views.edit_move, name="edit_move"),
]
