"""Search results as CSV and as plain text, by ?format= or Accept, with a file name; deck exports' file names."""

import csv
import io

import pytest

from cards.models import CardType
from tests.cards.search_factories import make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards():
    make_card("Tst Fmt Golem", collector_number="TST-F1", vitality=41, attack=5, keywords=("subdue",),
              text="=HYPERLINK(\"x\")")
    make_card("Tst Fmt Lancer", collector_number="TST-F2", vitality=42, attack=4, text="Heals, an \"ally\".")
    make_card("Tst Fmt Ward", type=CardType.TALENT, subtype="spell talent", cost=1, collector_number="TST-F3")


def rows(response):
    return list(csv.DictReader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("how", [{"format": "csv"}, {"HTTP_ACCEPT": "text/csv"}])
def test_search_results_as_csv_with_a_file_name(client, cards, how):
    params = {"q": "tst fmt", **{k: v for k, v in how.items() if k == "format"}}
    headers = {k: v for k, v in how.items() if k != "format"}
    response = client.get("/api/cards/", params, **headers)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'inline; filename="dreadgate-cards-tst-fmt.csv"'
    table = rows(response)
    assert [r["name"] for r in table] == ["Tst Fmt Golem", "Tst Fmt Lancer", "Tst Fmt Ward"]
    golem, lancer, ward = table
    assert golem["collector_number"] == "TST-F1" and golem["vitality"] == "41" and golem["keywords"] == "subdue"
    assert golem["text"] == "'=HYPERLINK(\"x\")"  # never a formula in a spreadsheet
    assert lancer["text"] == 'Heals, an "ally".' and ward["vitality"] == "" and ward["cost"] == "1"
    assert response["X-Total-Count"] == "3"


@pytest.mark.parametrize("how", [{"format": "text"}, {"HTTP_ACCEPT": "text/plain"}])
def test_search_results_as_text_with_a_file_name(client, cards, how):
    params = {"q": "tst fmt t:unit foo:bar", **{k: v for k, v in how.items() if k == "format"}}
    headers = {k: v for k, v in how.items() if k != "format"}
    response = client.get("/api/cards/", params, **headers)
    assert response["Content-Type"].startswith("text/plain")
    assert response["Content-Disposition"] == 'inline; filename="dreadgate-cards-tst-fmt-t-unit-foo-bar.txt"'
    text = response.content.decode()
    assert text.startswith("# warning: Unknown field 'foo'")
    assert "Tst Fmt Golem (TST-F1)\nunit · champion\nvit 41, atk 5, def 2, rng 7, man 1\nKeywords: subdue\n" in text
    assert "Tst Fmt Ward" not in text and "foo" in response["X-Search-Warnings"]


def test_csv_pages_carry_their_links_and_page_in_the_file_name(client, cards):
    response = client.get("/api/cards/", {"q": "tst fmt", "format": "csv", "page_size": 1, "page": 2})
    assert [r["name"] for r in rows(response)] == ["Tst Fmt Lancer"]
    assert response["Content-Disposition"].endswith('-page2.csv"')
    assert 'page=3' in response["Link"] and 'rel="next"' in response["Link"] and 'rel="previous"' in response["Link"]


def test_errors_stay_json_in_the_envelope_whatever_the_format(client):
    response = client.get("/api/cards/", {"q": "atk>=", "format": "csv"})
    assert response.status_code == 422 and response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "invalid_query"
    response = client.get("/api/cards/", {"q": "atk>=5", "format": "xml"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["details"] == {"parameter": "format", "allowed": ["json", "csv", "text"]} and "xml" in error["message"]


def test_the_formats_are_in_the_schema(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/cards/"]["get"]
    fmt = next(p for p in operation["parameters"] if p["name"] == "format")
    assert sorted(fmt["schema"]["enum"]) == ["csv", "json", "text"]
    assert {"text/csv", "text/plain", "application/json"} <= set(operation["responses"]["200"]["content"])


@pytest.mark.config_independent
def test_an_explicit_format_decides_whatever_the_accept_header_asks(client, cards):
    answer = client.get("/api/cards/", {"q": "tst fmt", "format": "csv"}, HTTP_ACCEPT="application/json")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv") and len(rows(answer)) == 3
    answer = client.get("/api/cards/", {"q": "tst fmt", "format": "json"}, HTTP_ACCEPT="text/csv")
    assert answer.status_code == 200 and answer.json()["count"] == 3
    refused = client.get("/api/cards/", {"q": "atk>=", "format": "text"}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_query"  # not hidden by a 406
