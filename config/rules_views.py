"""The rules page: docs/rules.md rendered with an anchor per rule (refusals link to /rules/#DG-4.2)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from .rules_markdown import render as render_markdown

RULES_FILE = Path(settings.BASE_DIR) / "docs" / "rules.md"


@lru_cache(maxsize=4)
def _rendered(mtime: float) -> str:
    return render_markdown(RULES_FILE.read_text(encoding="utf-8"))


def rules_html() -> str:
    """The rendered rules, re-rendered only when the file changes."""
    return _rendered(RULES_FILE.stat().st_mtime)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    # Safe: the renderer runs with raw HTML off, so every piece of text from the file is escaped.
    return render(request, "rules.html", {"rules_html": mark_safe(rules_html())})  # noqa: S308
