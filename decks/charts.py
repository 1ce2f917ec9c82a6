"""Small bar charts as inline SVG, drawn on the server (no script, no inline style: only SVG attributes).

Every chart has a <title>, an aria-label and a text label on every bar, so it reads without colour;
the pages also show the numbers as a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

BAR_COLOUR = "#6a3d9a"


def bar_chart(title: str, bars: Sequence[tuple[str, int]], *, colours: Sequence[str] | None = None,
              width: int = 320, height: int = 160) -> SafeString:
    """Vertical bars, one per (label, value), with the value above each bar and the label below."""
    if not bars:
        return mark_safe("")
    top = max(v for _, v in bars) or 1
    pad_top, pad_bottom = 18, 22
    slot = width / len(bars)
    bar_w = max(4.0, slot * 0.7)
    plot_h = height - pad_top - pad_bottom
    summary = ", ".join(f"{label}: {value}" for label, value in bars)
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{escape(title)}: {escape(summary)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line x1="0" y1="{height - pad_bottom}" x2="{width}" y2="{height - pad_bottom}" stroke="#8a8279"/>',
    ]
    for i, (label, value) in enumerate(bars):
        h = plot_h * value / top
        x = i * slot + (slot - bar_w) / 2
        y = height - pad_bottom - h
        fill = colours[i] if colours else BAR_COLOUR
        cx = i * slot + slot / 2
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w:.1f}" height="{h:.1f}" fill="{escape(fill)}" '
                     f'stroke="#1d1b19" stroke-width="0.5"/>')
        parts.append(f'<text x="{cx:.1f}" y="{max(y - 4, 12):.1f}" text-anchor="middle" font-size="11">{value}</text>')
        parts.append(f'<text x="{cx:.1f}" y="{height - 6}" text-anchor="middle" font-size="11">'
                     f"{escape(label)}</text>")
    parts.append("</svg>")
    return mark_safe("".join(parts))
