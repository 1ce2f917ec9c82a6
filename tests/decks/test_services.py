"""Deck services: revisions on every save, optimistic concurrency, copy, revert, delete, import."""

import pytest

from cards.models import Card
from decks.errors import DeckForbidden, InvalidDeck, InvalidDeckList, StaleVersion, VersionRequired
from decks.models import Deck, DeckEntry, DeckRevision, Visibility
from decks.selectors import deck_entries, deck_report, deck_tags
from decks.services import (
    deck_copy,
    deck_create,
    deck_delete,
    deck_import,
    deck_revert,
    deck_unpublish,
    deck_update,
    revision_diff,
    words_within,
)

from .factories import considering_of, entries_of, legal_pool, make_card, make_user

pytestmark = pytest.mark.django_db


def legal_deck(owner, **kwargs):
    pool = legal_pool(9)
    return deck_create(owner=owner, name="Pikes", entries=entries_of(*[(c, 4) for c in pool]), **kwargs), pool


def test_create_writes_entries_derived_fields_and_revision_one():
    owner = make_user()
    deck, pool = legal_deck(owner)
    assert deck.version == 1 and deck.card_count == 36 and deck.is_legal
    assert deck.crafts == "champion"
    assert DeckEntry.objects.filter(deck=deck).count() == 9
    rev = deck.revisions.get()
    assert rev.number == 1 and rev.author == owner
    assert sorted(rev.cards) == sorted([c.collector_number, 4] for c in pool)


def test_a_new_deck_gets_the_gateway_pair_unless_its_format_has_no_gateway():
    """DC-7: every new Standard or Quick deck gets the catalog's gateway card; a new Tactical deck none."""
    gate = make_card("gateway", name="The Gate", vitality=None)
    owner = make_user()
    assert deck_create(owner=owner, name="Race", format="standard").gateway == gate
    assert deck_create(owner=owner, name="Quick race", format="quick").gateway == gate
    assert deck_create(owner=owner, name="Battle", format="tactical").gateway is None


def test_illegal_deck_can_be_saved_as_work_in_progress():
    deck = deck_create(owner=make_user(), name="WIP", entries=entries_of((make_card(), 2)))
    assert deck.card_count == 2 and not deck.is_legal


def test_update_bumps_version_and_adds_a_revision():
    owner = make_user()
    deck, pool = legal_deck(owner)
    extra = make_card(name="Zz Extra Pike")
    deck = deck_update(deck=deck, actor=owner, expected_version=1, name="Pikes II",
                       entries=entries_of(*[(c, 4) for c in pool], (extra, 2)))
    assert deck.version == 2 and deck.name == "Pikes II" and deck.card_count == 38
    assert list(deck.revisions.values_list("number", flat=True)) == [2, 1]


def test_a_deck_objects_lists_read_once_follow_its_writes(django_assert_num_queries):
    """A version's lists are read once for a deck object (decks.selectors); a write through that object is seen
    by its next read, and one that leaves a list as it was carries what was read to the new version."""
    owner = make_user()
    deck, pool = legal_deck(owner)
    deck = Deck.objects.get(pk=deck.pk)
    first = deck_entries(deck)
    with django_assert_num_queries(0):
        assert deck_entries(deck) == first and deck_tags(deck) == {}
    deck = deck_update(deck=deck, actor=owner, expected_version=1, name="Pikes II")
    with django_assert_num_queries(0):  # the name changed, not the cards
        assert deck_entries(deck) == first
    extra = make_card(name="Zz Extra Pike")
    deck = deck_update(deck=deck, actor=owner, expected_version=2, entries=entries_of(*[(c, 4) for c in pool],
                                                                                      (extra, 2)),
                       tags={pool[0].collector_number: "ramp"})
    assert deck.version == 3 and deck.name == "Pikes II" and deck.card_count == 38
    assert {e.card.name for e in deck_entries(deck)} == {c.name for c in pool} | {"Zz Extra Pike"}
    assert deck_tags(deck) == {pool[0].collector_number: "ramp"}
    assert Deck.objects.get(pk=deck.pk).updated_at == deck.updated_at  # the object is the row written


def test_stale_or_missing_version_is_refused_and_the_other_edit_is_kept():
    owner = make_user()
    deck, pool = legal_deck(owner)
    first = Deck.objects.get(pk=deck.pk)
    second = Deck.objects.get(pk=deck.pk)
    deck_update(deck=first, actor=owner, expected_version=1, name="Edited in tab one")
    with pytest.raises(StaleVersion) as exc:
        deck_update(deck=second, actor=owner, expected_version=1, name="Edited in tab two")
    assert exc.value.status_code == 412 and exc.value.details == {"expected": 1, "current": 2}
    with pytest.raises(VersionRequired):
        deck_update(deck=second, actor=owner, expected_version=None, name="No version")
    row = Deck.objects.get(pk=deck.pk)
    assert row.name == "Edited in tab one" and row.version == 2
    assert DeckRevision.objects.filter(deck=deck).count() == 2


def test_only_the_owner_may_write():
    deck, _ = legal_deck(make_user(), visibility=Visibility.PUBLIC)
    with pytest.raises(DeckForbidden):
        deck_update(deck=deck, actor=make_user(), expected_version=1, name="Mine now")
    with pytest.raises(DeckForbidden):
        deck_delete(deck=deck, actor=make_user(staff=True), expected_version=1)
    assert Deck.objects.get(pk=deck.pk).name == "Pikes"


def test_diff_and_revert():
    owner = make_user()
    deck, pool = legal_deck(owner)
    new = make_card(name="Zz Newcomer")
    deck = deck_update(deck=deck, actor=owner, expected_version=1, name="Changed",
                       entries=entries_of(*[(c, 4) for c in pool[1:]], (pool[0], 2), (new, 3)))
    r1, r2 = deck.revisions.get(number=1), deck.revisions.get(number=2)
    diff = revision_diff(r1, r2)
    assert diff["fields"] == {"name": {"before": "Pikes", "after": "Changed"}}
    assert {(c["card"], c["before"], c["after"]) for c in diff["cards"]} == {
        (pool[0].collector_number, 4, 2), (new.collector_number, 0, 3)}
    deck = deck_revert(deck=deck, actor=owner, number=1, expected_version=2)
    assert deck.version == 3 and deck.name == "Pikes"
    assert sorted((e.card.id, e.count) for e in deck_entries(deck)) == sorted((c.id, 4) for c in pool)
    assert deck.revisions.get(number=3).message == "Reverted to version 1"
    assert revision_diff(r1, deck.revisions.get(number=3))["cards"] == []


def test_revisions_are_immutable():
    deck, _ = legal_deck(make_user())
    rev = deck.revisions.get()
    rev.name = "rewritten"
    with pytest.raises(ValueError):
        rev.save()


def test_copy_is_private_to_the_copier_and_records_its_source():
    deck, pool = legal_deck(make_user(), visibility=Visibility.PUBLIC)
    me = make_user()
    copy = deck_copy(deck=deck, owner=me)
    assert copy.owner == me and copy.copied_from == deck and copy.visibility == Visibility.PRIVATE
    assert copy.name == "Pikes (copy)" and copy.card_count == 36


def test_delete_with_version_and_cards_in_use_are_protected():
    owner = make_user()
    deck, pool = legal_deck(owner)
    from django.db.models import ProtectedError
    with pytest.raises(ProtectedError):
        Card.objects.filter(pk=pool[0].pk).delete()
    with pytest.raises(StaleVersion):
        deck_delete(deck=deck, actor=owner, expected_version=7)
    deck_delete(deck=deck, actor=owner, expected_version=1)
    assert not Deck.objects.filter(pk=deck.pk).exists()


def test_import_saves_nothing_until_every_bad_line_is_fixed():
    owner = make_user()
    pike = make_card(name="Zz Import Pike")
    glyph = make_card("glyph", name="Zz Import Glyph", unique=True)
    text = f"4 {pike.name}\n2 {glyph.name}\n3 Zz Imprt Pike\n5 {pike.collector_number}\nnonsense here"
    with pytest.raises(InvalidDeckList) as exc:
        deck_import(owner=owner, text=text)
    problems = exc.value.details["problems"]
    assert [(p["line"], p["code"]) for p in problems] == [
        (2, "unique_over_limit"), (3, "unknown_card"), (4, "copies_over_limit"), (5, "bad_line")]
    assert "Zz Import Pike" in problems[1]["suggestions"]
    assert not Deck.objects.filter(owner=owner).exists()
    deck = deck_import(owner=owner, text=f"# name: Fixed\n# format: quick\n4 {pike.name}\n1 {glyph.name}")
    assert deck.name == "Fixed" and deck.format == "quick" and deck.card_count == 5


def test_staff_unpublish_makes_a_public_deck_private():
    owner = make_user()
    deck, _ = legal_deck(owner, visibility=Visibility.PUBLIC)
    with pytest.raises(DeckForbidden):
        deck_unpublish(deck=deck, actor=make_user())
    deck = deck_unpublish(deck=deck, actor=make_user(staff=True))
    assert deck.visibility == Visibility.PRIVATE and deck.version == 2
    assert "Unpublished by staff" in deck.revisions.get(number=2).message


def test_dc9_an_imported_sideboard_goes_to_the_considering_list_never_into_the_deck():
    """DC-9: 36 cards and a 4-card sideboard make a 36-card deck considering 4, in the import's one version."""
    owner = make_user()
    pool = legal_pool(10)
    main = "".join(f"4 {card.name}\n" for card in pool[:9])
    deck = deck_import(owner=owner, text=f"\ufeffDeck\n{main}\nSideboard\n3 {pool[9].name}\nSB: 1 {pool[0].name}")
    assert deck.card_count == 36 and deck.is_legal
    assert sorted(considering_of(deck)) == sorted([(pool[9].collector_number, 3), (pool[0].collector_number, 1)])
    assert sorted(deck.revisions.get().considering) == sorted(map(list, considering_of(deck)))


def test_a_deck_code_is_imported_under_the_same_rules_as_its_text_and_json():
    from decks.selectors import deck_export_code, deck_export_json, deck_export_text

    owner = make_user()
    pike = make_card(name="Zz Code Pike")
    legend = make_card("legend", name="Zz Code Legend", unique=True)
    saved = deck_create(owner=owner, name="Over", entries=entries_of((pike, 5), (legend, 2)))  # work in progress
    refusals = []
    for kwargs in ({"code": deck_export_code(saved)}, {"text": deck_export_text(saved)},
                   {"data": deck_export_json(saved)}):
        with pytest.raises(InvalidDeckList) as exc:
            deck_import(owner=owner, **kwargs)
        refusals.append(sorted((p["code"], p.get("card")) for p in exc.value.details["problems"]))
    assert refusals[0] == refusals[1] == refusals[2] == sorted(
        [("copies_over_limit", pike.collector_number), ("unique_over_limit", legend.collector_number)])
    assert Deck.objects.filter(owner=owner).count() == 1  # nothing saved
    fixed = deck_create(owner=owner, name="Fine", entries=entries_of((pike, 4), (legend, 1)))
    again = deck_import(owner=owner, code=deck_export_code(fixed))
    assert sorted(e.count for e in deck_entries(again)) == [1, 4]


def test_a_message_of_many_changes_names_whole_ones_and_counts_the_rest():
    """A version's message holds 200 characters: cut there, "Abbot of the Last Prayer: 0 → 4" read "…: 0"."""
    parts = [f"Abbot of the Chapel number {n}: 0 → 4" for n in range(8)]  # 35 characters each, 8 in 294
    words = words_within(parts)
    assert len(words) <= 200 and words.endswith("; 3 more")
    assert words.split("; ")[:-1] == parts[:5]
    assert words_within(parts[:2]) == "; ".join(parts[:2])
    assert words_within(parts, lead="Tuning: ").startswith("Tuning: Abbot")


def test_a_deck_name_is_saved_without_the_characters_drawn_as_nothing():
    """A zero-width space or a soft hyphen in a name makes a twin of another name that a player cannot tell apart
    (as in a tag): it is taken out, on creation and on a rename; a name of nothing else is no name."""
    owner = make_user()
    deck = deck_create(owner=owner, name=" Zz\u200bRamp\u00ad ", entries=[])
    assert deck.name == "ZzRamp"
    renamed = deck_update(deck=deck, actor=owner, expected_version=deck.version, name="Big\u2060 Ramp")
    assert renamed.name == "Big Ramp"
    with pytest.raises(InvalidDeck, match="needs a name"):
        deck_create(owner=owner, name="\u200b\u200b", entries=[])


def test_a_main_deck_of_one_card_is_said_in_the_singular():
    report = deck_report(deck_create(owner=make_user(), name="One", entries=entries_of((legal_pool(1)[0], 1))))
    assert any("The main deck has 1 card; " in issue.message for issue in report.errors)
