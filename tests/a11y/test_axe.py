"""axe-core over the main pages in Chromium: no accessibility violation, whatever its impact (a minor one is a
player's problem too: an unsupported role is a control a screen reader announces wrongly).

axe.min.js is installed from npm at a pinned version by `make test` (tests/vendor/axe.min.js).
"""

import pytest
from django.contrib.auth import get_user_model

from decks.models import Deck, Visibility
from decks.services import deck_copy
from tests.support import ROOT, live_db

pytestmark = [pytest.mark.browser, live_db]

AXE = ROOT / "tests" / "vendor" / "axe.min.js"
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                     nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
}"""


@pytest.fixture
def public_deck():
    owner = get_user_model().objects.create_user("a11y-owner", password="a-long-passphrase-7")
    deck = deck_copy(deck=Deck.objects.filter(is_starter=True).order_by("pk").first(), owner=owner, name="A11y deck")
    Deck.objects.filter(pk=deck.pk).update(visibility=Visibility.PUBLIC)
    return deck


# Whether every finite animation of the page has ended: a card fading in (a Dread Draw card drawn) is read by axe's
# contrast check at the opacity it has reached, which depends on the machine's speed.
ANIMATIONS_ENDED = """() => document.getAnimations().every(
  a => a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity)"""


def axe_violations(page) -> list[dict]:
    """Every violation axe-core finds in the page as it stands, once its animations have ended."""
    if not AXE.exists():
        pytest.fail("tests/vendor/axe.min.js is missing: `make test` installs it from npm (axe-core).")
    page.wait_for_function(ANIMATIONS_ENDED)
    page.evaluate(AXE.read_text())  # evaluated by the driver, so the page's CSP does not apply
    return page.evaluate(RUN_AXE)


def violations(page, path: str, status: int | None = None) -> list[dict]:
    """The violations of the page at `path`, which must answer `status` (None: any success)."""
    response = page.goto(path)
    assert response.status == status if status else response.status < 400, (path, response.status)
    return axe_violations(page)


@pytest.mark.parametrize("path", [
    "/", "/cards/", "/cards/?q=t:legend", "/cards/X-GATE/", "/decks/", "/playtest/", "/dread-draw/",
    "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
])
def test_main_pages_have_no_accessibility_violations(page, path):
    assert violations(page, path) == []


def test_the_catalog_table_on_a_phone_has_no_accessibility_violations(phone_page):
    """Its headings show short labels there ("Vit"): the long ones stay what a screen reader says (they were gone,
    and the sort links had no name)."""
    assert violations(phone_page, "/cards/?q=t:legend&view=table") == []
    names = phone_page.locator("table.card-table thead a").evaluate_all("links => links.map(a => a.innerText)")
    assert phone_page.get_by_role("link", name="Vitality").count() == 1 and "Vitality" not in names


@pytest.mark.parametrize("view", ["", "?view=visual", "?view=text"])
def test_a_deck_page_has_no_accessibility_violations(page, public_deck, view):
    assert violations(page, f"/decks/{public_deck.pk}/{view}") == []


def test_a_decks_history_comparing_two_versions_or_refusing_one_has_no_accessibility_violations(
        page, public_deck):
    assert violations(page, f"/decks/{public_deck.pk}/history/?from=1&to={public_deck.version}") == []
    assert violations(page, f"/decks/{public_deck.pk}/history/?from=1&to=999", status=404) == []


def test_two_decks_compared_a_deck_still_to_choose_and_a_refused_one_have_no_accessibility_violations(
        page, public_deck):
    starter = Deck.objects.filter(is_starter=True).order_by("pk").last()
    assert violations(page, f"/decks/compare/?a={public_deck.pk}&b={starter.pk}") == []
    name = page.locator(".compare a[data-preview]").first
    name.focus()  # a card's large face and rules text, as in the editor and the catalog
    page.locator("#card-preview").wait_for()
    assert name.inner_text() in page.locator("#card-preview").inner_text()
    assert axe_violations(page) == []
    assert violations(page, f"/decks/compare/?a={public_deck.pk}") == []
    assert violations(page, "/decks/compare/?a=best+deck&b=999999", status=400) == []


@pytest.mark.parametrize(("path", "status"), [("/no-such-page/", 404), ("/decks/7/copy/", 405)])
def test_the_error_pages_have_no_accessibility_violations(page, path, status):
    assert violations(page, path, status=status) == []


def test_the_check_itself_catches_a_serious_violation(page):
    """The harness can fail: an image with no text alternative and an unlabelled field are caught."""
    page.goto("/")
    page.evaluate("""() => {
      const img = document.createElement("img"); img.src = "/static/none.png"; document.body.append(img);
      const input = document.createElement("input"); document.body.append(input);
    }""")
    found = {v["id"] for v in axe_violations(page)}
    assert {"image-alt", "label"} <= found, found


def test_the_start_forms_of_a_signed_in_user_have_no_accessibility_violations(page, login, public_deck):
    """The playtest page's and the Dread Draw page's start forms, shown only to a signed-in user."""
    login(get_user_model().objects.create_user("a11y-player", password="a-long-passphrase-7"))
    for path in ("/playtest/", "/dread-draw/"):
        assert violations(page, path) == [], path


def test_a_page_showing_a_message_has_no_accessibility_violations(page, login, public_deck):
    """A message after an action (here a clone's "copied") is announced as a status and stays a list."""
    login(get_user_model().objects.create_user("a11y-cloner", password="a-long-passphrase-7"))
    page.goto(f"/decks/{public_deck.pk}/")
    page.get_by_role("button", name="Clone").click()
    page.get_by_role("status").locator(".messages li").first.wait_for()
    assert axe_violations(page) == []
