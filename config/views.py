from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import Resolver404, resolve, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from cards.selectors import catalog_summary

from .errors import error_response
from .health import broker_status, database_status


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"summary": catalog_summary()})


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": database_status(), "broker": broker_status()}
    healthy = all(check["status"] == "ok" for check in checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503)



@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for by themselves: the site's icon (an SVG, as base.html links it)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's log-in is the site's: its failed log-in limits answer 429 with when to try again and offer a
    browser link, where the admin's form said a locked-out staff member's right password was wrong."""
    if request.user.is_authenticated and not request.user.is_staff:
        raise PermissionDenied("The admin is for staff accounts; this account is not one.")
    return redirect_to_login(request.GET.get("next") or reverse("admin:index"), login_url=reverse("login"))


@csrf_exempt  # it acts on nothing: it names the address, or sends the request on to the one meant
def api_not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any /api/ address no route takes, answered in the API's envelope whatever DEBUG says (Django's own 404
    page is HTML, its technical one lists every route). An address one slash short of a route is sent there with
    308, which keeps the method and the body: Django's slash redirect is a 301 that turns a POST into a GET (and,
    with DEBUG on, a 500)."""
    slashed = f"{request.path}/"
    if not request.path.endswith("/"):
        try:
            found = resolve(slashed).func is not api_not_found
        except Resolver404:
            found = False
        if found:
            query = request.META.get("QUERY_STRING", "")
            return error_response(request, 308, "moved", f"The address is {slashed}, with its slash.",
                                  headers={"Location": f"{slashed}?{query}" if query else slashed})
    return error_response(request, 404, "not_found", f"Nothing at {request.path[:200]}.")
