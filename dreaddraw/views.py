"""Dread Draw pages: the card set, tables (play in the browser) and tournaments. Views stay thin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from django import forms
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe
from django_htmx.middleware import HtmxDetails

from core.errors import DomainError, ErrorCode
from playtest.jobs.services import run_room_left, run_submit

from .engine import Game
from .engine.game import MAX_PLAYERS, MIN_PLAYERS
from .forms import BOT_CHOICES, SEAT_CHOICES, DecisionForm, SeatForm, TableForm, TournamentForm, shown_players
from .models import BotLevel, DreadDrawTable, TableStatus, bot_name
from .selectors import (
    KEYWORD_VALUES,
    dreaddraw_card_filters,
    dreaddraw_card_get,
    dreaddraw_card_list,
    dreaddraw_table_get,
    dreaddraw_table_rematch,
    dreaddraw_table_rows,
    table_board,
)
from .services import seats_of, table_act, table_create, table_join, table_rematch, table_shown


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for the type checker)."""

    htmx: HtmxDetails


class SignedInRequest(HtmxHttpRequest):
    """A request of a view behind login_required."""

    user: User


def card_list(request: HttpRequest) -> HttpResponse:
    error, status, filters = "", 200, {}
    try:
        filters = dreaddraw_card_filters(request.GET)
        cards = list(dreaddraw_card_list(**filters))
    except DomainError as exc:
        error, status, cards = exc.message, 400, []
    context = {"cards": cards, "filters": filters, "error": error, "keywords": KEYWORD_VALUES,
               "strengths": range(1, 11), "raw": request.GET}
    return render(request, "dreaddraw/cards.html", context, status=status)


def card_detail(request: HttpRequest, number: int) -> HttpResponse:
    card = dreaddraw_card_get(number=number)
    if card is None:
        raise Http404(f"There is no Dread Draw card number {number}.")
    return render(request, "dreaddraw/card.html", {"card": card})


# --- tables ---------------------------------------------------------------------------------



def _seat_rows(data: Mapping[str, Any], players: int) -> list[dict[str, Any]]:
    """Every seat row of the table form, with the values sent (or the defaults); rows past `players` are hidden,
    so the form shows as many seats as players, with or without scripts."""
    rows = []
    for i in range(MAX_PLAYERS):
        default = "local" if i == 0 else f"bot:{BotLevel.HEURISTIC.value}"
        rows.append({"index": i, "number": i + 1, "choice": data.get(f"seat{i}", default),
                     "name": data.get(f"name{i}", ""), "hidden": i >= players})
    return rows


def _bot_rows(data: Mapping[str, Any], players: int) -> list[dict[str, Any]]:
    """The tournament form's seat rows: a bot each, alternating the counting and heuristic bots by default."""
    rows = []
    for i in range(MAX_PLAYERS):
        default = BotLevel.PROBABILITY.value if i % 2 == 0 else BotLevel.HEURISTIC.value
        rows.append({"index": i, "number": i + 1, "choice": data.get(f"bot{i}", default), "hidden": i >= players})
    return rows


def _index_context(request: HttpRequest, error: str = "", tournament_error: str = "",
                   table_form: Mapping[str, Any] | None = None,
                   tournament_form: Mapping[str, Any] | None = None) -> dict[str, Any]:
    table_form = table_form if table_form is not None else request.GET
    tournament_form = tournament_form if tournament_form is not None else request.GET
    table_players, tournament_players = shown_players(table_form), shown_players(tournament_form)
    tables = dreaddraw_table_rows(user=request.user) if request.user.is_authenticated else []
    return {"tables": tables, "seat_choices": SEAT_CHOICES, "error": error, "bot_choices": BOT_CHOICES,
            "tournament_error": tournament_error, "player_counts": range(MIN_PLAYERS, MAX_PLAYERS + 1),
            "table_players": table_players, "seat_rows": _seat_rows(table_form, table_players),
            "tournament_players": tournament_players, "bot_rows": _bot_rows(tournament_form, tournament_players),
            "tournament_games": tournament_form.get("games", "1000")}


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "dreaddraw/index.html", _index_context(request))


# A start form's "Show the seats" button (pages without scripts): the form comes back with as many seat rows as
# the chosen number of players, keeping what was filled in; nothing is created.
SEATS_ONLY = "seats_only"


@login_required
@require_POST
def table_new(request: SignedInRequest) -> HttpResponse:
    if SEATS_ONLY in request.POST:
        return render(request, "dreaddraw/index.html", _index_context(request, table_form=request.POST))
    form = TableForm(request.POST)
    try:
        if not form.is_valid():
            raise DomainError(_form_problem(form), code=ErrorCode.INVALID_SEATS)
        table = table_create(owner=request.user, seats=form.seats())
    except DomainError as exc:
        context = _index_context(request, error=exc.message, table_form=request.POST)
        return render(request, "dreaddraw/index.html", context, status=400)
    return redirect("dreaddraw:table", table_id=table.pk)


def _form_problem(form: forms.Form) -> str:
    """A form's first problem, naming its field as the page labels it when it has a label of its own ("Seat 1:
    choose its bot."), else by its name ("players: Enter a whole number.")."""
    field, errors = next(iter(form.errors.items()))
    label = form.fields[field].label if field in form.fields else None
    return f"{label or field}: {errors[0]}"


def _table_or_404(table_id: UUID) -> DreadDrawTable:
    table = dreaddraw_table_get(table_id=table_id)
    if table is None:
        raise Http404("No such table.")
    return table


def _revealed(request: HttpRequest, table: DreadDrawTable) -> int | None:
    """The seat this browser last showed at this table (for several people sharing one screen)."""
    return request.session.get(f"dreaddraw-seat-{table.pk}")


@login_required
@require_POST
def table_reveal(request: SignedInRequest, table_id: UUID) -> HttpResponse:
    """The next person at a shared screen says it is them: show that seat's cards."""
    table = _table_or_404(table_id)
    form = SeatForm(request.POST)
    seat = form.cleaned_data["seat"] if form.is_valid() else -1
    if seat in seats_of(table, request.user):
        request.session[f"dreaddraw-seat-{table.pk}"] = seat
    if request.htmx:
        return render(request, "dreaddraw/table.html#board",
                      table_board(table=table, game=table_shown(table), user=request.user,
                                  revealed=_revealed(request, table)))
    return redirect("dreaddraw:table", table_id=table.pk)


@login_required
@require_safe
def table_detail(request: SignedInRequest, table_id: UUID) -> HttpResponse:
    table = _table_or_404(table_id)
    context = table_board(table=table, game=table_shown(table), user=request.user, revealed=_revealed(request, table))
    return render(request, "dreaddraw/table.html", context)


@login_required
@require_safe
def table_board_view(request: SignedInRequest, table_id: UUID) -> HttpResponse:
    """The board fragment, polled by screens that wait for others (and, slowly, by a finished table's players
    until its rematch is started); 204 when nothing changed."""
    table = _table_or_404(table_id)
    since = request.GET.get("turn")
    if since is not None and since == str(len(table.decisions)) and request.GET.get("status") == table.status:
        if request.GET.get("rematch") != "awaited" or dreaddraw_table_rematch(table=table) is None:
            return HttpResponse(status=204)
    if request.GET.get("status") == TableStatus.WAITING != table.status:
        # The last seat was taken: the page around the board (its open seats, their link) is the whole page's to redo.
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    context = table_board(table=table, game=table_shown(table), user=request.user, revealed=_revealed(request, table))
    return render(request, "dreaddraw/table.html#board", context)


@login_required
@require_POST
def table_act_view(request: SignedInRequest, table_id: UUID) -> HttpResponse:
    table = _table_or_404(table_id)
    error, status = None, 200
    form = DecisionForm(request.POST)
    game: Game | None
    if not form.is_valid():  # a request the page would not send: said as what it lacks, not as a seat not played
        field, problems = next(iter(form.errors.items()))
        error, status, game = {"message": f"{field}: {problems[0]}", "rule": ""}, 400, table_shown(table)
    else:
        try:
            table, game = table_act(table_id=table.pk, user=request.user, seat=form.cleaned_data["seat"],
                                    decision=form.cleaned_data["decision"] or "", turn=form.cleaned_data["turn"])
        except DomainError as exc:
            rule = exc.details.get("rule", "")  # linked beside the words, which say it once (the API's start with it)
            error = {"message": exc.message.removeprefix(f"{rule}: ") if rule else exc.message, "rule": rule}
            status = exc.status_code
            table.refresh_from_db()  # the page shows the current state, whoever moved meanwhile
            game = table_shown(table)
    if not request.htmx and error is None:
        return redirect("dreaddraw:table", table_id=table.pk)
    context = table_board(table=table, game=game, user=request.user, error=error, revealed=_revealed(request, table))
    template = "dreaddraw/table.html#board" if request.htmx else "dreaddraw/table.html"
    return render(request, template, context, status=status)


@login_required
@require_POST
def table_join_view(request: SignedInRequest, table_id: UUID) -> HttpResponse:
    table = _table_or_404(table_id)
    try:
        table_join(table_id=table.pk, user=request.user)
    except DomainError as exc:
        table.refresh_from_db()
        context = table_board(table=table, game=table_shown(table), user=request.user,
                              error={"message": exc.message, "rule": ""}, revealed=_revealed(request, table))
        return render(request, "dreaddraw/table.html", context, status=exc.status_code)
    return redirect("dreaddraw:table", table_id=table.pk)


@login_required
@require_POST
def table_again_view(request: SignedInRequest, table_id: UUID) -> HttpResponse:
    """Play again: a new table with the same seats and a new seed."""
    table = _table_or_404(table_id)
    try:
        new = table_rematch(table_id=table.pk, user=request.user)
    except DomainError as exc:
        context = table_board(table=table, game=table_shown(table), user=request.user,
                              error={"message": exc.message, "rule": ""}, revealed=_revealed(request, table))
        return render(request, "dreaddraw/table.html", context, status=exc.status_code)
    return redirect("dreaddraw:table", table_id=new.pk)


# --- tournaments ----------------------------------------------------------------------------

@login_required
@require_POST
def tournament_new(request: SignedInRequest) -> HttpResponse:
    """Start a bot tournament as a background run; its page shows the progress bar and the report."""
    if SEATS_ONLY in request.POST:
        return render(request, "dreaddraw/index.html", _index_context(request, tournament_form=request.POST))
    form = TournamentForm(request.POST)
    try:
        if not form.is_valid():
            raise DomainError(_form_problem(form), code=ErrorCode.INVALID_PARAMS)
        lineup = form.lineup()
        run = run_submit(owner=request.user, kind="dreaddraw_tournament", params={"lineup": lineup},
                         games=form.cleaned_data["games"], title=f"Dread Draw: {' vs '.join(map(bot_name, lineup))}")
    except DomainError as exc:
        context = _index_context(request, tournament_error=exc.message, tournament_form=request.POST)
        return render(request, "dreaddraw/index.html", context, status=exc.status_code)
    return redirect("playtest:run_detail", run_id=run.pk)


# A run's submission, as the API's: counted with them (config.middleware); the form shown again with more seats is not.
tournament_new.throttle_scope = "runs"  # type: ignore[attr-defined]  # read by config.middleware
tournament_new.throttle_counts = (  # type: ignore[attr-defined]
    lambda request: SEATS_ONLY not in request.POST and run_room_left(request.user))
