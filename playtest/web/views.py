import uuid

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from playtest.jobs import services
from playtest.jobs.registry import get_kind
from playtest.simulation.report import report
from playtest.web.replay import replay_step
from playtest.web.selectors import run_list_for


def index(request: HttpRequest) -> HttpResponse:
    runs = run_list_for(user=request.user)[:50]
    return render(request, "playtest/index.html", {"runs": runs})


@login_required
def run_detail(request: HttpRequest, run_id) -> HttpResponse:
    run = get_object_or_404(run_list_for(user=request.user), pk=run_id)
    kind = get_kind(run.kind)
    report = kind.present(run.result, run.params) if kind.present and run.status == "done" else None
    return render(request, "playtest/run_detail.html",
                  {"run": run, "report_template": kind.report_template, "report": report})


@login_required
def run_progress(request: HttpRequest, run_id) -> HttpResponse:
    run = get_object_or_404(run_list_for(user=request.user), pk=run_id)
    response = render(request, "playtest/run_detail.html#progress", {"run": run})
    if run.is_finished and request.htmx:
        response["HX-Refresh"] = "true"  # swap the progress bar for the report
    return response


@login_required
@require_POST
def run_cancel(request: HttpRequest, run_id) -> HttpResponse:
    run = get_object_or_404(run_list_for(user=request.user), pk=run_id)
    services.run_cancel(run=run)
    return redirect("playtest:run_detail", run_id=run.pk)


@login_required
def replay(request: HttpRequest, run_id, game: int) -> HttpResponse:
    run = get_object_or_404(run_list_for(user=request.user), pk=run_id, kind="dreadgate_playtest", status="done")
    sample = next((s for s in (run.result or {}).get("samples", []) if s["game"] == game), None)
    if sample is None:
        raise Http404("That game was not kept as a sample.")
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    context = {"run": run, "game": game, **replay_step(run.params, sample["record"], step)}
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
    choices = run_list_for(user=request.user).filter(kind="dreadgate_playtest", status="done")[:50]
    return render(request, "playtest/compare.html", {"columns": columns, "choices": choices, "selected": ids})
