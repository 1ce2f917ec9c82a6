"""SVG card faces, drawn from a card's data alone.

The frame takes the craft's colour and the craft's icon and name appear too, so colour is never
the only cue. Units and legends show their stats and the direction indicator: the inner ring is
the maneuver directions, the outer ring the attack directions, north (forward) at the top. The
<title> and <desc> give screen readers the whole card. Pure functions: no database access.
"""

from __future__ import annotations

import math
import textwrap
from xml.sax.saxutils import escape

from .crafts import CRAFTS
from .models import DIRECTIONS, Card, CardType

RENDER_VERSION = "2"  # bump when the drawing changes, so cached faces are refreshed
WIDTH, HEIGHT = 300, 420
PAPER, INK, EMPTY = "#f7f3ea", "#1d1b18", "#ddd6c8"

# Craft icons, drawn around (0, 0) within a radius of about 10.
ICONS = {
    "mask": '<path d="M-10,-6 Q0,-10 10,-6 Q10,6 0,10 Q-10,6 -10,-6 Z" fill="#fff"/>'
            '<ellipse cx="-4" cy="-1" rx="2.6" ry="1.6" fill="{c}"/><ellipse cx="4" cy="-1" rx="2.6" ry="1.6" fill="{c}"/>',
    "sword": '<path d="M0,-11 L2,-9 L2,4 L-2,4 L-2,-9 Z" fill="#fff"/><rect x="-6" y="4" width="12" height="2.4" fill="#fff"/>'
             '<rect x="-1.2" y="6.4" width="2.4" height="4.6" fill="#fff"/>',
    "halo": '<ellipse cx="0" cy="-5" rx="8" ry="3" fill="none" stroke="#fff" stroke-width="2"/>'
            '<circle cx="0" cy="4" r="5" fill="#fff"/>',
    "gear": '<circle r="7" fill="none" stroke="#fff" stroke-width="4" stroke-dasharray="3.3 2.2"/>'
            '<circle r="5" fill="none" stroke="#fff" stroke-width="2"/>',
    "leaf": '<path d="M0,-10 C9,-5 8,6 0,10 C-8,6 -9,-5 0,-10 Z" fill="#fff"/>'
            '<path d="M0,-7 L0,9" stroke="{c}" stroke-width="1.2"/>',
    "star": '<polygon points="0,-10 2.9,-4 9.5,-3.1 4.7,1.5 5.9,8.1 0,5 -5.9,8.1 -4.7,1.5 -9.5,-3.1 -2.9,-4" fill="#fff"/>',
    "circle": '<circle r="7" fill="none" stroke="#fff" stroke-width="2.5"/><circle r="2.5" fill="#fff"/>',
}
UNIQUE_ICON = '<polygon points="0,-8 8,0 0,8 -8,0" fill="{c}"/><polygon points="0,-4 4,0 0,4 -4,0" fill="#fff"/>'
AVIATION_ICON = '<path d="M-10,2 L0,-4 L10,2 L4,1 L0,6 L-4,1 Z" fill="{c}"/>'
DIRECTION_NAMES = {
    "n": "north (forward)", "ne": "north-east", "e": "east", "se": "south-east",
    "s": "south (back)", "sw": "south-west", "w": "west", "nw": "north-west",
}


_DIRECTION_LISTS = tuple(tuple(name for i, name in enumerate(DIRECTIONS) if bits & (1 << i)) for bits in range(256))


def directions_of(bits: int) -> list[str]:
    """The direction names in a bit set, in compass order."""
    return list(_DIRECTION_LISTS[bits & 0xFF])


def describe_directions(bits: int) -> str:
    names = directions_of(bits)
    return ", ".join(DIRECTION_NAMES[n] for n in names) if names else "none"


def type_line(card: Card) -> str:
    label = CardType(card.type).label
    if card.subtype and card.subtype.lower() != label.lower():
        label = f"{label} · {card.get_subtype_display()}"
    return f"{label} — {card.get_craft_display()}"


def has_stats(card: Card) -> bool:
    return card.type in (CardType.UNIT, CardType.LEGEND) and card.vitality is not None


def is_aviation(card: Card, keyword_names: list[str]) -> bool:
    return card.flying_maneuver is not None or "aviation" in (k.lower() for k in keyword_names)


def maneuver_text(card: Card) -> str:
    if card.flying_maneuver is not None:
        return f"{card.maneuver} grounded, {card.flying_maneuver} flying"
    return str(card.maneuver)


def description(card: Card, keyword_names: list[str]) -> str:
    """The whole card in words, for screen readers and for the page's text alternative."""
    parts = [f"{card.name}, {type_line(card)}."]
    if has_stats(card):
        parts.append(
            f"Vitality {card.vitality}, attack {card.attack}, defense {card.defense}, range {card.range}, "
            f"maneuver {maneuver_text(card)}."
        )
        parts.append(f"Attacks toward {describe_directions(card.attack_directions)}.")
        parts.append(f"Maneuvers toward {describe_directions(card.maneuver_directions)}.")
    if card.cost is not None:
        parts.append(f"Cost {card.cost}.")
    if card.influence:
        parts.append(f"Provides {card.influence} influence.")
    flags = [flag for flag, on in (("Unique", card.is_unique), ("Aviation", is_aviation(card, keyword_names)),
                                   ("Instant", card.is_instant), ("Consumable", card.is_consumable)) if on]
    if flags:
        parts.append(", ".join(flags) + ".")
    if keyword_names:
        parts.append("Keywords: " + ", ".join(keyword_names) + ".")
    if card.text:
        parts.append(card.text)
    return " ".join(parts)


def _sector(cx: float, cy: float, r_in: float, r_out: float, angle: float, half: float) -> str:
    """Path of one segment of a ring, centred on `angle` (degrees, 0 = north, clockwise)."""

    def point(r: float, a: float) -> str:
        rad = math.radians(a - 90)
        return f"{cx + r * math.cos(rad):.2f},{cy + r * math.sin(rad):.2f}"

    a0, a1 = angle - half, angle + half
    return (f"M{point(r_out, a0)} A{r_out},{r_out} 0 0 1 {point(r_out, a1)} L{point(r_in, a1)} "
            f"A{r_in},{r_in} 0 0 0 {point(r_in, a0)} Z")


def direction_indicator(card: Card, cx: float, cy: float, colour: str) -> str:
    out = ['<g class="directions" aria-hidden="true">']
    for ring, bits, r_in, r_out in (("attack", card.attack_directions, 42, 60),
                                    ("maneuver", card.maneuver_directions, 20, 38)):
        for i, name in enumerate(DIRECTIONS):
            on = bool(bits & (1 << i))
            fill = colour if on else EMPTY
            out.append(f'<path class="{ring}-{name}{" on" if on else ""}" d="{_sector(cx, cy, r_in, r_out, i * 45, 19)}"'
                       f' fill="{fill}" stroke="{INK}" stroke-width="0.8"/>')
    out.append(f'<circle cx="{cx}" cy="{cy}" r="6" fill="{INK}"/>')
    out.append(f'<text x="{cx}" y="{cy - 64}" font-size="9" text-anchor="middle" fill="{INK}">N</text>')
    out.append("</g>")
    return "".join(out)


def _icon(name: str, x: float, y: float, colour: str, scale: float = 1.0) -> str:
    body = ICONS.get(name, ICONS["circle"]).replace("{c}", colour)
    return f'<g transform="translate({x} {y}) scale({scale})">{body}</g>'


def render_card_svg(card: Card, keyword_names: list[str] | None = None) -> str:
    """The card face as a standalone SVG document."""
    keyword_names = list(keyword_names or [])
    info = CRAFTS.get(card.craft, CRAFTS["universal"])
    c = info.hex
    e = escape
    uid = e(card.collector_number)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}"'
        f' role="img" aria-labelledby="t-{uid} d-{uid}" font-family="Georgia, serif">',
        f'<title id="t-{uid}">{e(card.name)}</title>',
        f'<desc id="d-{uid}">{e(description(card, keyword_names))}</desc>',
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="14" fill="{c}" stroke="{INK}" stroke-width="2"/>',
        f'<rect x="14" y="14" width="{WIDTH - 28}" height="{HEIGHT - 28}" rx="8" fill="{PAPER}"/>',
        f'<circle cx="36" cy="38" r="15" fill="{c}" stroke="{INK}" stroke-width="1"/>',
        _icon(info.icon, 36, 38, c),
    ]
    name_size = 17 if len(card.name) <= 20 else 14 if len(card.name) <= 26 else 12
    # Long names are squeezed to fit between the craft icon and the corner number.
    fit = ' textLength="182" lengthAdjust="spacingAndGlyphs"' if len(card.name) > 28 else ""
    parts.append(f'<text x="58" y="44" font-size="{name_size}" font-weight="bold" fill="{INK}"{fit}>'
                 f'{e(card.name)}</text>')
    corner = card.vitality if has_stats(card) else card.cost
    if corner is not None:
        parts.append(f'<circle cx="262" cy="38" r="17" fill="{c}" stroke="{INK}" stroke-width="1"/>')
        parts.append(f'<text x="262" y="44" font-size="17" font-weight="bold" text-anchor="middle" fill="#fff">'
                     f'{corner}</text>')
    parts.append(f'<text x="24" y="74" font-size="12" fill="{INK}">{e(type_line(card))}</text>')
    parts.append(f'<line x1="24" y1="82" x2="276" y2="82" stroke="{c}" stroke-width="2"/>')

    y = 250
    if has_stats(card):
        parts.append(direction_indicator(card, 150, 160, c))
        stats = (("ATK", card.attack), ("DEF", card.defense), ("RNG", card.range),
                 ("MAN", card.maneuver if card.flying_maneuver is None else f"{card.maneuver}/{card.flying_maneuver}"))
        for i, (label, value) in enumerate(stats):
            x = 24 + i * 64
            parts.append(f'<rect x="{x}" y="{y - 18}" width="58" height="34" rx="5" fill="#fff" stroke="{c}"/>')
            parts.append(f'<text x="{x + 29}" y="{y - 6}" font-size="9" text-anchor="middle" fill="{INK}">{label}</text>')
            parts.append(f'<text x="{x + 29}" y="{y + 10}" font-size="15" font-weight="bold" text-anchor="middle"'
                         f' fill="{INK}">{e(str(value))}</text>')
        y += 32
    else:
        parts.append(f'<circle cx="150" cy="160" r="52" fill="{c}" opacity="0.9"/>')
        parts.append(_icon(info.icon, 150, 160, c, 3.6))
        y = 238

    flags = []
    if card.is_unique:
        flags.append(("Unique", UNIQUE_ICON))
    if is_aviation(card, keyword_names):
        flags.append(("Aviation", AVIATION_ICON))
    if card.is_instant:
        flags.append(("Instant", None))
    if card.is_consumable:
        flags.append(("Consumable", None))
    if card.influence:
        flags.append((f"Influence {card.influence}", None))
    x = 24
    for label, icon in flags:
        if icon:
            parts.append(f'<g transform="translate({x + 8} {y})">{icon.replace("{c}", c)}</g>')
            x += 20
        parts.append(f'<text x="{x}" y="{y + 4}" font-size="11" font-weight="bold" fill="{INK}">{e(label)}</text>')
        x += 7 * len(label) + 14
    if flags:
        y += 20
    if keyword_names:
        parts.append(f'<text x="24" y="{y}" font-size="11" font-style="italic" fill="{INK}">'
                     f'{e(", ".join(keyword_names))}</text>')
        y += 16
    lines = textwrap.wrap(card.text or "", 50)
    max_lines = max(1, (HEIGHT - 44 - y) // 13)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][:47] + "…"
    for line in lines:
        parts.append(f'<text x="24" y="{y}" font-size="11" fill="{INK}">{e(line)}</text>')
        y += 13
    parts.append(f'<text x="24" y="{HEIGHT - 24}" font-size="9" fill="{INK}">{e(card.collector_number)}</text>')
    parts.append(f'<text x="276" y="{HEIGHT - 24}" font-size="9" text-anchor="end" fill="{INK}">'
                 f'{e(info.label)} · {e(info.colour)}</text>')
    parts.append("</svg>")
    return "".join(parts)
