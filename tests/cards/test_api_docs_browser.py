"""The API docs page renders in a browser under the site's CSP, from the site's own assets."""

import pytest

from tests.conftest import live_db

pytestmark = [pytest.mark.browser, live_db]


def test_api_docs_render_the_card_endpoints_without_csp_violations(page):
    problems = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto("/api/docs/")
    page.get_by_text("/api/cards/{collector_number}/").first.wait_for()
    page.get_by_text("Dreadgate API").first.wait_for()
    assert not [p for p in problems if "Content Security Policy" in p], problems
    assert all(url.startswith(page.url.split("/api/")[0]) for url in requests), requests
