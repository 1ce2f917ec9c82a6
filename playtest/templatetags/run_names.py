"""A run's name where pages list or head it: its title, or else what its kind is called, never the kind's code
name (a run submitted through the API may have no title)."""

from django import template

from playtest.jobs.registry import get_kind

register = template.Library()


@register.filter
def run_name(run) -> str:
    if run.title:
        return run.title
    try:
        return get_kind(run.kind).label or run.kind
    except LookupError:  # a kind no longer offered: its code name is all there is
        return run.kind
