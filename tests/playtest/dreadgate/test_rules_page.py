"""The rules page renders docs/rules.md with an anchor per rule."""

from __future__ import annotations

import re

from config.rules_markdown import render

from .test_rules_coverage import dg_rules


def test_every_dg_rule_has_an_anchor_on_the_rules_page(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    html = response.content.decode()
    for rule in dg_rules():
        assert f'id="{rule}"' in html, rule
    assert 'id="DG-10"' in html and 'id="DC-1"' in html
    assert "Dreadgate play rules (DG)" in html
    for family in ("dreadgate-play-rules-dg", "dreadgate-deck-construction-dc", "dread-draw-dd"):
        assert f'href="#{family}"' in html and f'id="{family}"' in html  # the contents links land


def test_the_rules_renderer_escapes_html_and_renders_lists_tables_and_inline_marks():
    html = render("# T\n\n- **DG-9.9** a <b>bold</b> `x<y`\n  more\n\n| a | b |\n|---|---|\n| 1 | [l](/rules/) |\n")
    item = ('<li id="DG-9.9" class="rule"><strong>DG-9.9</strong> a &lt;b&gt;bold&lt;/b&gt; '
            '<code>x&lt;y</code>\nmore</li>')
    assert item in html
    assert re.search(r"<th scope=\"col\">a</th>", html) and '<a href="/rules/">l</a>' in html
    assert "<a" not in render("[x](javascript:alert(1))")  # a script link stays text
