import hashlib
import unicodedata

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from core.intbounds import page_number

from .crafts import CRAFTS
from .models import CardType
from .presenters import card_preview
from .search import SearchError
from .search.compiler import ORDERS
from .search.parser import MAX_QUERY_LENGTH
from .selectors import (
    TABLE_COLUMNS,
    answer_get,
    answer_kept,
    answer_set,
    card_face_etag,
    card_face_svg,
    card_get,
    card_keywords,
    card_search_page,
    catalog_seen,
    catalog_summary,
    keyword_list,
    name_suggestions,
)
from .svg import DIRECTION_NAMES, description, directions_of, maneuver_text, type_line

# Faces change only with the catalog: browsers revalidate hourly with the ETag, which names the version.
CARD_FACE_CACHE_CONTROL = "public, max-age=3600"
# The sort keys, in words: the table's columns, then the stats it has no column for.
ORDER_CHOICES = [(key, label) for key, label, _short in TABLE_COLUMNS] + [("cost", "Cost"), ("influence", "Influence")]
COMPASS = (("nw", "n", "ne"), ("w", None, "e"), ("sw", "s", "se"))


def _page_number(request: HttpRequest) -> int:
    try:
        return page_number(request.GET.get("page"))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


def _columns(order: str, direction: str) -> list[dict[str, str]]:
    columns = []
    for key, label, short in TABLE_COLUMNS:
        current = key == order
        columns.append({
            "key": key, "label": label, "short": short, "current": current,
            "aria_sort": ("ascending" if direction == "asc" else "descending") if current else "",
            "next_direction": "desc" if current and direction == "asc" else "asc",
        })
    return columns


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")
    view_mode = "table" if request.GET.get("view") == "table" else "grid"
    context = {
        "q": query, "view_mode": view_mode, "summary": catalog_summary(), "order_choices": ORDER_CHOICES,
        "crafts": CRAFTS.values(), "types": CardType, "keywords": keyword_list(),
        "stats": ("vit", "atk", "def", "rng", "man"), "directions": DIRECTION_NAMES.items(),
    }
    # The sort controls show the sort in force. A control still showing what the query alone chose
    # (query_order, query_direction: hidden fields of the form) was not changed by the player, so
    # it does not override the query's order: and direction: terms, which may have changed since.
    order, direction = request.GET.get("order"), request.GET.get("direction")
    if order and order == request.GET.get("query_order"):
        order = None
    if direction and direction == request.GET.get("query_direction"):
        direction = None
    number, status = _page_number(request), 200
    # The results and the sort they were found in, rendered once per catalog and search (its every parameter: the
    # page's links carry them) for every viewer, who sees nothing of their own there.
    key = _results_key(request)
    seconds = settings.SEARCH_CACHE_SECONDS
    found = answer_get(key) if seconds else None
    if found is None:
        try:
            result, page = card_search_page(query=query, order=order, direction=direction, page_number=number)
        except SearchError as error:
            # A query that does not parse is shown to be corrected (200); one over the length limit is refused as the
            # API refuses it (400), the page still showing why.
            status = 400 if len(query) > MAX_QUERY_LENGTH else 200
            position = error.position
            context.update(error=error, caret=_caret(query, position) if position is not None else "",
                           order=request.GET.get("order") or "name", direction=request.GET.get("direction") or "asc",
                           query_order=request.GET.get("query_order", ""),
                           query_direction=request.GET.get("query_direction", ""))
        else:
            context.update(page=page, warnings=result.warnings, order=result.order, direction=result.direction,
                           query_order=result.query_order, query_direction=result.query_direction,
                           columns=_columns(result.order, result.direction),
                           suggestions=name_suggestions(query=query) if not page.paginator.count else [])
        context["order_label"] = dict(ORDER_CHOICES).get(context["order"], context["order"]).lower()  # as the menu
        found = {name: context[name] for name in ("order", "direction", "query_order", "query_direction")}
        found["results"] = render_to_string("cards/index.html#results", context, request)
        if seconds and status == 200 and "error" not in context:
            # In this process only: the searches typed into the box are many and unbounded (each change of the text
            # is one), and the shared cache is not to grow with them; each process renders a search once.
            answer_set(key, found, seconds, shared=False)
    context.update(found, results=mark_safe(found["results"]))  # noqa: S308  (our own template's output)
    htmx = getattr(request, "htmx", None)
    template = "cards/index_update.html" if htmx and not htmx.history_restore_request else "cards/index.html"
    return render(request, template, context, status=status)


def _results_key(request: HttpRequest) -> str:
    """The key of a catalog page's results: the catalog (a new load, or a card saved in this process) and every
    parameter of the request, as sent."""
    parts = (catalog_seen(), sorted(request.GET.lists()))
    return f"catalog-results:{hashlib.sha256(repr(parts).encode()).hexdigest()}"


index.throttle_scope = "search"  # a search, as the API's: counted with it (config.middleware)


@require_safe
def detail(request: HttpRequest, collector_number: str) -> HttpResponse:
    """A card's page: what the catalog says of it, rendered once per catalog for every viewer and kept, and the public
    decks that use it, read for each request (a deck published or changed shows at once)."""
    # "2": the kept answer's second form (it carries the card's id); the first form's kept answers are not read.
    key = "card-page:2:" + hashlib.sha256(repr((catalog_seen(), collector_number.casefold())).encode()).hexdigest()
    about = answer_kept(key, lambda: _card_about(collector_number), settings.SEARCH_CACHE_SECONDS)
    return render(request, "cards/card.html", {
        **about, "face": mark_safe(about["face"]), "info": mark_safe(about["info"]),  # noqa: S308  (our templates')
    })


def _card_about(collector_number: str) -> dict:
    card = card_get(collector_number=collector_number)
    if card is None:
        raise Http404(f"No card with collector number {collector_number}.")
    keywords = card_keywords(card)
    attack, maneuver = set(directions_of(card.attack_directions)), set(directions_of(card.maneuver_directions))
    compass = [[
        {"name": d, "label": DIRECTION_NAMES[d] if d else "the unit", "attack": d in attack, "maneuver": d in maneuver}
        for d in row] for row in COMPASS]
    context = {
        "card": card, "keywords": keywords, "type_line": type_line(card), "craft": CRAFTS[card.craft],
        "compass": compass,
        "attack_names": [DIRECTION_NAMES[d] for d in directions_of(card.attack_directions)],
        "maneuver_names": [DIRECTION_NAMES[d] for d in directions_of(card.maneuver_directions)],
        "maneuver_text": maneuver_text(card) if card.maneuver is not None else "",
        "has_stats": card.vitality is not None,
    }
    return {"name": card.name, "number": card.collector_number, "card_id": card.pk,
            "description": description(card, [k.name for k in keywords]),
            "face": render_to_string("cards/card.html#face", context),
            "info": render_to_string("cards/card.html#info", context)}


@require_safe
def search_help(request: HttpRequest) -> HttpResponse:
    return render(request, "cards/search_help.html", {
        "crafts": CRAFTS.values(), "types": CardType, "orders": list(ORDERS), "keywords": keyword_list(),
    })


@require_safe
def preview(request: HttpRequest, collector_number: str) -> HttpResponse:
    """The card's large view, as a fragment for the hover preview of the catalog and the deck editor."""
    card = card_get(collector_number=collector_number)
    if card is None:
        raise Http404(f"No card with collector number {collector_number}.")
    response = render(request, "cards/_card_preview.html", {"card": card_preview(card)})
    response["Cache-Control"] = "public, max-age=3600"  # a card's text changes only with a new catalog
    return response


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


def _caret(query: str, position: int) -> str:
    """A "^" under the query's character at `position`, in a monospaced line: a wide character (CJK, most emoji)
    takes two cells and a combining mark none, so the padding counts cells, not characters."""
    cells = sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
                for ch in query[:position])
    return " " * cells + "^"
