"""`{% url %}` in every template is config/kept_urls.py's: Django's answers, kept per URL prefix and URLconf."""

import pytest
from django.template import Context, Template
from django.test import override_settings
from django.urls import NoReverseMatch, reverse, set_script_prefix

from config.kept_urls import KeptURLNode


def render(source: str, **context) -> str:
    return Template(source).render(Context(context))


def test_every_template_s_url_tag_is_the_kept_one():
    assert isinstance(Template("{% url 'home' %}").nodelist[0], KeptURLNode)


def test_it_answers_as_django_s_reverse_with_arguments_keywords_as_and_escaping():
    assert render("{% url 'decks:detail' 12 %}") == reverse("decks:detail", args=[12])
    assert render("{% url 'decks:detail' pk=n %}", n=7) == reverse("decks:detail", kwargs={"pk": 7})
    assert render("{% url 'cards:detail' number %}", number="U-1&2") == reverse("cards:detail", args=["U-1&2"]
                                                                                ).replace("&", "&amp;")
    assert render("{% url 'decks:detail' 3 as link %}[{{ link }}]") == f"[{reverse('decks:detail', args=[3])}]"


def test_a_name_that_does_not_reverse_raises_or_with_as_is_empty():
    with pytest.raises(NoReverseMatch):
        render("{% url 'no-such-page' %}")
    assert render("{% url 'no-such-page' as link %}[{{ link }}]") == "[]"


def test_a_link_kept_under_one_url_prefix_is_not_served_under_another():
    try:
        first = render("{% url 'decks:detail' 5 %}")
        set_script_prefix("/mounted/")
        assert render("{% url 'decks:detail' 5 %}") == "/mounted" + first
    finally:
        set_script_prefix("/")


def test_a_test_s_own_urlconf_is_reversed_afresh():
    render("{% url 'home' %}")
    with override_settings(ROOT_URLCONF="bench.bare_urls"), pytest.raises(NoReverseMatch):
        render("{% url 'home' %}")


class Named:
    """An argument whose text changes: an object is reversed each time, never kept."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text


def test_an_object_argument_is_reversed_each_time():
    card = Named("U-1")
    assert render("{% url 'cards:detail' card %}", card=card).endswith("/U-1/")
    card.text = "U-2"
    assert render("{% url 'cards:detail' card %}", card=card).endswith("/U-2/")


def test_a_link_is_reversed_once_then_kept(monkeypatch):
    from config import kept_urls

    calls = []
    monkeypatch.setattr(kept_urls, "reverse", lambda *a, **k: calls.append(a) or reverse(*a, **k))
    source = "{% url 'decks:history' 987654 %}"  # a link no other test renders
    assert render(source) == render(source) == reverse("decks:history", args=[987654])
    assert len(calls) == 1
