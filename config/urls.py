from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import rules_views, views

urlpatterns = [
    # The API first: most requests are its, and each pattern before it is one more failed match for each of them.
    path("api/", include("config.api_urls")),
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("rules/", rules_views.rules, name="rules"),
    path("accounts/", include("config.accounts.urls")),
    path("admin/login/", views.admin_login, name="admin_login"),  # before the admin's own
    path("admin/", admin.site.urls),
    path("cards/", include("cards.urls")),
    path("decks/", include("decks.urls")),
    path("playtest/", include("playtest.web.urls")),
    path("dread-draw/", include("dreaddraw.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file: no inline script, as the CSP demands.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    re_path(r"^api/(?P<rest>.*)$", views.api_not_found),  # last: what no route of the API takes
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
