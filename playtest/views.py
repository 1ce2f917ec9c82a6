from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from .jobs import services
from .jobs.registry import get_kind
from .selectors import run_list_for


def index(request: HttpRequest) -> HttpResponse:
    runs = run_list_for(user=request.user)[:50]
    return render(request, "playtest/index.html", {"runs": runs})


def dreaddraw_index(request: HttpRequest) -> HttpResponse:
    return render(request, "dreaddraw/index.html")


@login_required
def run_detail(request: HttpRequest, run_id) -> HttpResponse:
    run = get_object_or_404(run_list_for(user=request.user), pk=run_id)
    kind = get_kind(run.kind)
    return render(request, "playtest/run_detail.html", {"run": run, "report_template": kind.report_template})


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
