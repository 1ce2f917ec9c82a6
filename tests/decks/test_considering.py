"""Tags and the considering list: part of the deck, versioned with it, never counted or validated."""

import pytest

from decks.considering import TO_CONSIDERING, TO_DECK, deck_consider, deck_move_card, deck_tag_card
from decks.errors import DeckForbidden, InvalidDeck, StaleTag
from decks.models import MAX_TAG_LENGTH, ConsideringEntry, Deck, DeckEntry, Visibility
from decks.selectors import card_info, deck_considering, deck_entries, deck_report, deck_tags
from decks.services import (
    deck_change_cards,
    deck_copy,
    deck_create,
    deck_revert,
    deck_unpublish,
    deck_update,
    revision_diff,
)

from .factories import considering_of, entries_of, legal_pool, make_card, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck_and_pool(owner):
    pool = legal_pool(9)
    deck = deck_create(owner=owner, name="Tagged", entries=entries_of(*[(c, 4) for c in pool]))
    return deck, [card_info(c) for c in pool]


def revision(deck, number=None):
    return deck.revisions.get(number=number or Deck.objects.get(pk=deck.pk).version)


# --- tags -----------------------------------------------------------------------------------------------------


def test_tagging_a_card_saves_a_version_whose_message_and_snapshot_say_so(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck, change = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="ramp")
    assert (change.before, change.after, deck.version) == ("", "ramp", 2)
    assert deck_tags(deck) == {pool[0].collector_number: "ramp"}
    rev = revision(deck)
    assert rev.tags == {pool[0].collector_number: "ramp"} and rev.message == f"{pool[0].name}: tagged “ramp”"
    deck, change = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="draw")
    assert (change.before, change.after, deck.version) == ("ramp", "draw", 3)
    assert revision(deck).message == f"{pool[0].name}: tag “ramp” → “draw”"
    same, change = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag=" draw ")
    assert same.version == 3 and change.before == change.after == "draw"  # nothing changed, nothing saved
    deck, change = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="")
    assert deck.version == 4 and deck_tags(deck) == {} and revision(deck).tags == {}
    assert revision(deck).message == f"{pool[0].name}: tag “draw” removed"
    # The counts and the legality are those of the deck: a tag changes neither.
    assert deck.card_count == 36 and deck.is_legal


@pytest.mark.parametrize("tag, why", [
    ("x" * (MAX_TAG_LENGTH + 1), f"at most {MAX_TAG_LENGTH} characters"),
    ("big\tramp", "control characters"),
    ("two\nlines", "control characters"),
    ("\u202eevil", "control characters"),
    ("bell\x07", "control characters"),
])
def test_a_bad_tag_is_refused_naming_the_card_and_nothing_is_saved(owner, deck_and_pool, tag, why):
    deck, pool = deck_and_pool
    with pytest.raises(InvalidDeck) as exc:
        deck_tag_card(deck=deck, actor=owner, card=pool[0], tag=tag)
    assert pool[0].name in exc.value.message and why in exc.value.message
    assert exc.value.details["card"] == pool[0].collector_number
    assert Deck.objects.get(pk=deck.pk).version == 1 and deck_tags(deck) == {}


def test_a_tag_set_over_one_the_player_did_not_see_is_refused_saying_what_it_is(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="Alpha")  # another window's
    with pytest.raises(StaleTag, match="changed in another window, to “Alpha”") as refused:
        deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="Beta", was="")
    assert refused.value.status_code == 409 and deck_tags(Deck.objects.get(pk=deck.pk))[pool[0].collector_number] \
        == "Alpha"
    deck, change = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="Beta", was="Alpha")
    assert change.after == "Beta"
    with pytest.raises(StaleTag, match="taken off in another window"):
        deck_tag_card(deck=deck_tag_card(deck=deck, actor=owner, card=pool[1], tag="")[0], actor=owner,
                      card=pool[1], tag="x", was="old")


def test_a_tag_is_trimmed_and_may_be_as_long_as_the_limit(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck, change = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="  early   game ")
    assert change.after == "early game"
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[1], tag="é" * MAX_TAG_LENGTH)
    assert deck_tags(deck)[pool[1].collector_number] == "é" * MAX_TAG_LENGTH


def test_tags_that_look_alike_are_one_tag(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="ramp")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[1], tag="ra\u200bmp\u00ad")  # invisible characters
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[2], tag="cafe\u0301")  # é as e and an accent
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[3], tag="caf\u00e9")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[4], tag="RAMP")  # another case: the tag there is
    tags = deck_tags(deck)
    assert tags[pool[0].collector_number] == tags[pool[1].collector_number] == tags[pool[4].collector_number] == "ramp"
    assert tags[pool[2].collector_number] == tags[pool[3].collector_number] == "caf\u00e9"
    # The only card of a tag may change its case.
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[5], tag="solo")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[5], tag="Solo")
    assert deck_tags(deck)[pool[5].collector_number] == "Solo"


@pytest.mark.parametrize("twin", [
    "ramp\u200c", "\u200dramp", "ra\u200cmp", "ramp\u180e", "ramp\u2061", "ramp\u2064", "ra\u034fmp",
    "ramp\u3164", "\u115framp", "ramp\ufe0f", "ramp\u17b4", "ramp\u206a", "ramp\U000e0041", "ramp \u200b",
])
def test_a_tag_that_differs_from_another_only_by_characters_drawn_as_nothing_joins_it(owner, deck_and_pool, twin):
    """Every one of Unicode's default-ignorable characters, not a list of the usual ones: the twin is either
    cleaned to the tag or joins it, and the deck has one pile of that name."""
    deck, pool = deck_and_pool
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="ramp")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[1], tag=twin)
    assert set(deck_tags(deck).values()) == {"ramp"}


def test_a_tag_saved_through_the_api_loses_the_characters_drawn_as_nothing_that_shape_nothing(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck = deck_update(deck=deck, actor=owner, expected_version=deck.version, tags={
        pool[0].collector_number: "ramp\u2061\u3164", pool[1].collector_number: "\u200cdraw\u200d \u115f",
        pool[2].collector_number: "ra\u200cmp"})  # a joiner inside a word is kept: it may shape its script
    assert deck_tags(deck) == {pool[0].collector_number: "ramp", pool[1].collector_number: "draw",
                               pool[2].collector_number: "ra\u200cmp"}


def test_characters_that_shape_a_script_or_an_emoji_stay_in_a_tag(owner, deck_and_pool):
    deck, pool = deck_and_pool
    shaped = ["\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: a joiner that keeps two letters apart
              "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\u2764\ufe0f",  # a family, a heart drawn as a picture
              "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"]  # Scotland's flag
    for card, tag in zip(pool, shaped, strict=False):
        deck, _ = deck_tag_card(deck=deck, actor=owner, card=card, tag=tag)
    assert [deck_tags(deck)[card.collector_number] for card in pool[:len(shaped)]] == shaped


def test_only_a_card_of_the_main_deck_has_a_tag(owner, deck_and_pool):
    deck, pool = deck_and_pool
    outsider = card_info(make_card(name="Zz Not In The Deck"))
    deck_consider(deck=deck, actor=owner, card=outsider, delta=1)  # considered is not in the main deck
    with pytest.raises(InvalidDeck) as exc:
        deck_tag_card(deck=deck, actor=owner, card=outsider, tag="later")
    assert "Zz Not In The Deck is not in the main deck" in exc.value.message
    with pytest.raises(InvalidDeck) as exc:
        deck_update(deck=deck, actor=owner, expected_version=2, tags={outsider.collector_number: "later"})
    assert outsider.collector_number in exc.value.message
    assert Deck.objects.get(pk=deck.pk).version == 2


def test_a_card_that_leaves_the_main_deck_loses_its_tag(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="ramp")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[1], tag="draw")
    deck, _ = deck_change_cards(deck=deck, actor=owner, deltas=[(pool[0], -1)])
    assert deck_tags(deck)[pool[0].collector_number] == "ramp"  # fewer copies keep the tag
    deck, _ = deck_change_cards(deck=deck, actor=owner, deltas=[(pool[0], -3)])
    assert deck_tags(deck) == {pool[1].collector_number: "draw"}
    assert revision(deck).tags == {pool[1].collector_number: "draw"}
    deck, _ = deck_change_cards(deck=deck, actor=owner, deltas=[(pool[0], 2)])
    assert pool[0].collector_number not in deck_tags(deck)  # back in the deck, untagged
    # A whole new list keeps the tags of the cards that stay.
    deck = deck_update(deck=deck, actor=owner, expected_version=deck.version,
                       entries=[e for e in deck_entries(deck) if e.card.id != pool[2].id])
    assert deck_tags(deck) == {pool[1].collector_number: "draw"}


# --- the considering list -------------------------------------------------------------------------------------


def test_considering_copies_saves_a_version_each_and_says_so(owner, deck_and_pool):
    deck, pool = deck_and_pool
    pilfer = card_info(make_card("talent", name="Zz Pilfer"))
    deck, change = deck_consider(deck=deck, actor=owner, card=pilfer, delta=2)
    assert (change.before, change.after, change.refused, deck.version) == (0, 2, "", 2)
    assert considering_of(deck) == [(pilfer.collector_number, 2)]
    assert revision(deck).considering == [[pilfer.collector_number, 2]]
    assert revision(deck).message == "Considering Zz Pilfer: 0 → 2"
    deck, change = deck_consider(deck=deck, actor=owner, card=pool[0], delta=1)  # also in the deck: allowed
    assert revision(deck).considering == sorted([[pilfer.collector_number, 2], [pool[0].collector_number, 1]])
    deck, change = deck_consider(deck=deck, actor=owner, card=pilfer, delta=-5)
    assert (change.before, change.after, deck.version) == (2, 0, 4)
    assert considering_of(deck) == [(pool[0].collector_number, 1)]
    same, change = deck_consider(deck=deck, actor=owner, card=pilfer, delta=-1)
    assert same.version == 4 and change.before == change.after == 0  # nothing to remove, nothing saved
    assert sum(e.count for e in deck_entries(deck)) == 36  # the main deck never moved


def test_the_considering_list_holds_at_most_60_copies_of_a_card_and_never_the_gateway(owner, deck_and_pool):
    deck, _ = deck_and_pool
    card = card_info(make_card(name="Zz Many"))
    deck, change = deck_consider(deck=deck, actor=owner, card=card, delta=70)
    assert change.after == 60 and "at most 60 copies" in change.refused and "60 added" in change.refused
    gate = card_info(make_card("gateway", name="Zz Gate", vitality=None))
    with pytest.raises(InvalidDeck) as exc:
        deck_consider(deck=deck, actor=owner, card=gate, delta=1)
    assert "Zz Gate is the gateway card" in exc.value.message
    with pytest.raises(InvalidDeck):
        deck_update(deck=deck, actor=owner, expected_version=deck.version, considering=entries_of((gate, 1)))
    assert ConsideringEntry.objects.filter(deck=deck).count() == 1


def test_the_considering_list_is_neither_counted_nor_validated(owner, deck_and_pool):
    deck, pool = deck_and_pool
    assert deck.is_legal and deck.card_count == 36 and deck.crafts == "champion"
    unique = card_info(make_card("glyph", name="Zz Unique Glyph", unique=True, craft="sorcery"))
    others = [card_info(c) for c in legal_pool(12, craft="hinter")]
    deck = deck_update(deck=deck, actor=owner, expected_version=1,
                       considering=[*entries_of((unique, 5)), *entries_of(*[(c, 4) for c in others]),
                                    *entries_of((pool[0], 3))])  # 7 of a card with the deck's 4: not counted
    assert sum(e.count for e in deck_considering(deck)) == 56
    assert deck.is_legal and deck.card_count == 36 and deck.crafts == "champion"
    report = deck_report(deck)
    assert report.legal and report.count == 36 and report.errors == []
    # A deck that is only a considering list is an empty deck.
    empty = deck_create(owner=owner, name="Ideas", considering=entries_of(*[(c, 4) for c in others]))
    assert empty.card_count == 0 and not empty.is_legal and deck_entries(empty) == []


# --- moves ----------------------------------------------------------------------------------------------------


def test_moving_copies_into_the_deck_and_back_is_one_version_each(owner, deck_and_pool):
    deck, pool = deck_and_pool
    newcomer = card_info(make_card(name="Zz Newcomer"))
    deck, _ = deck_consider(deck=deck, actor=owner, card=newcomer, delta=3)
    deck, move = deck_move_card(deck=deck, actor=owner, card=newcomer, count=2, to=TO_DECK, tag="ramp")
    assert deck.version == 3 and move.moved == 2 and move.refused == ""
    assert (move.deck_before, move.deck_after, move.considering_before, move.considering_after) == (0, 2, 3, 1)
    assert (move.tag_before, move.tag_after) == ("", "ramp")
    assert deck.card_count == 38 and deck_tags(deck)[newcomer.collector_number] == "ramp"
    rev = revision(deck)
    assert [newcomer.collector_number, 2] in rev.cards and rev.considering == [[newcomer.collector_number, 1]]
    assert rev.tags == {newcomer.collector_number: "ramp"}
    assert rev.message == "Moved 2 Zz Newcomer into the deck, tagged “ramp”"
    # Undo: the same function, the other way.
    deck, back = deck_move_card(deck=deck, actor=owner, card=newcomer, count=move.moved, to=TO_CONSIDERING,
                                tag=move.tag_before)
    assert deck.version == 4 and back.moved == 2 and back.tag_after == ""
    assert deck.card_count == 36 and newcomer.collector_number not in deck_tags(deck)
    assert considering_of(deck) == [(newcomer.collector_number, 3)]
    assert revision(deck).message == "Moved 2 Zz Newcomer to the considering list"
    # Out of the deck and back again: the undo's tag comes back with it.
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="core")
    deck, out = deck_move_card(deck=deck, actor=owner, card=pool[0], count=4, to=TO_CONSIDERING)
    assert out.tag_before == "core" and pool[0].collector_number not in deck_tags(deck)
    deck, _ = deck_move_card(deck=deck, actor=owner, card=pool[0], count=out.moved, to=TO_DECK, tag=out.tag_before)
    assert deck_tags(deck)[pool[0].collector_number] == "core" and deck.card_count == 36


def test_moving_into_the_deck_stops_at_the_copy_limit_and_says_why(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck = deck_update(deck=deck, actor=owner, expected_version=1,
                       entries=[*entries_of(*[(c, 4) for c in pool[1:]]), *entries_of((pool[0], 3))],
                       considering=entries_of((pool[0], 4)))
    deck, move = deck_move_card(deck=deck, actor=owner, card=pool[0], count=3, to=TO_DECK)
    assert move.moved == 1 and move.deck_after == 4 and move.considering_after == 3
    assert move.refused == f"{pool[0].name}: at most 4 copies of a card; 1 moved."
    version = deck.version
    with pytest.raises(InvalidDeck) as exc:
        deck_move_card(deck=deck, actor=owner, card=pool[0], count=1, to=TO_DECK)
    assert exc.value.code == "copies_over_limit"
    assert exc.value.message == f"{pool[0].name}: at most 4 copies of a card, and the deck has 4: nothing was moved."
    assert Deck.objects.get(pk=deck.pk).version == version and considering_of(deck) == [(pool[0].collector_number, 3)]
    legend = card_info(make_card("legend", name="Zz One Legend", unique=True))
    deck, _ = deck_consider(deck=deck, actor=owner, card=legend, delta=2)
    deck, move = deck_move_card(deck=deck, actor=owner, card=legend, count=2, to=TO_DECK)
    assert move.moved == 1 and "has the unique icon: at most 1 copy" in move.refused
    with pytest.raises(InvalidDeck) as exc:
        deck_move_card(deck=deck, actor=owner, card=legend, count=1, to=TO_DECK)
    assert exc.value.code == "unique_over_limit" and "unique icon" in exc.value.message


def test_a_move_takes_no_more_than_there_is(owner, deck_and_pool):
    deck, pool = deck_and_pool
    card = card_info(make_card(name="Zz Scarce"))
    with pytest.raises(InvalidDeck) as exc:
        deck_move_card(deck=deck, actor=owner, card=card, count=1, to=TO_DECK)
    assert exc.value.message == "Zz Scarce is not on the considering list."
    with pytest.raises(InvalidDeck) as exc:
        deck_move_card(deck=deck, actor=owner, card=card, count=1, to=TO_CONSIDERING)
    assert exc.value.message == "Zz Scarce is not in the main deck."
    deck, _ = deck_consider(deck=deck, actor=owner, card=card, delta=1)
    deck, move = deck_move_card(deck=deck, actor=owner, card=card, count=3, to=TO_DECK)
    assert move.moved == 1 and move.refused == "Only 1 Zz Scarce on the considering list; 1 moved."
    deck, move = deck_move_card(deck=deck, actor=owner, card=pool[0], count=9, to=TO_CONSIDERING)
    assert move.moved == 4 and move.refused == f"Only 4 {pool[0].name} in the deck; 4 moved."
    for bad in ({"count": 0}, {"count": -1}, {"count": True}, {"to": "sideboard"}):
        with pytest.raises(InvalidDeck):
            deck_move_card(deck=deck, actor=owner, card=card, **{"count": 1, "to": TO_CONSIDERING, **bad})


def test_every_edit_lands_on_the_latest_version(owner, deck_and_pool):
    deck, pool = deck_and_pool
    seen = Deck.objects.get(pk=deck.pk)  # an editor's page, left behind by a save in another window
    deck_update(deck=deck, actor=owner, expected_version=1, name="Renamed elsewhere")
    extra = card_info(make_card(name="Zz Latest"))
    deck, _ = deck_consider(deck=seen, actor=owner, card=extra, delta=1)
    deck, _ = deck_tag_card(deck=seen, actor=owner, card=pool[0], tag="ramp")
    deck, _ = deck_move_card(deck=seen, actor=owner, card=extra, count=1, to=TO_DECK)
    row = Deck.objects.get(pk=deck.pk)
    assert row.version == 5 and row.name == "Renamed elsewhere"
    assert deck_tags(row) == {pool[0].collector_number: "ramp"} and row.card_count == 37


def test_a_deck_just_read_but_saved_meanwhile_still_takes_each_edit_on_the_latest_version(owner, deck_and_pool):
    """The editor's saves try first on the deck their request read (`just_read`); one that another save overtook
    in between conflicts, and the edit lands on the latest version, as it does from a new read."""
    deck, pool = deck_and_pool
    extra = card_info(make_card(name="Zz Just Read"))
    for n, edit in enumerate((
            lambda seen: deck_consider(deck=seen, actor=owner, card=extra, delta=1, just_read=True),
            lambda seen: deck_move_card(deck=seen, actor=owner, card=extra, count=1, to=TO_DECK, just_read=True),
            lambda seen: deck_tag_card(deck=seen, actor=owner, card=extra, tag="late", just_read=True),
            lambda seen: deck_change_cards(deck=seen, actor=owner, deltas=[(extra, 1)], just_read=True))):
        seen = Deck.objects.get(pk=deck.pk)
        deck_entries(seen), deck_considering(seen)  # what the request read, before the other window's save
        version = seen.version
        other = Deck.objects.get(pk=deck.pk)
        deck_update(deck=other, actor=owner, expected_version=version, name=f"Renamed elsewhere {n}")
        saved, _ = edit(seen)
        row = Deck.objects.get(pk=deck.pk)
        assert (saved.version, row.version, row.name) == (version + 2, version + 2, f"Renamed elsewhere {n}")
    assert considering_of(row) == [] and deck_tags(row)[extra.collector_number] == "late"
    assert {e.card.id: e.count for e in deck_entries(row)}[extra.id] == 2


def test_only_the_owner_may_tag_consider_or_move(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck_update(deck=deck, actor=owner, expected_version=1, visibility=Visibility.PUBLIC,
                considering=entries_of((pool[0], 1)))
    before = (Deck.objects.get(pk=deck.pk).version, list(DeckEntry.objects.filter(deck=deck).values_list("tag")),
              considering_of(deck))
    for actor in (make_user(), make_user(staff=True), None):
        with pytest.raises(DeckForbidden):
            deck_tag_card(deck=deck, actor=actor, card=pool[0], tag="mine")
        with pytest.raises(DeckForbidden):
            deck_consider(deck=deck, actor=actor, card=pool[1], delta=1)
        with pytest.raises(DeckForbidden):
            deck_move_card(deck=deck, actor=actor, card=pool[0], count=1, to=TO_DECK)
        with pytest.raises(DeckForbidden):
            deck_update(deck=deck, actor=actor, expected_version=2, considering=[])
    assert (Deck.objects.get(pk=deck.pk).version, list(DeckEntry.objects.filter(deck=deck).values_list("tag")),
            considering_of(deck)) == before


# --- history --------------------------------------------------------------------------------------------------


def test_revert_brings_back_the_tags_and_the_considering_list_and_the_diff_shows_them(owner, deck_and_pool):
    deck, pool = deck_and_pool
    pilfer = card_info(make_card("talent", name="Zz Pilfer"))
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="ramp")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[1], tag="draw")
    deck, _ = deck_consider(deck=deck, actor=owner, card=pilfer, delta=2)  # version 4
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="draw")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[1], tag="")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[2], tag="late")
    deck, _ = deck_consider(deck=deck, actor=owner, card=pilfer, delta=-1)
    deck, _ = deck_consider(deck=deck, actor=owner, card=pool[3], delta=1)
    assert deck.version == 9
    diff = revision_diff(revision(deck, 4), revision(deck, 9))
    assert diff["cards"] == [] and diff["fields"] == {}
    assert diff["considering"] == sorted([
        {"card": pilfer.collector_number, "before": 2, "after": 1, "delta": -1},
        {"card": pool[3].collector_number, "before": 0, "after": 1, "delta": 1}], key=lambda c: c["card"])
    assert diff["tags"] == sorted([
        {"card": pool[0].collector_number, "before": "ramp", "after": "draw"},
        {"card": pool[1].collector_number, "before": "draw", "after": ""},
        {"card": pool[2].collector_number, "before": "", "after": "late"}], key=lambda c: c["card"])
    deck = deck_revert(deck=deck, actor=owner, number=4, expected_version=9)
    assert deck.version == 10 and revision(deck).message == "Reverted to version 4"
    assert deck_tags(deck) == {pool[0].collector_number: "ramp", pool[1].collector_number: "draw"}
    assert considering_of(deck) == [(pilfer.collector_number, 2)]
    assert revision_diff(revision(deck, 4), revision(deck, 10)) == {
        "from": 4, "to": 10, "cards": [], "considering": [], "tags": [], "fields": {}}
    deck = deck_revert(deck=deck, actor=owner, number=1, expected_version=10)
    assert deck_tags(deck) == {} and considering_of(deck) == []


def test_a_tag_that_leaves_with_its_card_is_not_a_tag_change(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="ramp")
    deck, _ = deck_change_cards(deck=deck, actor=owner, deltas=[(pool[0], -4)])
    diff = revision_diff(revision(deck, 2), revision(deck, 3))
    assert diff["tags"] == [] and [c["card"] for c in diff["cards"]] == [pool[0].collector_number]


def test_a_revision_written_before_tags_reads_as_no_tags_and_nothing_considered(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="ramp")
    deck, _ = deck_consider(deck=deck, actor=owner, card=pool[1], delta=1)
    old = deck.revisions.model(deck=deck, number=99, name="Old", format="standard",
                               cards=[[c.collector_number, 4] for c in pool])
    assert old.tags == {} and old.considering == []
    diff = revision_diff(old, revision(deck))
    assert diff["tags"] == [{"card": pool[0].collector_number, "before": "", "after": "ramp"}]
    assert diff["considering"] == [{"card": pool[1].collector_number, "before": 0, "after": 1, "delta": 1}]


def test_copy_and_unpublish_keep_the_tags_and_the_considering_list(owner, deck_and_pool):
    deck, pool = deck_and_pool
    deck_update(deck=deck, actor=owner, expected_version=1, visibility=Visibility.PUBLIC,
                tags={pool[0].collector_number: "ramp"}, considering=entries_of((pool[1], 2)))
    copy = deck_copy(deck=deck, owner=make_user())
    assert deck_tags(copy) == {pool[0].collector_number: "ramp"}
    assert considering_of(copy) == [(pool[1].collector_number, 2)]
    assert revision(copy).tags == {pool[0].collector_number: "ramp"}
    deck = deck_unpublish(deck=deck, actor=make_user(staff=True))
    assert revision(deck).tags == {pool[0].collector_number: "ramp"}
    assert revision(deck).considering == [[pool[1].collector_number, 2]]


def test_the_history_page_says_what_changed_in_words(client, owner, deck_and_pool):
    deck, pool = deck_and_pool
    pilfer = card_info(make_card("talent", name="Zz Pilfer"))
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="ramp")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[1], tag="early")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[0], tag="draw")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[1], tag="")
    deck, _ = deck_tag_card(deck=deck, actor=owner, card=pool[2], tag="late")
    deck, _ = deck_consider(deck=deck, actor=owner, card=pilfer, delta=2)
    client.force_login(owner)
    html = client.get(f"/decks/{deck.pk}/history/?from=3&to={deck.version}").content.decode()
    assert "Considering: +2 Zz Pilfer" in html
    assert f"{pool[0].name}: tag “ramp” → “draw”" in html
    assert f"{pool[1].name}: tag “early” removed" in html
    assert f"{pool[2].name}: tagged “late”" in html
    assert "No differences" not in html
    assert f"{pool[0].name}: tag “ramp” → “draw”" in html  # the revision's message too
    assert "1 considered" in html
    back = client.get(f"/decks/{deck.pk}/history/?from={deck.version}&to=3").content.decode()
    assert "Considering: -2 Zz Pilfer" in back
