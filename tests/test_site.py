import pytest


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["database"]["status"] == "ok"
    assert body["broker"]["status"] == "ok"


@pytest.mark.django_db
def test_front_page_has_navigation(client):
    html = client.get("/").content.decode()
    for label in ("Cards", "Decks", "Playtest", "Dread Draw", "Log in", "Sign up"):
        assert label in html
    assert "/static/django_htmx/htmx-2" in html
