"""`{% url %}` as Django's, its answers kept per process: a built-in of the templates (settings.TEMPLATES), so every
template's `{% url %}` is this one.

Reversing a URL name walks the URL patterns (some 25 microseconds a link): a deck page has nine, a page of cards one
a card, on every request, for answers that change only with the URLconf and the URL prefix. A link is kept once
reversed when its name and arguments are plain strings and numbers, under the URL prefix and URLconf it was
reversed in (an object as argument is reversed each time: its text can change). Behaviour is Django's: the
namespace of the current app, `as var`, NoReverseMatch raised (or an empty string with `as`), escaping."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.template import defaulttags
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = template.Library()
PLAIN = (str, int)  # a template's literal is a SafeString: a str


@lru_cache(maxsize=4096)
def _kept(view_name: str, args: tuple, kwargs: tuple, current_app: str | None, prefix: str, urlconf) -> str:
    del prefix  # part of the key: reverse() reads it from the thread
    return reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app, urlconf=urlconf)


def _reverse(view_name, args: tuple, kwargs: tuple, current_app) -> str:
    values = (view_name, current_app, *args, *(value for _, value in kwargs))
    if all(value is None or isinstance(value, PLAIN) for value in values):
        return _kept(view_name, args, kwargs, current_app, get_script_prefix(), get_urlconf())
    return reverse(view_name, args=args, kwargs=dict(kwargs), current_app=current_app)


class KeptURLNode(defaulttags.URLNode):
    def render(self, context):
        args = tuple(arg.resolve(context) for arg in self.args)
        kwargs = tuple(sorted((key, value.resolve(context)) for key, value in self.kwargs.items()))
        view_name = self.view_name.resolve(context)
        try:  # as Django's URLNode: the request's current app, else its namespace
            current_app = context.request.current_app
        except AttributeError:
            try:
                current_app = context.request.resolver_match.namespace
            except AttributeError:
                current_app = None
        url = ""
        try:
            url = _reverse(view_name, args, kwargs, current_app)
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser, token):
    node = defaulttags.url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)


def _forget(*, setting, **kwargs) -> None:
    if setting == "ROOT_URLCONF":  # a test's own URLs
        _kept.cache_clear()


setting_changed.connect(_forget, dispatch_uid="kept-urls-forget")
