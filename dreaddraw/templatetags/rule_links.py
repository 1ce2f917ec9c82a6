"""`{{ text|rule_links }}`: the rule numbers in a text (DD-3.6, DG-15.5, RV-5) as links to them on the rules page, the
rest of the text escaped; the engine's words name their rules, and a player reading one can open it."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

RULE = re.compile(r"\b((?:DD|DG|RV)-\d+(?:\.\d+)?)\b")


@register.filter
def rule_links(text: str) -> SafeString:
    return mark_safe(RULE.sub(r'<a href="/rules/#\1">\1</a>', escape(text)))  # the numbers are the pattern's only
