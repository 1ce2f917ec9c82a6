from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "playtest/index.html")


def dreaddraw_index(request: HttpRequest) -> HttpResponse:
    return render(request, "dreaddraw/index.html")
