"""A template comment never reaches the page: Django's `{# #}` is a comment on one line only, and one that spans
lines is text, shown to every visitor (as the deck page's heading once showed its own note)."""

from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted(p for folder in [ROOT / "templates", *ROOT.glob("*/templates")] for p in folder.rglob("*.html"))


def test_the_templates_are_found():
    assert len(TEMPLATES) > 50 and ROOT / "templates" / "decks" / "_detail_head.html" in TEMPLATES


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_comment_is_left_as_text(path):
    text_tokens = [t for t in Lexer(path.read_text()).tokenize() if t.token_type == TokenType.TEXT]
    opened = [t.lineno for t in text_tokens if "{#" in t.contents]
    assert not opened, f"{path.relative_to(ROOT)}: a {{# comment spans lines at line {opened[0]}: use {{% comment %}}"
