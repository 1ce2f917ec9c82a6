"""The web bench's bare view (bench/bare_settings.py): a JsonResponse, no DRF, nothing read."""

from django.http import JsonResponse
from django.urls import path


def bare(request):
    return JsonResponse({"ok": True})


urlpatterns = [path("bench/bare/", bare)]
