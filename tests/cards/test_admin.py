"""The catalog admin: search, filters, read-only generated unit stats, no deleting cards."""

from __future__ import annotations

import pytest

from cards.models import Card, CatalogRelease, Keyword

pytestmark = pytest.mark.django_db


def test_search_by_name_and_collector_number(admin_client):
    unit = Card.objects.get(collector_number="U-93021")
    by_number = admin_client.get("/admin/cards/card/", {"q": "U-93021"})
    assert by_number.status_code == 200 and unit.name in by_number.content.decode()
    by_name = admin_client.get("/admin/cards/card/", {"q": "Glyph of the Storm"})
    assert "G-SOR-04" in by_name.content.decode()


def test_list_filters_by_craft_type_subtype_and_keyword(admin_client):
    page = admin_client.get("/admin/cards/card/", {"craft": "sorcery", "type": "talent", "subtype": "spell talent"})
    body = page.content.decode()
    assert page.status_code == 200
    assert "Fireball" in body and "Smite" not in body
    subdue_id = Keyword.objects.get(slug="subdue").pk
    subdue = admin_client.get("/admin/cards/card/", {"keywords__id__exact": subdue_id, "type": "legend"})
    assert "Sable, the Faceless Queen" in subdue.content.decode()


def test_generated_unit_stats_are_read_only(admin_client):
    unit = Card.objects.get(collector_number="U-93021")
    page = admin_client.get(f"/admin/cards/card/{unit.pk}/change/").content.decode()
    assert 'name="name"' in page  # curated fields stay editable
    assert 'name="vitality"' not in page and 'name="attack"' not in page and 'name="collector_number"' not in page
    legend = Card.objects.get(collector_number="L-CHA-01")
    assert 'name="vitality"' in admin_client.get(f"/admin/cards/card/{legend.pk}/change/").content.decode()


def test_a_post_cannot_change_generated_stats(admin_client):
    unit = Card.objects.get(collector_number="U-11111")
    form = admin_client.get(f"/admin/cards/card/{unit.pk}/change/").context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "keywords"}
    data.update(name="Renamed By A Curator", vitality=9, keywords=[k.pk for k in unit.keywords.all()])
    response = admin_client.post(f"/admin/cards/card/{unit.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    unit.refresh_from_db()
    assert unit.name == "Renamed By A Curator" and unit.vitality == 1


def test_cards_and_releases_cannot_be_deleted_from_the_admin(admin_client):
    unit = Card.objects.get(collector_number="U-93021")
    assert admin_client.get(f"/admin/cards/card/{unit.pk}/delete/").status_code == 403
    release = CatalogRelease.objects.first()
    assert admin_client.get(f"/admin/cards/catalogrelease/{release.pk}/delete/").status_code == 403
    assert admin_client.get("/admin/cards/catalogrelease/").status_code == 200
    assert admin_client.get("/admin/cards/keyword/").status_code == 200
