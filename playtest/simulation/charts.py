"""A line chart as inline SVG drawn on the server, in the style of decks.charts (no script, no inline style)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

LINE_COLOUR = "#6a3d9a"


def line_chart(title: str, points: Sequence[tuple[int, float]], *, y_max: float = 1.0, percent: bool = True,
               width: int = 360, height: int = 170) -> SafeString:
    """Points joined by a line, each with a marker; the last value and the axes are labelled in text."""
    if not points:
        return mark_safe("")
    pad_left, pad_right, pad_top, pad_bottom = 34, 10, 12, 24
    plot_w, plot_h = width - pad_left - pad_right, height - pad_top - pad_bottom
    x_min, x_max = points[0][0], max(points[-1][0], points[0][0] + 1)

    def xy(x: float, y: float) -> tuple[float, float]:
        return (pad_left + plot_w * (x - x_min) / (x_max - x_min), pad_top + plot_h * (1 - y / (y_max or 1)))

    fmt = (lambda v: f"{v * 100:.0f}%") if percent else (lambda v: f"{v:.1f}")
    summary = ", ".join(f"{x}: {fmt(y)}" for x, y in points)
    coords = " ".join(f"{px:.1f},{py:.1f}" for px, py in (xy(x, y) for x, y in points))
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{escape(title)}: {escape(summary)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{pad_left}" y1="{pad_top + plot_h}" x2="{width - pad_right}" y2="{pad_top + plot_h}" '
        'stroke="#8a8279"/>',
        f'<line x1="{pad_left}" y1="{pad_top}" x2="{pad_left}" y2="{pad_top + plot_h}" stroke="#8a8279"/>',
        f'<text x="{pad_left - 4}" y="{pad_top + 4}" text-anchor="end" font-size="10">{fmt(y_max)}</text>',
        f'<text x="{pad_left - 4}" y="{pad_top + plot_h}" text-anchor="end" font-size="10">{fmt(0)}</text>',
        f'<text x="{pad_left}" y="{height - 6}" font-size="10">{x_min}</text>',
        f'<text x="{width - pad_right}" y="{height - 6}" text-anchor="end" font-size="10">{x_max}</text>',
        f'<polyline points="{coords}" fill="none" stroke="{LINE_COLOUR}" stroke-width="2"/>',
    ]
    for x, y in points:
        px, py = xy(x, y)
        parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="2.5" fill="{LINE_COLOUR}">'
                     f"<title>{x}: {fmt(y)}</title></circle>")
    parts.append("</svg>")
    return mark_safe("".join(parts))
