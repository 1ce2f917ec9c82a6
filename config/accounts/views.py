from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from . import browser_links, services, throttle
from .forms import AccessTokenForm, BrowserLinkForm, DeleteAccountForm, SignupForm


def _remember_browser(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Make this browser one of the account's known browsers: the device cookie of the log-in limits."""
    device = throttle.device_of(request, username) or secrets.token_urlsafe(16)
    response.set_cookie(throttle.DEVICE_COOKIE, throttle.device_cookie_value(username, device),
                        max_age=throttle.DEVICE_COOKIE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=settings.SESSION_COOKIE_SECURE)


class RefusedFormIs400:
    """Django's password views answer a refused form 200; ours say it as the site's other forms do: 400."""

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)


class PasswordChangeView(RefusedFormIs400, auth_views.PasswordChangeView):
    pass


class PasswordResetConfirmView(RefusedFormIs400, auth_views.PasswordResetConfirmView):
    pass


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's, sending an account at most one reset mail every LOGIN_LINK_INTERVAL_SECONDS, as browser links are
    (config/accounts/browser_links.py): asking again and again cannot flood a mailbox. The page answers alike
    whether or not a mail went, as Django's does whether or not the address is known."""

    def get_users(self, email):
        for user in super().get_users(email):
            if throttle.cache.add(f"password-reset-sent:{user.pk}", 1, timeout=settings.LOGIN_LINK_INTERVAL_SECONDS):
                yield user


class PasswordResetView(auth_views.PasswordResetView):
    form_class = PasswordResetForm


class LogoutView(auth_views.LogoutView):
    """Django's log-out takes a POST only (a link followed must not end a session); the address opened (a bookmark,
    a typed URL) asks, with the button that logs out, rather than showing a bare 405."""

    http_method_names = ["get", "post", "options"]

    def get(self, request, *args, **kwargs):
        return render(request, "registration/logout_confirm.html")


class ThrottledLoginView(LoginView):
    """Django's log-in (which renews the session key), answering 429 with Retry-After while the
    failed log-in limits refuse a check; a log-in leaves the account's device cookie."""

    def get_initial(self):
        # The username a browser link was just used for (browser_link_open) comes back filled in.
        return {**super().get_initial(), "username": self.request.GET.get("username", "")}

    def form_valid(self, form):
        response = super().form_valid(form)
        _remember_browser(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form):
        refusal = getattr(self.request, "login_refusal", None)
        if refusal is not None:
            # No password was checked: the form is shown again with the reason, unvalidated.
            username = form.data.get("username", "")
            form = self.get_form_class()(self.request, initial={"username": username})
            response = self.render_to_response(self.get_context_data(
                form=form, lock_error=refusal.message, browser_link_for=username if refusal.new_browser else None),
                status=429)
            response["Retry-After"] = str(refusal.retry_after)
            return response
        return self.render_to_response(self.get_context_data(form=form), status=400)


def _safe_next(request: HttpRequest) -> str:
    """The page to come back to after signing up (`next`, as the log-in page takes it): a path or URL of this
    site only; anything else (another site, another scheme) is dropped."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return ""


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="config.accounts.backends.ThrottledModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}. A first step: copy a starter deck from the public "
                                  "decks, or build one of your own from My decks.")
        response = redirect(next_url or "home")
        _remember_browser(request, response, user.get_username())  # the browser that made it, as a log-in would
        return response
    return render(request, "registration/signup.html", {"form": form, "next": next_url},
                  status=400 if form.errors else 200)


# Accounts made from one address are counted (THROTTLE_SIGNUPS): each costs a password's hashing, and a script
# could make them without end. The page itself is not counted, only what it sends.
signup.throttle_scope = "signups"
signup.throttle_methods = ("POST",)


def _account_page(request: HttpRequest, *, form=None, new_token: str | None = None, status: int = 200):
    return render(request, "registration/account.html", {
        "deck_count": request.user.decks.count(),
        "tokens": request.user.access_tokens.all(),
        "token_form": form or AccessTokenForm(),
        "new_token": new_token,
    }, status=status)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return _account_page(request)


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    """Create a personal access token and show it, once."""
    form = AccessTokenForm(request.POST)
    if not form.is_valid():
        return _account_page(request, form=form, status=400)
    try:
        _, token = services.token_create(user=request.user, name=form.cleaned_data["name"])
    except services.TokenLimitReached as limit:
        form.add_error(None, str(limit))
        return _account_page(request, form=form, status=409)
    response = _account_page(request, new_token=token, status=201)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if not services.token_revoke(user=request.user, token_id=token_id):
        raise Http404("No such token.")
    messages.success(request, "The token was revoked; requests with it are refused from now on.")
    return redirect("account")


@login_required
@sensitive_post_parameters("password")
def account_delete(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        logout(request)
        decks = services.account_delete(user=user)
        messages.success(request, f"Your account and its {decks} decks were deleted.")
        return redirect("home")
    status = 400 if form.errors else 200
    return render(request, "registration/account_delete.html",
                  {"form": form, "deck_count": request.user.decks.count()}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def browser_link_request(request: HttpRequest) -> HttpResponse:
    """Ask for a link that lets this browser try the account's password on a known browser's budget (OPS-1)."""
    form = BrowserLinkForm(request.POST or None, initial={"username": request.GET.get("username", "")})
    if request.method == "POST" and form.is_valid():
        browser_links.browser_link_send(
            username=form.cleaned_data["username"],
            link_for=lambda token: request.build_absolute_uri(reverse("browser_link_open", args=[token])))
        return render(request, "registration/browser_link_sent.html", {
            "interval_minutes": settings.LOGIN_LINK_INTERVAL_SECONDS // 60,
            "valid_minutes": settings.LOGIN_LINK_VALID_SECONDS // 60})
    return render(request, "registration/browser_link_form.html", {"form": form}, status=400 if form.errors else 200)


@require_http_methods(["GET", "HEAD", "POST"])
def browser_link_open(request: HttpRequest, token: str) -> HttpResponse:
    """A link from the e-mail: shown with a button (mail scanners open links, and must not use them up); the button
    makes this browser one of the account's known browsers, then the log-in page asks for the password."""
    try:
        if request.method != "POST":
            return render(request, "registration/browser_link_open.html",
                          {"username": browser_links.browser_link_username(token=token)})
        username = browser_links.browser_link_redeem(token=token)
    except browser_links.BrowserLinkRefused as refused:
        return render(request, "registration/browser_link_open.html", {"refusal": str(refused)}, status=400)
    messages.success(request, f"This browser may now log in to the account {username}: enter its password.")
    response = redirect(f"{reverse('login')}?{urlencode({'username': username})}")
    _remember_browser(request, response, username)
    return response
