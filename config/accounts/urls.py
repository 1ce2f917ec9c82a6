"""/accounts/: our log-in, sign-up, account page and deletion, then Django's log-out and password views."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("login/", views.ThrottledLoginView.as_view(), name="login"),
    path("login/browser/", views.browser_link_request, name="browser_link"),
    path("login/browser/<str:token>/", views.browser_link_open, name="browser_link_open"),
    path("signup/", views.signup, name="signup"),
    path("", views.account, name="account"),
    path("delete/", views.account_delete, name="account_delete"),
    path("tokens/", views.token_create, name="token_create"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("password_change/", views.PasswordChangeView.as_view(), name="password_change"),
    path("password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("", include("django.contrib.auth.urls")),
]
