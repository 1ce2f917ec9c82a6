from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .selectors import card_face_etag, card_face_svg, card_get, catalog_summary

# Faces change only with the catalog: browsers revalidate hourly with the ETag, which names the version.
CARD_FACE_CACHE_CONTROL = "public, max-age=3600"


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/index.html", {"summary": catalog_summary()})


@require_safe
def card_svg(request: HttpRequest, collector_number: str) -> HttpResponse:
    card = card_get(collector_number=collector_number)
    if card is None:
        raise Http404(f"No card with collector number {collector_number}.")
    etag = card_face_etag(card)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(card_face_svg(card), content_type="image/svg+xml; charset=utf-8")
    response["ETag"] = etag
    response["Cache-Control"] = CARD_FACE_CACHE_CONTROL
    return response
