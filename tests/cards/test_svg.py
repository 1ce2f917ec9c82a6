"""SVG card faces: valid SVG for every card type and craft, accessible, served at a stable, cached URL."""

import xml.etree.ElementTree as ET

import pytest

from cards.crafts import CRAFTS
from cards.models import CardType
from cards.svg import render_card_svg
from tests.cards.search_factories import dirs, make_card

NS = "{http://www.w3.org/2000/svg}"
KINDS = [
    dict(type=CardType.UNIT, attack_directions=dirs("n", "ne"), maneuver_directions=dirs("s")),
    dict(type=CardType.LEGEND, is_unique=True, influence=2, text="Whenever a unit is deployed, heal 1."),
    dict(type=CardType.TALENT, subtype="spell talent", cost=2, is_instant=True, text="Deal 2 damage."),
    dict(type=CardType.GLYPH, is_unique=True, cost=1, text="Your units get +1 defense."),
    dict(type=CardType.ITEM, subtype="relic weapon", cost=3, is_consumable=True, text="Equipped unit gets +2 attack."),
    dict(type=CardType.GATEWAY, craft="universal", text="Units pass through here."),
]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


@pytest.mark.django_db
@pytest.mark.parametrize("fields", KINDS, ids=[k["type"] for k in KINDS])
def test_every_card_type_renders_valid_svg_with_title_and_description(fields):
    card = make_card(f"Tst Face {fields['type']}", **fields)
    root = parse(render_card_svg(card))
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title.text == card.name
    assert card.name in desc.text and CardType(card.type).label in desc.text
    assert root.get("role") == "img"
    assert set(root.get("aria-labelledby").split()) == {title.get("id"), desc.get("id")}
    if card.text:
        assert card.text in desc.text


@pytest.mark.django_db
@pytest.mark.parametrize("craft", sorted(CRAFTS))
def test_frame_has_craft_colour_and_craft_name_so_colour_is_not_the_only_cue(craft):
    card = make_card(f"Tst Craft {craft}", craft=craft)
    svg = render_card_svg(card)
    parse(svg)
    assert CRAFTS[craft].hex in svg
    assert CRAFTS[craft].label in svg


@pytest.mark.django_db
def test_unit_face_draws_both_rings_stats_and_icons():
    card = make_card("Tst Ringed", vitality=31, attack=4, defense=5, range=6, maneuver=2, flying_maneuver=3,
                     attack_directions=dirs("n", "se"), maneuver_directions=dirs("w"), is_unique=True)
    root = parse(render_card_svg(card, ["Aviation", "Subdue"]))
    classes = [p.get("class") for p in root.iter(f"{NS}path") if p.get("class")]
    assert len([c for c in classes if c.startswith("attack-")]) == 8
    assert len([c for c in classes if c.startswith("maneuver-")]) == 8
    assert sorted(c for c in classes if c.endswith(" on")) == ["attack-n on", "attack-se on", "maneuver-w on"]
    texts = [t.text for t in root.iter(f"{NS}text")]
    for expected in ("31", "4", "5", "6", "2/3", "Unique", "Aviation", "Aviation, Subdue"):
        assert expected in texts
    desc = root.find(f"{NS}desc").text
    assert "Attacks toward north (forward), south-east." in desc
    assert "Maneuvers toward west." in desc
    assert "maneuver 2 grounded, 3 flying" in desc


@pytest.mark.django_db
def test_markup_in_card_data_is_escaped():
    card = make_card('Tst <Bad> & "Quoted"', type=CardType.TALENT, text="<script>x</script> & more")
    root = parse(render_card_svg(card))
    assert root.find(f"{NS}title").text == 'Tst <Bad> & "Quoted"'


@pytest.mark.django_db
def test_face_is_served_at_a_stable_url_with_etag_and_cache_control(client):
    card = make_card("Tst Served", collector_number="TST-SVG1")
    response = client.get("/cards/TST-SVG1.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert "max-age" in response["Cache-Control"] and "public" in response["Cache-Control"]
    parse(response.content.decode())
    etag = response["ETag"]
    assert card.catalog_version in etag
    again = client.get("/cards/TST-SVG1.svg", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag


@pytest.mark.django_db
def test_new_catalog_version_changes_the_etag(client):
    card = make_card("Tst Versioned", collector_number="TST-SVG2")
    first = client.get("/cards/TST-SVG2.svg")["ETag"]
    card.catalog_version = "test-2"
    card.save()
    response = client.get("/cards/TST-SVG2.svg", HTTP_IF_NONE_MATCH=first)
    assert response.status_code == 200 and response["ETag"] != first


@pytest.mark.django_db
def test_unknown_card_face_is_404(client):
    assert client.get("/cards/NOPE-0.svg").status_code == 404


@pytest.mark.django_db
def test_every_authored_card_and_a_unit_of_each_craft_in_the_catalog_render_valid_svg():
    from cards.models import Card

    cards = list(Card.objects.exclude(type=CardType.UNIT).prefetch_related("keywords"))
    for craft in CRAFTS:
        unit = Card.objects.filter(type=CardType.UNIT, craft=craft).prefetch_related("keywords").first()
        if unit:
            cards.append(unit)
    assert {c.type for c in cards} == {t.value for t in CardType}  # the loaded catalog has every type
    for card in cards:
        root = parse(render_card_svg(card, [k.name for k in card.keywords.all()]))
        assert root.find(f"{NS}title").text == card.name
