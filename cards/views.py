from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .selectors import catalog_summary


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/index.html", {"summary": catalog_summary()})
