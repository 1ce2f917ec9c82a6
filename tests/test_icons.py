"""Icons are inline SVG (config/icons.py, static/icons/), never characters that show as empty boxes where the
reader's fonts lack them."""

import re

import pytest
from django.template import Context, Template, TemplateSyntaxError

from tests.support import ROOT

# Characters used as icons on the site's pages at one time or another (warning, tick, cross, full-width plus and
# minus, triangles, diamond, dots, shield, media keys, heart, swords, plane).
ICON_CHARACTERS = re.compile("[⚠✔✖＋－▶▲▼◆●○⛨⏮⏭♥⚔✈]")
# The goldfish table and the replay viewer are being redrawn with the card faces; their glyphs go with that work.


def _front_end_files():
    for pattern in ("templates/**/*.html", "*/templates/**/*.html", "static/**/*.css", "static/**/*.js"):
        for path in ROOT.glob(pattern):
            if ".venv" not in path.parts:
                yield path


def test_no_template_or_stylesheet_draws_an_icon_with_a_character():
    found = {str(path.relative_to(ROOT)): sorted(set(ICON_CHARACTERS.findall(path.read_text(encoding="utf-8"))))
             for path in _front_end_files()}
    assert {path: chars for path, chars in found.items() if chars} == {}


def test_the_icon_tag_draws_inline_svg_hidden_from_screen_readers():
    html = Template('{% load icons %}<p>{% icon "warning" %} Refused</p>').render(Context())
    svg = re.search(r"<svg[^>]*>", html).group(0)
    assert 'aria-hidden="true"' in svg and 'focusable="false"' in svg and 'class="icon"' in svg
    assert html.endswith(" Refused</p>")  # the words stay beside the icon


def test_an_unknown_icon_is_an_error_naming_it():
    with pytest.raises(TemplateSyntaxError, match="no icon 'sparkles'"):
        Template('{% load icons %}{% icon "sparkles" %}').render(Context())


def test_every_icon_a_stylesheet_masks_with_exists():
    for path in ROOT.glob("static/**/*.css"):
        for name in re.findall(r'url\("\.\./icons/([\w-]+)\.svg"\)', path.read_text(encoding="utf-8")):
            assert (ROOT / "static" / "icons" / f"{name}.svg").exists(), (path, name)
