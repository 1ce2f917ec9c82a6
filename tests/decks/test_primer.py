"""A deck's description as Markdown (decks/primer.py): what deck builders write in a primer is drawn, and what a
stranger may write on a public deck's page stays text."""

import pytest

from decks.primer import description_html

pytestmark = pytest.mark.config_independent


def test_emphasis_lists_quotes_code_and_links_are_drawn_with_the_line_breaks_as_written():
    html = description_html("**Aggro**, *fast*.\nWins by turn 6.\n\n- 4 Battle Cry\n- `t:unit`\n\n> Hit first.\n\n"
                            "[Guide](https://example.org/guide)")
    assert "<strong>Aggro</strong>, <em>fast</em>.<br />\nWins by turn 6." in html
    assert "<ul>\n<li>4 Battle Cry</li>\n<li><code>t:unit</code></li>\n</ul>" in html
    assert "<blockquote>" in html
    assert '<a href="https://example.org/guide" rel="nofollow ugc noopener">Guide</a>' in html


@pytest.mark.parametrize(("text", "never"), [
    ("<script>alert(1)</script>", "<script"),
    ('<img src=x onerror="alert(1)">', "<img"),
    ("[click](javascript:alert(1))", 'href="javascript'),
    ("[click](vbscript:msgbox)", 'href="vbscript'),
    ("[click](data:text/html;base64,PHNjcmlwdD4=)", 'href="data'),
    ("![tracker](https://example.org/pixel.png)", "<img"),
    ("# Headline", "<h1"),
    ("Headline\n===", "<h1"),
    ("## Sub", "<h2"),
    ('<a href="https://example.org" onclick="x()">a</a>', "<a href"),
])
def test_what_would_run_load_or_break_the_pages_outline_stays_text(text, never):
    html = description_html(text)
    assert never not in html
    assert html.strip(), "the text itself is still shown"
