"""docs/rules.md as HTML, through markdown-it-py: CommonMark with tables and heading anchors, raw HTML escaped.

Every rule gets an anchor so refusals can link to /rules/#DG-4.2: a heading `### DG-4 ...` is id="DG-4" (other
headings get a slug of their text), and a list item that opens with `**DG-4.2**` (or `**DC-3 Size.**`) is
id="DG-4.2" with class="rule".
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin

RULE_ID = re.compile(r"^((?:DG|DC|DD|RV)-\d+(?:\.\d+)?)\b")
HEADING_ID = re.compile(r"^((?:DG|DC|DD)-\d+)\b")


def _heading_slug(text: str) -> str:
    m = HEADING_ID.match(text)
    return m.group(1) if m else re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _rule_anchors(state) -> None:
    """A list item whose paragraph opens with a bold rule number gets that number as its id."""
    tokens: list[Token] = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "list_item_open" or i + 2 >= len(tokens):
            continue
        inline = tokens[i + 2]
        children = [c for c in inline.children or [] if c.type != "text" or c.content]  # skip empty texts
        if inline.type == "inline" and len(children) > 1 and children[0].type == "strong_open":
            m = RULE_ID.match(children[1].content)
            if m:
                token.attrSet("id", m.group(1))
                token.attrSet("class", "rule")


def _column_headers(renderer, tokens, idx, options, env) -> str:
    tokens[idx].attrSet("scope", "col")
    return renderer.renderToken(tokens, idx, options, env)


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.use(anchors_plugin, min_level=1, max_level=6, slug_func=_heading_slug)
    md.core.ruler.push("rule_anchors", _rule_anchors)
    md.add_render_rule("th_open", _column_headers)
    return md


_MD = _parser()


def render(source: str) -> str:
    """HTML for the document (block elements only; the page wraps it). HTML comments are editors' notes."""
    return _MD.render(re.sub(r"<!--.*?-->", "", source, flags=re.S))
