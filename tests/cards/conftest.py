import pytest

# Test modules that compare what two paths (the SQL path and the in-process index) answer to the same queries.
SAME_ANSWER_MODULES = ("test_search_index", "test_search_property", "test_search_text_identity")


@pytest.fixture(autouse=True)
def _patterns_unhurried_when_two_paths_are_compared(request, monkeypatch):
    """A pattern's time bound is wall-clock time (cards/search/regex.py): on a loaded machine an ordinary pattern can
    overrun it on one path and not the other, and the two answers would differ for a reason that is not theirs. The
    tests that compare the paths give patterns time; the bound itself is tested in test_search_regex and
    test_search_threaded_server."""
    if request.module.__name__.rsplit(".", 1)[-1] in SAME_ANSWER_MODULES:
        monkeypatch.setattr("cards.search.regex.TIME_LIMIT_SECONDS", 30.0)
