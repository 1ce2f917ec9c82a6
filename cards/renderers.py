"""Search results as CSV and as plain text, beside JSON: `?format=csv|text` or an Accept header.

Both render one page of results (the paginated answer's `results`); the page links travel in a
`Link` header and the count in `X-Total-Count` (api_views.CardListView). Error answers are always
JSON, in the envelope. An explicit `format` decides, whatever the Accept header asks (ExplicitFormat).
"""

from __future__ import annotations

import csv
import io
import re

from django.http import Http404
from rest_framework import renderers
from rest_framework.negotiation import DefaultContentNegotiation

CSV_COLUMNS = (
    "collector_number", "name", "craft", "type", "subtype", "vitality", "attack", "defense", "range", "maneuver",
    "flying_maneuver", "attack_directions", "maneuver_directions", "is_unique", "is_instant", "is_consumable",
    "cost", "influence", "keywords", "text",
)
STATS = (("vitality", "vit"), ("attack", "atk"), ("defense", "def"), ("range", "rng"), ("maneuver", "man"),
         ("cost", "cost"), ("influence", "influence"))


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    text = str(value)
    # A cell a spreadsheet would run as a formula starts with a quote instead (OWASP's CSV advice).
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class CardCSVRenderer(renderers.BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_COLUMNS)
        for card in (data or {}).get("results", []):
            writer.writerow([_cell(card.get(column)) for column in CSV_COLUMNS])
        return out.getvalue().encode(self.charset)


class CardTextRenderer(renderers.BaseRenderer):
    """One block a card: name and number, type and craft, stats, rules text; blank lines between."""

    media_type = "text/plain"
    format = "text"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        blocks = []
        for warning in (data or {}).get("warnings", []):
            blocks.append(f"# warning: {warning['message']}")
        for card in (data or {}).get("results", []):
            kind = card["type"] + (f" · {card['subtype']}" if card.get("subtype") else "")
            lines = [f"{card['name']} ({card['collector_number']})", f"{kind} · {card['craft']}"]
            stats = [f"{short} {card[field]}" for field, short in STATS if card.get(field) is not None]
            if stats:
                lines.append(", ".join(stats))
            if card.get("keywords"):
                lines.append("Keywords: " + ", ".join(card["keywords"]))
            if card.get("text"):
                lines.append(card["text"])
            blocks.append("\n".join(lines))
        return ("\n\n".join(blocks) + "\n").encode(self.charset)


class ExplicitFormat(DefaultContentNegotiation):
    """The `format` parameter, when given, chooses the renderer whatever the Accept header says: a client that
    asks for `format=csv` with its library's default `Accept: application/json` gets CSV, not a 406 (nor a 406 in
    place of its query's 400). Without it, the Accept header chooses. An unknown format is DRF's Http404."""

    def select_renderer(self, request, renderers, format_suffix=None):
        wanted = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        if not wanted:
            return super().select_renderer(request, renderers, format_suffix)
        for renderer in renderers:
            if renderer.format == wanted:
                return renderer, renderer.media_type
        raise Http404


def file_name_part(text: str, limit: int = 40) -> str:
    """A piece of a file name from free text: ASCII letters, digits and single dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].rstrip("-")


def content_disposition(file_name: str) -> str:
    return f'inline; filename="{file_name}"'
