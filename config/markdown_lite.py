"""A small Markdown renderer for docs/rules.md: headings, paragraphs, lists, tables, code, bold, links.

Every rule gets an anchor: a heading `### DG-4 ...` is id="DG-4", a list item that opens with
`**DG-4.2**` (or `**DC-3 Size.**`) is id="DG-4.2", so refusals can link to /rules/#DG-4.2.
Pure Python; the input is escaped, so the page never carries raw HTML from the file.
"""

from __future__ import annotations

import re
from html import escape

RULE_ID = re.compile(r"^\*\*((?:DG|DC|DD)-\d+(?:\.\d+)?)\b")
HEADING_ID = re.compile(r"^((?:DG|DC|DD)-\d+)\b")
_INLINE = re.compile(r"`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)")


def inline(text: str) -> str:
    out = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(escape(text[pos : m.start()]))
        code, bold, label, url = m.groups()
        if code is not None:
            out.append(f"<code>{escape(code)}</code>")
        elif bold is not None:
            out.append(f"<strong>{inline(bold)}</strong>")
        else:
            safe = url if url.startswith(("/", "#", "https://", "http://")) else "#"
            out.append(f'<a href="{escape(safe)}">{escape(label)}</a>')
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def render(source: str) -> str:
    """HTML for the document (block elements only; the page wraps it)."""
    lines = re.sub(r"<!--.*?-->", "", source, flags=re.S).splitlines()
    html: list[str] = []
    para: list[str] = []
    items: list[str] = []
    i = 0

    def flush_para() -> None:
        if para:
            html.append(f"<p>{inline(' '.join(para))}</p>")
            para.clear()

    def flush_list() -> None:
        if items:
            html.append("<ul>")
            for item in items:
                m = RULE_ID.match(item)
                if m:
                    rid = m.group(1)
                    html.append(f'<li id="{rid}" class="rule">{inline(item)}</li>')
                else:
                    html.append(f"<li>{inline(item)}</li>")
            html.append("</ul>")
            items.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush_para()
            flush_list()
            block = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                block.append(lines[i])
                i += 1
            html.append(f"<pre><code>{escape(chr(10).join(block))}</code></pre>")
        elif stripped.startswith("#"):
            flush_para()
            flush_list()
            level = len(stripped) - len(stripped.lstrip("#"))
            text = stripped[level:].strip()
            m = HEADING_ID.match(text)
            anchor = m.group(1) if m else _slug(text)
            html.append(f'<h{level} id="{anchor}">{inline(text)}</h{level}>')
        elif stripped.startswith("|"):
            flush_para()
            flush_list()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                    rows.append(cells)
                i += 1
            i -= 1
            if rows:
                head, *body = rows
                html.append("<table><thead><tr>" + "".join(f"<th scope=\"col\">{inline(c)}</th>" for c in head)
                            + "</tr></thead><tbody>")  # fmt: skip
                for row in body:
                    html.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>")
                html.append("</tbody></table>")
        elif stripped.startswith("- "):
            flush_para()
            items.append(stripped[2:])
        elif stripped and items and line.startswith("  "):
            items[-1] += " " + stripped  # continuation of a list item
        elif not stripped:
            flush_para()
            flush_list()
        else:
            flush_list()
            para.append(stripped)
        i += 1
    flush_para()
    flush_list()
    return "\n".join(html)
