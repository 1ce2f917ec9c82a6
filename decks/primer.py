"""A deck's description as its page shows it: Markdown (CommonMark, through markdown-it-py, as docs/rules.md is
shown), the way deck builders write a primer: emphasis, lists, quotes, code, links and rules.

What a stranger may write on a public deck's page stays text: raw HTML is escaped; a link goes only where
markdown-it lets it (never `javascript:`, `vbscript:`, `file:` or `data:`), marked as the user's (`nofollow ugc`,
and `noopener`); no image is drawn (the page loads nothing from elsewhere, and the site's CSP allows images from
itself only); and no heading is made (`# Title` stays a line of text), so the page's outline stays the page's (the
deck's name its h1, its sections h2). A line break is kept as written, as the description was shown before it was
Markdown. Pure Python, no Django.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

LINK_REL = "nofollow ugc noopener"


def _link_open(renderer, tokens, idx, options, env) -> str:
    tokens[idx].attrSet("rel", LINK_REL)
    return renderer.renderToken(tokens, idx, options, env)


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "breaks": True})
    md.disable(["heading", "lheading", "image"])
    md.add_render_rule("link_open", _link_open)
    return md


_MD = _parser()


def description_html(text: str) -> str:
    """The description's HTML (block elements; the page wraps them)."""
    return _MD.render(text)
