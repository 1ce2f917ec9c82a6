"""A region that scrolls sideways (a wide table on a phone) is reached by keyboard and named: axe-core's
scrollable-region-focusable is serious, and it fires only once the table is wider than the screen, which most
tests' data never makes it. So every `table-scroll` of the templates is checked here, whatever it holds."""

import re

import pytest

from tests.support import ROOT

OPENING_TAG = re.compile(r"<[a-z]+\b[^>]*\bclass=\"[^\"]*\btable-scroll\b[^\"]*\"[^>]*>")


def scroll_regions() -> list[tuple[str, str]]:
    """The site's templates and the apps' own."""
    paths = sorted([*(ROOT / "templates").rglob("*.html"), *ROOT.glob("*/templates/**/*.html")])
    return [(str(path.relative_to(ROOT)), tag) for path in paths for tag in OPENING_TAG.findall(path.read_text())]


def test_the_templates_have_scrolling_regions_to_check():
    assert len(scroll_regions()) >= 10


@pytest.mark.parametrize(("template", "tag"), scroll_regions())
def test_a_scrolling_region_is_focusable_and_named(template, tag):
    assert 'tabindex="0"' in tag, "a keyboard user could not scroll it"
    assert 'role="region"' in tag, "a screen reader would not announce it"
    assert re.search(r'aria-label(ledby)?="[^"]+"', tag), "its region would have no name"
