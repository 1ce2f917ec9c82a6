import functools
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.core.paginator import Paginator
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.formats import FORMAT_SLUGS, deck_formats_for
from core.intbounds import page_number
from core.typed import typed_whole_number
from decks.selectors import deck_for_viewer, deck_list_for_owner
from playtest.dreadgate import ENGINE_VERSION
from playtest.goldfish.selectors import card_faces, tables_of
from playtest.goldfish.stored import replay_view, sample_frames
from playtest.jobs import services
from playtest.jobs.registry import get_kind
from playtest.jobs.tally import run_tally
from playtest.models import Run
from playtest.policies import POLICIES, POLICY_WORDS
from playtest.simulation.metagame_kind import (
    DEFAULT_GAMES_PER_PAIR,
    DEFAULT_POLICY,
    MAX_DECKS,
    METAGAME,
    METAGAME_FORMATS,
    MIN_DECKS,
    budget,
    games_per_pair_problem,
)
from playtest.simulation.report import report
from playtest.simulation.tuning_kind import (
    CAVEAT,
    DEFAULT_BUDGET,
    GOALS,
    MIN_BUDGET,
    TUNING,
    TUNING_FORMATS,
    budget_estimate,
    plan_indexes,
    swaps_apply,
)
from playtest.web.selectors import (
    PROGRESS_FIELDS,
    metagame_deck_choices,
    playtest_deck_choices,
    run_list_for,
    run_progress_fields,
    run_rows_for,
)

REPLAYABLE_KINDS = ("dreadgate_playtest", METAGAME)
RUNS_PER_PAGE = 50  # the playtest page's list of runs, newest first  # kinds whose results keep sample games


def index(request: HttpRequest) -> HttpResponse:
    """The user's runs, and a form to start a playtest of any deck they may play (it posts to the deck's playtest
    form, playtest:new, which opens the table or queues the run)."""
    try:
        newest_first = run_rows_for(user=request.user).order_by("-created_at", "id")  # ties in one order: pages
        runs = Paginator(newest_first, RUNS_PER_PAGE).get_page(page_number(request.GET.get("page")))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    context = {"runs": runs, "policy_words": POLICY_WORDS}
    if request.user.is_authenticated:
        context["tables"] = tables_of(user=request.user)
        decks = context["decks"] = playtest_deck_choices(user=request.user)
        # The page's two deck pickers offer the same choices (60-odd decks for a player among many): rendered once.
        context["deck_options"] = render_to_string("playtest/_deck_select.html#options", {"decks": decks})
        first = next(iter(decks["own"] + decks["public"]), None)  # the deck select's first choice
        # the opponents its games take (DC-8); the page's script follows another choice of deck
        context["takes"] = deck_formats_for(first.format) if first else ()
    return render(request, "playtest/index.html", context)


@login_required
def run_detail(request: HttpRequest, run_id) -> HttpResponse:
    return _run_page(request, get_object_or_404(run_list_for(user=request.user), pk=run_id))


def _run_page(request: HttpRequest, run: Run, status: int = 200) -> HttpResponse:
    kind = get_kind(run.kind)
    partial = services.run_partial_result(run=run)  # a stopped run's finished games: nothing played is hidden
    result = run.result if run.status == "done" else partial
    report = kind.present(result, run.params) if kind.present and result is not None else None
    return render(request, "playtest/run_detail.html", {"run": run, "tally": run_tally(run=run), "staged": kind.staged,
                                                        "report_template": kind.report_template, "report": report,
                                                        "partial": partial}, status=status)


@login_required
def run_progress(request: HttpRequest, run_id) -> HttpResponse:
    # Polled every second while a run plays: one query, of the fields the bar shows (a run's params hold whole deck
    # lists, its result the report: neither is read while it plays).
    fields = run_progress_fields(user=request.user, run_id=run_id)
    if fields is None:
        raise Http404("No run of yours has that id.")
    if not _run_of(fields).is_finished:
        return HttpResponse(_progress_bar(fields))
    run = get_object_or_404(run_list_for(user=request.user), pk=run_id)  # once: the report replaces the bar
    response = render(request, "playtest/run_detail.html#progress", _progress_context(run))
    if request.htmx:
        response["HX-Refresh"] = "true"  # swap the progress bar for the report
    return response


def _progress_context(run) -> dict:
    return {"run": run, "tally": run_tally(run=run), "staged": get_kind(run.kind).staged}


@functools.lru_cache(maxsize=1024)
def _progress_bar(fields: tuple) -> str:
    """The bar of a run under way, rendered once per process for each state it shows: most polls find the run
    where the last one did (a chunk takes seconds), and the bar depends on nothing but these fields."""
    return render_to_string("playtest/run_detail.html#progress", _progress_context(_run_of(fields)))


def _run_of(fields: tuple) -> Run:
    return Run(**dict(zip(PROGRESS_FIELDS, fields, strict=True)))


@login_required
@require_POST
def run_cancel(request: HttpRequest, run_id) -> HttpResponse:
    run = get_object_or_404(run_rows_for(user=request.user), pk=run_id)
    services.run_cancel(run=run)
    return redirect("playtest:run_detail", run_id=run.pk)


@login_required
def replay(request: HttpRequest, run_id, game: int) -> HttpResponse:
    run = get_object_or_404(run_list_for(user=request.user), pk=run_id, kind__in=REPLAYABLE_KINDS,
                            status__in=("done", "cancelled", "failed"))
    sample = services.run_sample(run=run, game=game)
    if sample is None:
        raise Http404("That game was not kept as a sample.")
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    params = run.params
    pair = None
    if "decks" in sample:  # a metagame table's game: the pair's two decks, in the order the engine was given them
        params = {**params, "decks": [params["decks"][i] for i in sample["decks"]]}
        seat_deck = sample["seat_deck"]
        pair = {"south": params["decks"][seat_deck[0]]["name"], "north": params["decks"][seat_deck[1]]["name"]}
    faces = card_faces(decks=params["decks"])
    version = sample["record"].get("engine")
    older = None if version == ENGINE_VERSION else version or "unknown"  # shown as played, from its frames (RV-4)
    context = {"run": run, "game": game, "pair": pair,
               **replay_view(sample_frames(sample), step, faces, rules_version=older)}
    template = "playtest/replay.html#replay" if request.htmx else "playtest/replay.html"
    return render(request, template, context)


@login_required
def compare(request: HttpRequest) -> HttpResponse:
    """Finished Dreadgate runs side by side (for example a deck before and after a change)."""
    ids = []
    for part in request.GET.getlist("run"):
        try:
            ids.append(str(uuid.UUID(part)))  # a malformed id names no run; any spelling is normalised
        except ValueError:
            continue
    ids = list(dict.fromkeys(ids))[:4]
    runs = list(run_list_for(user=request.user).filter(pk__in=ids, kind="dreadgate_playtest", status="done"))
    runs.sort(key=lambda run: ids.index(str(run.pk)))
    columns = [{"run": run, "report": report(run.result, run.params)} for run in runs]
    choices = run_rows_for(user=request.user).filter(kind="dreadgate_playtest", status="done")[:50]
    return render(request, "playtest/compare.html", {"columns": columns, "choices": choices, "selected": ids,
                                                     "asked": "compare" in request.GET})


def _takes(fmt: str) -> tuple[str, ...]:
    """The deck formats a game of the chosen format takes (DC-8): the form offers those decks only. A format the
    form does not know offers every deck, beside the refusal that names the format."""
    return deck_formats_for(fmt) if fmt in FORMAT_SLUGS else FORMAT_SLUGS


def _metagame_choice(data) -> dict:
    """The form's values as sent (or the defaults: the six starters, 400 games a pair, Standard, matchup)."""
    games = data.get("games_per_pair") or str(DEFAULT_GAMES_PER_PAIR)
    return {"decks": data.getlist("decks"), "format": data.get("format") or "standard",
            "policy": data.get("policy") or DEFAULT_POLICY, "games_per_pair": games, "seed": data.get("seed") or ""}


def _metagame_budget(choice: dict) -> dict | None:
    try:
        games = int(choice["games_per_pair"])
    except ValueError:
        return None
    count = len(set(choice["decks"]))
    if not MIN_DECKS <= count <= MAX_DECKS or games_per_pair_problem(games) \
            or choice["format"] not in METAGAME_FORMATS or choice["policy"] not in POLICIES:
        return None
    return budget(decks=count, games_per_pair=games, fmt=choice["format"], policy=choice["policy"])


@login_required
def metagame_new(request: HttpRequest) -> HttpResponse:
    """The metagame table's form: which decks, how, and what it costs; submitting queues the run."""
    choices = metagame_deck_choices(user=request.user)
    if request.method == "POST":
        choice = _metagame_choice(request.POST)
    else:
        choice = _metagame_choice(request.GET)  # ?decks=7&starters=1: a deck's page offers it with the starters
        if not choice["decks"] or request.GET.get("starters"):
            choice["decks"] = [str(deck.pk) for deck in choices["starters"]] + choice["decks"]
    context = {"choices": choices, "choice": choice, "selected": set(choice["decks"]), "policy_words": POLICY_WORDS,
               "formats": METAGAME_FORMATS, "takes": _takes(choice["format"]), "min_decks": MIN_DECKS,
               "max_decks": MAX_DECKS, "error": None,
               "budget": _metagame_budget(choice)}
    if request.method == "POST":
        params = {"decks": choice["decks"], "format": choice["format"], "policy": choice["policy"],
                  "games_per_pair": choice["games_per_pair"]}
        return _submit_form(request, METAGAME, params, choice["seed"], "playtest/metagame_new.html", context)
    return render(request, "playtest/metagame_new.html", context)


def _submit_form(request: HttpRequest, kind: str, params: dict, seed: str, template: str,
                 context: dict, typed: dict[str, tuple[str, int]] | None = None) -> HttpResponse:
    """Queue a run from a form: to its page, or the form again with the refusal beside the field at fault. `typed`:
    the whole numbers of the parameters as typed, with the least each takes ({"budget": ("abc", 200)}), refused as
    the seed is when they are not."""
    try:
        params = {**params, **{name: typed_whole_number(raw, name, least)
                               for name, (raw, least) in (typed or {}).items()}}
        with transaction.atomic():
            run = services.run_submit(owner=request.user, kind=kind, params=params,
                                      seed=typed_whole_number(seed, "seed"))
        return redirect("playtest:run_detail", run_id=run.pk)
    except DomainError as exc:
        context.update(error=exc, error_field=(exc.details or {}).get("field", ""))
        return render(request, template, context, status=exc.status_code)


# Submissions, as the API's: counted with them (config.middleware), whichever way a run is sent.
metagame_new.throttle_scope = "runs"
metagame_new.throttle_methods = ("POST",)
# A refusal for too many active runs is not counted.
metagame_new.throttle_counts = lambda request: services.run_room_left(request.user)


@login_required
def metagame_budget(request: HttpRequest) -> HttpResponse:
    """The form's budget line for the decks and games chosen so far (htmx)."""
    choice = _metagame_choice(request.GET)
    return render(request, "playtest/metagame_new.html#budget",
                  {"choice": choice, "budget": _metagame_budget(choice), "min_decks": MIN_DECKS,
                   "max_decks": MAX_DECKS})


def _int_or_none(text) -> int | None:
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def _tuning_choice(data) -> dict:
    """The tuning form's values as sent (or the defaults: goldfish, the deck's format, 20,000 games)."""
    return {"deck": data.get("deck") or "", "key": data.get("key") or "", "goal": data.get("goal") or "goldfish",
            "format": data.get("format") or "", "budget": data.get("budget") or str(DEFAULT_BUDGET),
            "gauntlet": data.getlist("gauntlet"), "seed": data.get("seed") or ""}


def _tuning_budget(choice: dict, deck) -> dict | None:
    budget_games = _int_or_none(choice["budget"])
    fmt = choice["format"] or (deck.format if deck else "")
    if budget_games is None or budget_games < 1 or choice["goal"] not in GOALS or fmt not in TUNING_FORMATS:
        return None
    return budget_estimate(budget=budget_games, goal=choice["goal"], fmt=fmt)


@login_required
def tune_new(request: HttpRequest) -> HttpResponse:
    """"Suggest changes" for a deck: the goal, the format, the budget (and for a matchup, the gauntlet)."""
    choice = _tuning_choice(request.POST if request.method == "POST" else request.GET)
    if not choice["deck"] and request.method == "GET":  # opened by its address: which deck?
        decks = deck_list_for_owner(user=request.user).filter(format__in=TUNING_FORMATS).order_by("name")
        return render(request, "playtest/tune_choose.html", {"decks": decks})
    try:
        deck = deck_for_viewer(deck_id=choice["deck"], user=request.user, key=choice["key"] or None)
    except (DomainError, ValueError):
        raise Http404("No deck that you may see.") from None
    choice["format"] = choice["format"] or (deck.format if deck.format in TUNING_FORMATS else "standard")
    choices = metagame_deck_choices(user=request.user, formats=TUNING_FORMATS)
    selected = set(choice["gauntlet"]) or {str(d.pk) for d in choices["starters"]}
    context = {"deck": deck, "choice": choice, "choices": choices, "selected": selected, "goals": GOALS,
               "takes": _takes(choice["format"]),
               "formats": TUNING_FORMATS, "budget": _tuning_budget(choice, deck), "caveat": CAVEAT, "error": None,
               "untunable": deck.format not in TUNING_FORMATS}  # a Tactical deck: no tuning format takes it
    if request.method == "POST":
        params = {"deck": deck.pk, "key": choice["key"], "goal": choice["goal"], "format": choice["format"],
                  "gauntlet": choice["gauntlet"]}  # as sent: the parameters refuse what is no deck id, naming it
        return _submit_form(request, TUNING, params, choice["seed"], "playtest/tune_new.html", context,
                            typed={"budget": (choice["budget"], MIN_BUDGET)})
    return render(request, "playtest/tune_new.html", context)


tune_new.throttle_scope = "runs"  # a submission, as metagame_new's
tune_new.throttle_methods = ("POST",)
tune_new.throttle_counts = metagame_new.throttle_counts


@login_required
def tune_budget(request: HttpRequest) -> HttpResponse:
    """The tuning form's budget line for the goal, format and games chosen so far (htmx)."""
    choice = _tuning_choice(request.GET)
    return render(request, "playtest/tune_new.html#budget", {"budget": _tuning_budget(choice, None)})


@login_required
@require_POST
def swap_apply_view(request: HttpRequest, run_id, index: int | None = None) -> HttpResponse:
    """One click applies a suggested swap, or (without an index) the run's whole plan: a new version of the deck
    (its history keeps the old one)."""
    run = get_object_or_404(run_list_for(user=request.user), pk=run_id, kind=TUNING)
    try:
        deck = swaps_apply(run=run, indexes=plan_indexes(run) if index is None else [index], actor=request.user)
    except DomainError as exc:  # the run's page again, saying why, with the refusal's status
        messages.error(request, exc.message)
        return _run_page(request, run, status=exc.status_code)
    messages.success(request, f"Applied: version {deck.version} of “{deck.name}”. Its history can undo it.")
    return redirect("decks:detail", deck.pk)
