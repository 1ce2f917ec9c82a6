"""/accounts/: our log-in, sign-up, account page and deletion, then Django's log-out and password views."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("login/", views.ThrottledLoginView.as_view(), name="login"),
    path("signup/", views.signup, name="signup"),
    path("", views.account, name="account"),
    path("delete/", views.account_delete, name="account_delete"),
    path("", include("django.contrib.auth.urls")),
]
