"""Regular expressions in name:/…/ and o:/…/: one evaluator (the regex package, with re's meaning) on every path,
a documented subset, a length bound and a time bound per search, and refusals that name the problem and its
position. tests/cards/test_search_threaded_server.py checks the time bound on the threaded development server."""

import re
import threading
import time

import pytest

from cards.models import Card
from cards.search import SearchError, search_cards
from cards.search.regex import MAX_PATTERN_LENGTH, TIME_LIMIT_SECONDS, TimeBudget, compile_pattern, matching
from tests.cards.search_factories import make_card

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["index", "sql"])
def engine(request, settings):
    settings.SEARCH_ENGINE = request.param
    return request.param


def found(client, query, **params):
    response = client.get("/api/cards/", {"q": query, "page_size": 200, **params})
    assert response.status_code == 200, response.content
    body = response.json()
    return body["count"], [card["name"] for card in body["results"]]


def python_re(column, pattern):
    compiled = re.compile(pattern, re.IGNORECASE)
    return sorted(name for name, text in Card.objects.values_list("name", column) if compiled.search(text))


@pytest.mark.parametrize(("query", "column", "pattern"), [
    ("o:/draw (a|two) cards?/", "text", "draw (a|two) cards?"),
    ("o:/^rally the line/", "text", "^rally the line"),
    ("o:/\\d+ attack/", "text", "\\d+ attack"),
    ("name:/^(bold|dim) /", "name", "^(bold|dim) "),
    ("name:/golem$/", "name", "golem$"),
    ("name:/\\bof the high\\b/", "name", "\\bof the high\\b"),
    ("name:/[xz]/", "name", "[xz]"),
])
def test_patterns_find_what_python_re_finds_over_the_texts_on_both_paths(client, engine, query, column, pattern):
    count, names = found(client, query)
    wanted = python_re(column, pattern)
    assert count == len(wanted) > 0 and set(names) <= set(wanted) and len(names) == min(count, 200)


def test_patterns_ignore_case_and_anchor_at_the_whole_text(client, engine):
    make_card("Tst Pattern Anvil", text="Draw a card.\nThen discard.")
    make_card("Tst Pattern Bellows", text="When it dies, DRAW A CARD")
    assert found(client, "tst pattern o:/draw a card/")[1] == ["Tst Pattern Anvil", "Tst Pattern Bellows"]
    assert found(client, "tst pattern o:/^draw a card/")[1] == ["Tst Pattern Anvil"]
    assert found(client, "tst pattern o:/card$/")[1] == ["Tst Pattern Bellows"]  # not the end of a line
    assert found(client, "tst pattern o:/discard\\.$/")[1] == ["Tst Pattern Anvil"]
    assert found(client, "tst pattern -o:/bellows|dies/")[1] == ["Tst Pattern Anvil"]
    assert found(client, "name:/^tst pattern b/")[1] == ["Tst Pattern Bellows"]
    assert found(client, "tst pattern name!=/anvil/")[1] == ["Tst Pattern Bellows"]


def test_a_pattern_may_hold_spaces_quotes_parentheses_and_an_escaped_slash(client, engine):
    make_card("Tst Slash (Half/Whole)", text='Say "yes" (or no).')
    assert found(client, "name:/(half\\/whole)/ tst")[1] == ["Tst Slash (Half/Whole)"]
    assert found(client, 'o:/"yes" \\(or/ tst')[1] == ["Tst Slash (Half/Whole)"]


def test_the_sql_path_evaluates_patterns_in_python_not_in_the_database(settings):
    # SQLite has no regular expressions at all, and PostgreSQL's differ from Python's (\d, classes, case):
    # only an evaluation in Python runs this on both, with Python's meaning.
    settings.SEARCH_ENGINE = "sql"
    result = search_cards("o:/\\d+ cells?/")
    assert "REGEXP" not in str(result.queryset.query).upper() and "~" not in str(result.queryset.query)
    assert result.queryset.count() == len(python_re("text", "\\d+ cells?")) > 0


@pytest.mark.parametrize(("query", "position", "words"), [
    ("o:/(a)\\1/", 6, "backreference"),
    ("o:/\\p{L}/", 3, "'\\p' is not an escape patterns know"),  # its brace was said to be the fault
    ("o:/a\\N{DASH}/", 4, "'\\N' is not an escape"),
    ("o:/(?P<x>a)(?P=x)/", 11, "backreferences are not supported"),
    ("o:/draw(?= a)/", 7, "lookahead"),
    ("o:/(?<!un)tap/", 3, "lookbehind"),
    ("o:/(?>ab)c/", 3, "atomic groups"),
    ("o:/(?i)draw/", 3, "inline flags"),
    ("name:/(a+)+$/", 10, "repeated group may not hold repetition or alternation"),
    ("name:/(ab|a)*c/", 12, "repeated group"),
    ("name:/a++/", 8, "Possessive"),
    ("name:/a{1,500}/", 7, "more than 100"),
    ("name:/a{,}/", 7, "must be escaped"),
    ("o:/draw{e<=1}/", 7, "must be escaped"),  # regex would read a fuzzy match, re a brace
    ("o:/[^[:alpha:]]/", 5, "POSIX classes"),  # regex would read a class of letters, re characters
    ("name:/(draw/", 6, "cannot be read"),
    ("name:/draw[/", 10, "cannot be read"),
    ("name://", 6, "The pattern is empty"),
    ("o:/draw", 2, "never closed"),
    ("o:/draw/x", 8, "put a space after it"),
    ("name=/draw/", 4, "takes ':' or '!='"),
])
def test_patterns_outside_the_subset_are_422_naming_the_problem_and_the_column(client, engine, query, position, words):
    response = client.get("/api/cards/", {"q": query})
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_query" and words in error["message"]
    assert error["details"]["position"] == position and error["details"]["column"] == position + 1


def test_a_pattern_longer_than_the_bound_is_refused_at_the_bound():
    with pytest.raises(SearchError) as caught:
        search_cards("o:/" + "a" * (MAX_PATTERN_LENGTH + 1) + "/")
    assert caught.value.position == 3 + MAX_PATTERN_LENGTH and "longer than" in caught.value.message


def test_accepted_shapes_of_the_subset():
    for source in ("draw", "[^,]+ card", "\\bend\\b", "(?:fire|ice) bolt", "(?P<kind>unit)s?", "a{2,3}", "(ab)+",
                   "x*?y", "^$", "\\d\\w\\s\\D\\W\\S.", "\\A\\Z", "[\\]]", "[(]+", "(a?)?", "a{,3}", "\\{", "[:]"):
        compile_pattern(source, 0, TimeBudget())


# Accepted by the subset, and seconds of backtracking in one text of 60 characters without a digit.
SLOW = "[\\w ]*?[\\w ]*?[\\w ]*?[\\w ]*?[\\w ]*?\\d"
SLOW_TEXT = "ab " * 20


@pytest.mark.config_independent
@pytest.mark.parametrize("thread", ["main", "another"])
def test_the_deadline_stops_a_match_inside_one_text_on_any_thread(thread):
    outcome = {}

    def run():
        # The thread's own CPU time: what the match did, whatever else the machine was doing meanwhile.
        start = time.thread_time()
        with pytest.raises(SearchError) as caught:
            matching(compile_pattern(SLOW, 7, TimeBudget()), [SLOW_TEXT])
        outcome.update(error=caught.value, seconds=time.thread_time() - start)

    if thread == "main":
        run()
    else:  # as on the threaded development server, where no signal can interrupt a match
        worker = threading.Thread(target=run)
        worker.start()
        worker.join()
    assert outcome["seconds"] < TIME_LIMIT_SECONDS + 0.5  # stopped inside the text, not after it
    assert f"takes longer than {TIME_LIMIT_SECONDS:g} s" in outcome["error"].message
    assert outcome["error"].position == 7


def test_the_patterns_of_one_search_share_its_time_budget(client, engine):
    one = "o:/e/"  # some 20 ms over the catalog: far within the bound alone, far past it 160 times
    assert found(client, one)[0] > 0
    query = " ".join([one] * 160)
    response = client.get("/api/cards/", {"q": query})
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["code"] == "invalid_query" and "takes longer than" in error["message"]
    assert query[error["details"]["position"] - 3 :].startswith(one)  # at the pattern that ran out of time


def test_the_help_pages_pattern_examples_run_and_find_cards(client, engine):
    import html as html_module

    page = client.get("/cards/help/").content.decode()
    section = page[page.index('id="patterns"') : page.index('id="combining"')]
    links = re.findall(r'href="/cards/\?q=([^"]+)"', section)
    assert len(links) == 3
    for query in links:
        text = html_module.unescape(query)
        from urllib.parse import unquote_plus

        count, _ = found(client, unquote_plus(text))
        assert count > 0, text


def test_every_example_the_help_page_links_finds_cards(client, engine):
    import html as html_module
    from urllib.parse import unquote_plus

    page = client.get("/cards/help/").content.decode()
    page = page[:page.index('id="errors"')]  # the errors section's examples are meant to be refused
    queries = {unquote_plus(html_module.unescape(q)) for q in re.findall(r'href="/cards/\?q=([^"&]+)', page)}
    assert len(queries) > 20
    empty = sorted(query for query in queries if found(client, query)[0] == 0)
    assert empty == [], empty
