"""Pages of the goldfish table and the new-playtest page; each view is one service call."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import DomainError, ErrorCode
from core.formats import deck_formats_for
from core.intbounds import shortened
from core.typed import typed_whole_number
from decks.errors import DeckNotFound
from decks.models import Deck, Visibility
from decks.selectors import deck_for_viewer
from playtest.dreadgate import ENGINE_VERSION
from playtest.goldfish import services as tables
from playtest.goldfish.presenter import decode, table_controls, table_view
from playtest.goldfish.selectors import card_faces, shown_actions, table_thinking_unchanged, thinking_token
from playtest.goldfish.stored import replay_view
from playtest.jobs import services as runs
from playtest.models import GoldfishTable
from playtest.policies import POLICY_WORDS
from playtest.simulation.job_kind import MODES


def _render_table(request, table, state=None, error: DomainError | None = None, status: int = 200,
                  acted: bool = False, at: int | None = None, since: int | None = None) -> HttpResponse:
    """The table; `?at=N` shows it after its first N actions (read-only), as the page does when it plays the
    opponent's actions out one by one after the person's move (`acted`), or after the first `since` actions, which
    the page of a table thinking at the strong level showed when it asked. A table played under rules since
    changed is shown by its replay, from its stored frames (docs/rules.md, RV-4, RV-5)."""
    if not tables.table_shown(table):
        url = reverse("playtest:table_replay", args=[table.pk])
        if request.htmx:
            return HttpResponse(status=204, headers={"HX-Redirect": url})
        return redirect(url)
    now = state if at is None and state is not None else tables.table_state(table)
    read = tables.game_read(now)  # one replay of the game for its steps, its log and the last move
    shown = tables.steps_shown(now, read)  # as the person was shown them (DG-15.7): every number the page carries
    if at is not None and not 0 <= at <= shown.last:
        error = DomainError(f"at: a step from 0 to {shown.last}", code=ErrorCode.INVALID, details={"field": "at"})
        at, status = None, 400
    watching = None
    if at is not None:
        state = tables.table_state(table, steps=shown.bounds[at])
        played_out = (tables.opponent_steps(table, shown) or ([], 0))[0]
        if at in played_out:  # counted in the actions the person is shown
            k = played_out.index(at)
            watching = {"step": at, "number": k + 1, "of": len(played_out),
                        "next": played_out[k + 1] if k + 1 < len(played_out) else None}
        else:
            watching = {"step": at, "number": at, "of": shown.last, "next": at + 1 if at + 1 < shown.last else None}
    state = state or now
    view = table_view(state, card_faces(decks=table.params["decks"]), request.GET.get("sel", ""),
                      watching=watching is not None, conceded=table.conceded_step is not None,
                      play=read if state is now else None)
    # the AI's answers play out one by one; the passive opponent's (an end, a dummy deployed) are in the log
    playing_out = (acted or since is not None) and view is not None and tables.opponent_policy(table) is not None
    steps = tables.opponent_steps(table, shown) if playing_out else None
    if steps and since is not None:  # from the step the page shows, the AI's actions taken since it asked
        showing = sum(shown.seen[:since])
        later = [step for step in steps[0] if step >= showing]
        count = sum(seen and theirs for seen, theirs in zip(shown.seen[since:], shown.theirs[since:], strict=True))
        steps = (later, count) if later and count else None
    playback = {"from": steps[0][0], "count": steps[1]} if steps else None
    # the seed and nonce once the game is over, whichever step is watched (DG-4.6)
    secrets = tables.table_secrets(table, now)
    thinking = tables.table_thinking(table) and watching is None
    controls = table_controls(view, over=secrets["over"], undoable=bool(table.human_moves) and not thinking,
                              against_ai=tables.opponent_policy(table) is not None)
    context = {"table": table, "view": view, "secrets": secrets, "error": error,
               "rule": (error.details or {}).get("rule") if error else None, "watching": watching,
               "playback": playback, "controls": controls, "thinking": thinking, "level": tables.table_level(table),
               "step": shown.last, "poll": thinking_token(table.pk, len(table.actions)) if thinking else None}
    template = "playtest/table.html#table" if request.htmx else "playtest/table.html"
    return render(request, template, context, status=status)


def _my_table(request, table_id) -> GoldfishTable:
    return get_object_or_404(GoldfishTable, pk=table_id, owner=request.user)


@login_required
def new_playtest(request: HttpRequest) -> HttpResponse:
    """Choose how to playtest a deck: by hand at a goldfish table, or by simulated runs."""
    key = request.GET.get("key") or request.POST.get("key")
    try:
        deck = deck_for_viewer(deck_id=request.GET.get("deck") or request.POST.get("deck"), user=request.user, key=key)
    except DeckNotFound:
        return render(request, "playtest/new.html", {"missing": True}, status=404)
    taken = deck_formats_for(deck.format)  # the opponents its games take (DC-8)
    opponents = (Deck.objects.filter(visibility=Visibility.PUBLIC, format__in=taken).exclude(pk=deck.pk)
                 .order_by("-is_starter", "name")[:100])
    mine = Deck.objects.filter(owner=request.user, format__in=taken).exclude(pk=deck.pk).order_by("name")
    offered = list(mine) + list(opponents)
    context = {"deck": deck, "key": key or "", "opponents": offered, "policy_words": POLICY_WORDS,
               "levels": list(tables.LEVELS), "error": None}
    named, named_key = _named_opponent(request, deck, taken)
    if named is not None:  # the compare page's "play them against each other": first, chosen, even if not offered
        context["opponents"] = [named, *(other for other in offered if other.pk != named.pk)]
        context["opponent_key"] = named_key
        context["chosen"] = {"mode": "matchup", "opponent": str(named.pk)}
    if request.method == "POST":
        try:
            with transaction.atomic():
                what = request.POST.get("what", "run")
                if what not in ("table", "run"):
                    raise DomainError(f"what: “{shortened(what, 24)}” is neither a table nor a run.",
                                      code=ErrorCode.INVALID,
                                      status_code=400, details={"field": "what"})
                if what == "table":
                    opponent = typed_whole_number(request.POST.get("table_opponent"), "opponent")
                    table = tables.table_create(owner=request.user, deck_id=deck.pk, key=key,
                                                seed=typed_whole_number(request.POST.get("seed"), "seed"),
                                                opponent_deck_id=opponent,
                                                opponent_key=request.POST.get("opponent_key") or None,
                                                # the level is the AI's: none against training dummies
                                                level=(request.POST.get("table_level") or None)
                                                if request.POST.get("table_opponent") else None)
                    return redirect("playtest:table", table_id=table.pk)
                params = {"deck": deck.pk, "key": key, "mode": request.POST.get("mode", "goldfish"),
                          "opponent": request.POST.get("opponent") or None,
                          "opponent_key": request.POST.get("opponent_key") or None,
                          "format": request.POST.get("format") or None}
                params = {name: value for name, value in params.items() if value is not None}  # unset: defaults
                if params["mode"] not in MODES:  # said here: the policies' defaults are the mode's
                    raise DomainError(f"mode: “{shortened(params['mode'], 24)}” is not one of {', '.join(MODES)}.",
                                      code=ErrorCode.INVALID, status_code=400, details={"field": "mode"})
                chosen = [request.POST.get("policy") or "", request.POST.get("opponent_policy") or ""]
                for field, name in zip(("policy", "opponent_policy"), chosen, strict=True):
                    if name and name not in POLICY_WORDS:  # said by the form's own field, not the run's list
                        raise DomainError(f"{field}: “{shortened(name, 24)}” is not one of {', '.join(POLICY_WORDS)}.",
                                          code=ErrorCode.INVALID, status_code=400, details={"field": field})
                if any(chosen):
                    params["policies"] = [name or default for name, default in zip(chosen, MODES[params["mode"]],
                                                                                     strict=True)]
                unsure = _illegal_opponent(request, params)
                if unsure is not None:
                    context["confirm_illegal"] = unsure  # warn before anything is queued
                    return render(request, "playtest/new.html", context)
                run = runs.run_submit(owner=request.user, kind="dreadgate_playtest", params=params,
                                      games=typed_whole_number(request.POST.get("games"), "games", least=1) or 0,
                                      seed=typed_whole_number(request.POST.get("seed"), "seed"))  # titled by its kind
                return redirect("playtest:run_detail", run_id=run.pk)
        except DomainError as exc:
            context["error"] = exc
            return render(request, "playtest/new.html", context, status=exc.status_code)
    return render(request, "playtest/new.html", context)


# A run's submission, as the API's: counted with them (config.middleware); a goldfish table opened here is not a run.
new_playtest.throttle_scope = "runs"
new_playtest.throttle_methods = ("POST",)
new_playtest.throttle_counts = lambda request: (request.POST.get("what", "run") != "table"
                                               and runs.run_room_left(request.user))


def _named_opponent(request: HttpRequest, deck: Deck, taken: tuple[str, ...]) -> tuple[Deck | None, str]:
    """The opponent the address names (`opponent`, an unlisted deck with its `opponent_key`) and its key, when the
    player may see it and this deck's games take it (DC-8); else None (a deck they may not see is not named)."""
    number = request.GET.get("opponent") or request.POST.get("opponent")
    opponent_key = request.GET.get("opponent_key") or request.POST.get("opponent_key") or ""
    if not number:
        return None, ""
    try:
        opponent = deck_for_viewer(deck_id=number, user=request.user, key=opponent_key or None)
    except DeckNotFound:
        return None, ""
    if opponent.pk == deck.pk or opponent.format not in taken:
        return None, ""
    return opponent, opponent_key if opponent.visibility == Visibility.UNLISTED else ""


def _illegal_opponent(request: HttpRequest, params: dict) -> Deck | None:
    """The matchup's opponent deck when it is not legal and the player has not confirmed playing it anyway."""
    if params["mode"] != "matchup" or not params.get("opponent") or request.POST.get("confirm_illegal"):
        return None
    try:
        opponent = deck_for_viewer(deck_id=params["opponent"], user=request.user, key=params.get("opponent_key"))
    except DeckNotFound:
        return None  # the submission names the missing deck itself
    return None if opponent.is_legal else opponent


def _int_or_none(text) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


@login_required
def table(request: HttpRequest, table_id) -> HttpResponse:
    shown = request.GET.get("shown")  # the poll of a thinking table: the token of the actions its page shows
    if shown is not None and table_thinking_unchanged(user=request.user, table_id=table_id, shown=shown,
                                                      stale_before=tables.think_stale_before()):
        return HttpResponse(status=204)  # nothing new: htmx keeps the page as it is, and asks again
    table = _my_table(request, table_id)
    at = request.GET.get("at")
    if at is None:
        tables.table_think_resend(table)  # a thinking table whose worker was lost is sent again
        # what the AI played since the page asked plays out one by one, as the quick level's answers do
        least = table.human_moves[-1] if table.human_moves else 0
        since = shown_actions(table.pk, shown, len(table.actions), least) if shown else None
        return _render_table(request, table, since=since)
    step = _int_or_none(at)
    return _render_table(request, table, at=-1 if step is None else step)  # not a number: no step, refused as such


def _table_post(service):
    @login_required
    @require_POST
    def view(request: HttpRequest, table_id) -> HttpResponse:
        table = _my_table(request, table_id)
        try:
            state = service(request, table)
        except DomainError as exc:
            table.refresh_from_db()
            return _render_table(request, table, error=exc, status=exc.status_code)
        table.refresh_from_db()
        return _render_table(request, table, state, acted=True)

    return view


def _seen(request) -> int | None:
    """The step the page showed the table at (its forms send it), so that a move is never played in a position its
    player did not see; None when not sent."""
    return typed_whole_number(request.POST.get("step"), "step")


def _act(request, table):
    if "notation" in request.POST:  # the command box: the text notation of DG-19.1
        return tables.table_act_notation(table=table, text=request.POST["notation"], seen=_seen(request))
    action = decode(request.POST.get("action", ""))
    if action is None:
        raise DomainError("action: expected three numbers such as 1,0,0",
                          code=ErrorCode.INVALID, details={"field": "action"})
    return tables.table_act(table=table, action=action, seen=_seen(request))


table_act = _table_post(_act)
table_undo = _table_post(lambda request, table: tables.table_undo(table=table, seen=_seen(request)))
table_ai_turn = _table_post(lambda request, table: tables.table_ai_turn(table=table, seen=_seen(request)))
table_concede = _table_post(lambda request, table: tables.table_concede(table=table))
table_dummy = _table_post(
    lambda request, table: tables.table_place_dummy(table=table, cell=request.POST.get("cell", ""))
)


@login_required
def table_replay(request: HttpRequest, table_id) -> HttpResponse:
    """The table's game so far in the replay viewer, from the first action to the last (`?step=N`): as the person
    saw it while the game runs, with every card once it is over."""
    table = _my_table(request, table_id)
    frames, viewer, seat = tables.table_replay(table)  # only the person's view while the game runs (DG-4.6)
    step = _int_or_none(request.GET.get("step"))
    step = len(frames or ()) if step is None else step  # the last, unless asked
    faces = card_faces(decks=table.params["decks"])
    older = None if table.engine_version == ENGINE_VERSION else table.engine_version  # RV-4, RV-5
    context = {"table": table, "viewer": None if viewer == "all" else int(viewer),  # the board from the person's side
               **replay_view(frames, step, faces, viewer=viewer, bottom=seat, rules_version=older)}
    template = "playtest/replay.html#replay" if request.htmx else "playtest/replay.html"
    return render(request, template, context)
