"""Deck pages: thin views over decks.selectors and decks.services.

A deck the visitor may not see is a 404 everywhere; a visible deck of someone else is read-only
(its edit pages and write actions answer 403).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from cards.selectors import answer_kept, catalog_version_recent
from core import jsonbounds
from core.crafts import CRAFTS
from core.formats import deck_formats_for
from core.intbounds import numbered, page_number, shortened

from . import restore, selectors, services
from .cardinfo import Entry
from .compare import compare_decks, deck_reference
from .errors import DeckForbidden, DeckNotFound, InvalidDeck, InvalidDeckCode, InvalidDeckList, StaleVersion
from .models import DECK_LIMITS, Deck, DeckFormat, Visibility
from .piles import DEFAULT_GROUPING, DEFAULT_SORT, GROUPINGS, SORTS, grouping_of, piles, sort_of
from .presenters import OddsInputs, panel
from .sittings import sittings


def _visible(request: HttpRequest, pk: int) -> Deck:
    try:
        return selectors.deck_for_viewer(deck_id=pk, user=request.user, key=request.GET.get("key")
                                         or request.POST.get("key"))
    except DeckNotFound:
        raise Http404("No such deck.") from None


def _owned(request: HttpRequest, pk: int) -> Deck:
    deck = _visible(request, pk)
    if not selectors.can_edit(deck, request.user):
        raise PermissionDenied("Only the deck's owner may change it.")
    return deck


def _version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isascii() and raw.isdigit() else None


def _deck_context(request: HttpRequest, deck: Deck, entries: list[Entry] | None = None) -> dict:
    entries = selectors.deck_entries(deck) if entries is None else entries
    return {
        "deck": deck,
        "entries": entries,
        "can_edit": selectors.can_edit(deck, request.user),
        "key": request.GET.get("key", "") if deck.visibility == Visibility.UNLISTED else "",
        "visual": (request.GET if request.method == "GET" else request.POST).get("view") == "visual",
        **panel(entries, deck.format, OddsInputs.from_params(request.GET if request.method == "GET" else request.POST),
                selectors.deck_gateway_info(deck)),
    }


def _tags_and_considering(deck: Deck) -> dict:
    """What the owner keeps beside the cards: their tags and the considering list, shown in the editor and on the
    deck page alike (the API serves them to every viewer of the deck)."""
    kept = selectors.deck_considering(deck)
    return {"tags": selectors.deck_tags(deck), "considering": kept, "considering_count": sum(e.count for e in kept)}


# --- lists ---------------------------------------------------------------------------------------------


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return public(request)
    filters = _list_filters(request)
    order = request.GET.get("order", "").strip() or "updated"
    _known_choice("order", order, selectors.OWNER_ORDERS)
    decks = selectors.deck_list_for_owner(user=request.user, order=order, **filters)
    return render(request, "decks/index.html", {"decks": decks, "filters": filters, "order": order,
                                                "orders": selectors.OWNER_ORDERS, "crafts": CRAFTS.values(),
                                                "formats": DeckFormat.choices, "filtered": any(filters.values())})


def _list_filters(request: HttpRequest) -> dict[str, str]:
    """What a list of decks is narrowed to (a name or description, a card, a craft, a format); an unknown craft or
    format is refused, not read as "no deck matches"."""
    filters = {k: request.GET.get(k, "").strip()[:80] for k in ("craft", "format", "card", "q")}
    _known_choice("craft", filters["craft"], CRAFTS)
    _known_choice("format", filters["format"], DeckFormat.values)
    return filters


def _known_choice(name: str, value: str, choices) -> None:
    """A list filter with a value it does not know is refused, not read as "no deck matches"."""
    if value and value not in choices:
        raise BadRequest(f"{name}: “{shortened(value)}” is not one of {', '.join(choices)}.")


@require_safe
def public(request: HttpRequest) -> HttpResponse:
    filters = _list_filters(request)
    decks = selectors.deck_list_public(**filters)
    try:
        page = Paginator(decks, 30).get_page(page_number(request.GET.get("page")))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    return render(request, "decks/public.html", {
        "page": page, "filters": filters, "crafts": CRAFTS.values(), "formats": DeckFormat.choices,
    })


# --- one deck ------------------------------------------------------------------------------------------


def _kept(kind: str, deck: Deck, parts: tuple, render: Callable[[], str]) -> str:
    """A part of the deck page, rendered once for every request whose `parts` are the same and kept in the answer
    cache for DECK_PAGE_CACHE_SECONDS (0 keeps nothing). The parts are hashed: some are the visitor's text, and a
    cache key must be plain and short."""
    cache_key = f"deck-{kind}:{deck.pk}:{hashlib.sha256(repr(parts).encode()).hexdigest()}"
    return answer_kept(cache_key, render, settings.DECK_PAGE_CACHE_SECONDS)


def _detail_body(request: HttpRequest, deck: Deck, can_edit: bool, key: str) -> str:
    """The deck page's list, legality and statistics, rendered once per list version of the deck.

    They depend only on the deck's list version (every save of its cards, tags, considering list, format or gateway
    bumps it; a new name or description does not), the catalog and the view's parameters, so every visitor of a
    popular deck shares one rendering. Odds asked for in the address (the statistics' form without scripts) are
    rendered for their request alone: their text is the visitor's, and kept per text, anyone could fill the shared
    cache with renderings of one deck.
    """
    view = request.GET.get("view") if request.GET.get("view") in VIEWS else DEFAULTS["view"]
    grouping, sort = grouping_of(request.GET.get("group")), sort_of(request.GET.get("sort"))
    parts = (deck.pk, deck.list_version, deck.created_at.timestamp(), catalog_version_recent(), can_edit, key,
             view, grouping, sort,
             deck.version if view == "text" else None)  # the text names the deck and holds its description

    def render() -> str:
        context = {**_deck_context(request, deck), **_tags_and_considering(deck), "view": view}
        context["code"] = selectors.deck_export_code(deck, context["entries"])
        context["piles"], context["grouping"] = piles(context["entries"], grouping, context["tags"], sort), grouping
        context["switches"] = _view_switches(key, view, grouping, sort)
        if view == "text":
            context["text"] = selectors.deck_export_text(deck, context["entries"])
        return render_to_string("decks/_detail_body.html", context, request=request)

    if OddsInputs.from_params(request.GET) != OddsInputs():
        return mark_safe(render())  # noqa: S308  (our own template's output)
    return mark_safe(_kept("body", deck, parts, render))  # noqa: S308  (our own template's output)


def _view_switches(key: str, view: str, grouping: str, sort: str) -> dict[str, list[tuple[str, str, bool]]]:
    """The deck page's links to its other views, groupings and orders, each keeping the others and the share key:
    (label, query, whether it is the one shown), by switch."""
    def query(**changed) -> str:
        chosen = {"view": view, "group": grouping, "sort": sort, **changed}
        return urlencode({**{k: v for k, v in chosen.items() if v != DEFAULTS[k]}, **({"key": key} if key else {})})

    return {"view": [(label, query(view=value), value == view) for value, label in VIEWS.items()],
            "group": [(label, query(group=value), value == grouping) for value, label in GROUPINGS.items()],
            "sort": [(label, query(sort=value), value == sort) for value, label in SORTS.items()]}


DEFAULTS = {"view": "list", "group": DEFAULT_GROUPING, "sort": DEFAULT_SORT}  # left out of the deck page's links
# The deck page's views of its cards: the text is the list as "Export text" writes it, to copy whole.
VIEWS = {"list": "List", "visual": "Visual", "text": "Text"}


# Stands in for the viewer's CSRF token in a kept rendering: the same in every process that shares the cache, and
# unguessable (derived from the secret key), so that no text of a deck holds it.
_TOKEN_STAND_IN = "csrf-" + hashlib.sha256(f"deck-head:{settings.SECRET_KEY}".encode()).hexdigest()[:32]


def _detail_head(request: HttpRequest, deck: Deck, can_edit: bool, key: str, token: str) -> str:
    """The deck page's heading, actions and share link, rendered once for every viewer who sees them alike.

    The template is given no request and no user, only what its context names, and the key names all of it: the
    deck's version (every save bumps it), its owner's and source deck's names and who may see the source, and what
    the viewer may do. The viewer's CSRF token (`token`), in the forms, is put in per request."""
    user = request.user
    source = deck.copied_from if deck.copied_from_id else None
    context = {
        "deck": deck, "can_edit": can_edit, "key": key, "signed_in": user.is_authenticated, "staff": user.is_staff,
        "source_shown": selectors.source_shown(deck, user),
        "origin": f"{request.scheme}://{request.get_host()}" if can_edit and deck.visibility == Visibility.UNLISTED
        else "",
    }
    parts = (deck.pk, deck.version, deck.updated_at.timestamp(), deck.owner.username if deck.owner_id else None,
             (source.name, source.visibility) if source else None,
             *(value for name, value in context.items() if name != "deck"))
    head = _kept("head", deck, parts, lambda: render_to_string("decks/_detail_head.html",
                                                               {**context, "csrf_token": _TOKEN_STAND_IN}))
    return mark_safe(head.replace(_TOKEN_STAND_IN, token))  # noqa: S308  (our own template's output)


@require_safe
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _visible(request, pk)
    can_edit = selectors.can_edit(deck, request.user)
    key = request.GET.get("key", "") if deck.visibility == Visibility.UNLISTED else ""
    token = get_token(request)  # masked once, for the page's every form (as the template's own lazy token is)
    return render(request, "decks/detail.html", {
        "deck": deck, "head": _detail_head(request, deck, can_edit, key, token), "csrf_token": token,
        "body": _detail_body(request, deck, can_edit, key),
    })


@require_safe
def stats_panel(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _visible(request, pk)
    context = _deck_context(request, deck)
    return render(request, "decks/_stats.html", context, status=400 if context["odds"].problems else 200)


@require_safe
def printable(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _visible(request, pk)
    return render(request, "decks/print.html", _deck_context(request, deck))


@require_safe
def export(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    deck = _visible(request, pk)
    if kind == "txt":
        response = HttpResponse(selectors.deck_export_text(deck), content_type="text/plain; charset=utf-8")
    else:
        response = HttpResponse(json.dumps(selectors.deck_export_json(deck), indent=2),
                                content_type="application/json")
    name = selectors.deck_export_file_name(deck, "text" if kind == "txt" else "json")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_safe
def export_all(request: HttpRequest) -> HttpResponse:
    decks = selectors.deck_list_for_owner(user=request.user).select_related("gateway")
    if request.GET.get("as") == "txt":
        body = "\n\n".join(selectors.deck_export_text(d) for d in decks)
        response = HttpResponse(body, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="my-decks.txt"'
        return response
    data = {"decks": [dict(selectors.deck_export_json(d), id=d.pk, visibility=d.visibility) for d in decks]}
    response = HttpResponse(json.dumps(data, indent=2), content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="my-decks.json"'
    return response


@require_safe
def history(request: HttpRequest, pk: int) -> HttpResponse:
    """The deck's versions, newest first, a page at a time (the editor saves a version per change: a deck worked on
    for an evening has hundreds), and what changed between any two of them."""
    deck = _visible(request, pk)
    try:
        versions = Paginator(selectors.deck_revisions(deck), VERSIONS_PER_PAGE).get_page(
            page_number(request.GET.get("page")))
        numbers = [numbered(request.GET[field], field, "version", "a deck's versions") if request.GET.get(field)
                   else None for field in ("from", "to")]
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    diff, missing = None, []
    if None not in numbers:
        kept, missing = selectors.deck_revisions_numbered(deck, numbers)
        if not missing:
            diff = services.revision_diff(kept[numbers[0]], kept[numbers[1]])
            index = selectors.card_index()
            for change in diff["cards"] + diff["considering"] + diff["tags"]:
                card = index.by_number.get(change["card"].casefold())
                change["name"] = card.name if card else change["card"]
    compared = numbers if None not in numbers else [max(deck.version - 1, 1), deck.version]
    return render(request, "decks/history.html", {
        "deck": deck, "versions": versions, "sittings": sittings(versions), "diff": diff, "compared": compared,
        "missing": missing, "can_edit": selectors.can_edit(deck, request.user)}, status=404 if missing else 200)


VERSIONS_PER_PAGE = 50  # the history page's table of versions


COMPARE_FIELDS = (("a", "First deck"), ("b", "Second deck"))
COMPARE_OFFERED = 30  # the viewer's own decks offered as the other deck, the last edited first


@require_safe
def compare(request: HttpRequest) -> HttpResponse:
    """Two decks side by side (decks/compare.py), each named by `a` and `b`: its number or its link (an unlisted
    deck's with its key). A deck the viewer may not see is refused as one that does not exist, never named."""
    decks: list[Deck | None] = []
    problems: dict[str, str] = {}
    status = 200
    for field, label in COMPARE_FIELDS:
        text = request.GET.get(field, "").strip()
        reference = deck_reference(text) if text else None
        deck = None
        if text and reference is None:
            problems[field] = (f"{label}: give a deck's number or its link (such as 12, or the address of its page); "
                               f"“{shortened(text)}” is neither.")
            status = 400
        elif reference is not None:
            try:
                deck = selectors.deck_for_viewer(deck_id=reference[0], user=request.user, key=reference[1] or None)
            except DeckNotFound:
                problems[field] = (f"{label}: there is no deck {reference[0]} that you may see (a private deck is "
                                   "its owner's alone; an unlisted one is seen through its link, key and all).")
                status = status if status == 400 else 404
        decks.append(deck)
    first, second = decks
    comparison = (compare_decks(selectors.deck_entries(first), selectors.deck_entries(second))
                  if first is not None and second is not None else None)
    shown = {deck.pk for deck in decks if deck is not None}
    values = {field: request.GET.get(field, "") for field, _ in COMPARE_FIELDS}
    differ = request.GET.get("differ") == "1"  # the cards both hold alike left out

    def with_other(deck: Deck) -> str:  # the query comparing the deck chosen with `deck` (both empty: `deck` first)
        pair = {"a": values["a"], "b": str(deck.pk)} if first is not None else {"a": str(deck.pk), "b": values["b"]}
        return urlencode({field: value for field, value in pair.items() if value})

    # Offered as the other deck while one is still to choose: the viewer's own, and the starters of the format of the
    # deck already chosen (read only then: a comparison shows neither).
    own = selectors.deck_list_for_owner(user=request.user)[:COMPARE_OFFERED] \
        if comparison is None and request.user.is_authenticated else []
    starters = [] if comparison is not None else selectors.starter_deck_list(
        format=next((d.format for d in decks if d is not None), DeckFormat.STANDARD))
    return render(request, "decks/compare.html", {
        "first": first, "second": second, "chosen": first or second, "comparison": comparison, "problems": problems,
        "values": values,
        "groups": [(comparison.only_first, f"Only in the first, {first.name}"),
                   (comparison.only_second, f"Only in the second, {second.name}"),
                   ([row for row in comparison.both if row.difference], "In both, in different numbers") if differ
                   else (comparison.both, "In both")] if comparison else [],
        "differ": differ,
        "offered": [(deck, with_other(deck)) for deck in own if deck.pk not in shown],
        "starters": [(deck, with_other(deck)) for deck in starters if deck.pk not in shown],
        "links": {field: deck.get_absolute_url() if deck is not None else "" for (field, _), deck
                  in zip(COMPARE_FIELDS, decks, strict=True)},
        "matchup": _matchup_query(first, second) if comparison and request.user.is_authenticated else "",
    }, status=status)


def _matchup_query(first: Deck, second: Deck) -> str:
    """The playtest form's query that plays the first deck against the second (a matchup run), each unlisted one
    with its key; "" when a game of the first's format does not take the second (DC-8)."""
    if second.format not in deck_formats_for(first.format):
        return ""
    keyed = {"deck": first, "opponent": second}
    query = {name: deck.pk for name, deck in keyed.items()}
    for name, deck in keyed.items():
        if deck.visibility == Visibility.UNLISTED:
            query["key" if name == "deck" else "opponent_key"] = deck.share_token
    return urlencode(query)


# --- writes --------------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def new(request: HttpRequest) -> HttpResponse:
    start = request.GET.get("card", "") or request.POST.get("card", "")
    card = selectors.card_index().resolve(start) if start else None
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={request.get_full_path()}")
    error = ""
    if request.method == "POST":
        try:
            deck = services.deck_create(
                owner=request.user, name=request.POST.get("name", ""), format=request.POST.get("format", "standard"),
                visibility=request.POST.get("visibility", Visibility.PRIVATE),
                description=request.POST.get("description", ""),
                entries=[Entry(card, 1)] if card else [],
            )
        except InvalidDeck as exc:
            error = exc.message
        else:
            return redirect("decks:edit", pk=deck.pk)
    return render(request, "decks/new.html", {"card": card, "error": error, "formats": DeckFormat.choices,
                                              "visibilities": Visibility.choices, "post": request.POST,
                                              "limits": DECK_LIMITS},
                  status=400 if error else 200)


@login_required
@require_http_methods(["GET", "POST"])
def import_list(request: HttpRequest) -> HttpResponse:
    context: dict = {"formats": DeckFormat.choices, "post": request.POST, "problems": [], "error": "",
                     "body_limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE, "limits": DECK_LIMITS}
    if request.method == "POST":
        text = request.POST.get("list", "")
        try:
            data = None
            if text.lstrip().startswith("{"):  # the JSON export, pasted
                try:
                    data, text = jsonbounds.loads(text), ""
                except jsonbounds.JSONTooDeep as exc:
                    raise InvalidDeck(f"The JSON is not valid: {exc}") from None
                except json.JSONDecodeError as exc:
                    raise InvalidDeck(
                        f"The JSON is not valid at line {exc.lineno}, column {exc.colno}: {exc.msg}.") from None
            several = restore.all_decks(text, data)
            if several is not None:
                return _restored(request, several)
            deck = services.deck_import(owner=request.user, text=text, data=data,
                                        code=request.POST.get("code", "").strip(), name=request.POST.get("name", ""),
                                        format=request.POST.get("format", ""))
        except InvalidDeckList as exc:
            context["error"] = exc.message
            context["problems"] = exc.details.get("problems", [])
        except (InvalidDeckCode, InvalidDeck) as exc:
            context["error"] = exc.message
        else:
            considered = sum(e.count for e in selectors.deck_considering(deck))
            aside = f"; {considered} on the considering list" if considered else ""
            messages.success(request, f"Imported “{deck.name}” ({deck.card_count} cards{aside}).")
            return redirect("decks:edit", pk=deck.pk)
    return render(request, "decks/import.html", context, status=400 if context["error"] else 200)


import_list.throttle_scope = "imports"  # an import, as the API's: counted with them (config.middleware)
import_list.throttle_methods = ("POST",)


def _restored(request: HttpRequest, decks: list[dict]) -> HttpResponse:
    """The export of all decks imported back, each a new private deck; the name box names one deck only."""
    if request.POST.get("name", "").strip() or request.POST.get("code", "").strip():
        raise InvalidDeck(f"This holds {len(decks)} decks, each named by the list: clear the name and the deck code "
                          "boxes, which are for one deck.")
    restored = restore.decks_restore(owner=request.user, decks=decks, format=request.POST.get("format", ""))
    names = ", ".join(f"“{deck.name}”" for deck in restored[:5]) + (", …" if len(restored) > 5 else "")
    messages.success(request, f"Imported {len(restored)} decks, each private: {names}.")
    return redirect("decks:index")


@require_POST
def copy(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _visible(request, pk)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={deck.get_absolute_url()}")
    new_deck = services.deck_copy(deck=deck, owner=request.user)
    messages.success(request, f"Copied “{deck.name}” into your decks.")
    return redirect("decks:edit", pk=new_deck.pk)


@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _owned(request, pk)
    if request.method == "POST":
        try:
            services.deck_delete(deck=deck, actor=request.user, expected_version=_version(request))
        except (StaleVersion, services.VersionRequired):
            messages.error(request, "The deck changed since this page was loaded; check it and delete again.")
            return redirect("decks:delete", pk=deck.pk)
        messages.success(request, f"Deleted “{deck.name}”.")
        return redirect("decks:index")
    return render(request, "decks/delete.html", {"deck": deck})


@require_POST
def revert(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deck = _owned(request, pk)
    try:
        services.deck_revert(deck=deck, actor=request.user, number=number, expected_version=_version(request))
    except (StaleVersion, services.VersionRequired):
        messages.error(request, "The deck changed since this page was loaded; nothing was reverted.")
    except InvalidDeck as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Reverted to version {number}.")
    return redirect("decks:history", pk=deck.pk)


@require_POST
def unpublish(request: HttpRequest, pk: int) -> HttpResponse:
    deck = _visible(request, pk)
    try:
        services.deck_unpublish(deck=deck, actor=request.user)
    except DeckForbidden:
        raise PermissionDenied("Only staff may unpublish a deck.") from None
    except InvalidDeck as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"“{deck.name}” is no longer public.")
    return redirect("decks:public")
