"""A read compiled once (decks/prepared.py) gives what the queryset's own get gives: every loaded field of the row
and of each related row, a related row that is absent as None without a query, and DoesNotExist for a key no row
has, including one past what the id column holds."""

import pytest
from django.db.models import Model

from decks.considering import deck_consider, deck_tag_card
from decks.models import Deck, Visibility
from decks.prepared import PreparedGet
from decks.selectors import _CONSIDERING_ROWS, _ENTRY_ROWS, _INFO_FIELDS, _VIEWER_FIELDS, _VIEWER_READ, deck_entries
from decks.services import deck_copy, deck_update
from tests.decks.factories import make_user

pytestmark = pytest.mark.django_db

RELATED = ("owner", "gateway", "copied_from")


def loaded(obj: Model) -> dict:
    """The fields an instance holds (not deferred), by attribute name."""
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
            if f.attname in obj.__dict__}


def the_orm(pk: int) -> Deck:
    return Deck.objects.select_related(*RELATED).only(*_VIEWER_FIELDS).get(pk=pk)


@pytest.fixture
def decks():
    """Starters (no owner, a gateway), a copy of one (owner and source), and a copy of that copy made unlisted."""
    starters = list(Deck.objects.filter(is_starter=True).order_by("pk")[:3])
    owner = make_user()
    copy = deck_copy(deck=starters[0], owner=owner, name="A copy")
    again = deck_copy(deck=copy, owner=make_user(), name="A copy of a copy")
    again = deck_update(deck=again, actor=again.owner, expected_version=again.version, visibility=Visibility.UNLISTED,
                        description="Unlisted, with words: ünïcödé and \u2014 dashes")
    return [*starters, copy, again]


def test_a_prepared_read_gives_what_the_orm_gives(decks, django_assert_num_queries):
    assert any(deck.owner_id is None for deck in decks) and any(deck.copied_from_id for deck in decks)
    for deck in decks:
        expected = the_orm(deck.pk)
        with django_assert_num_queries(1):
            got = _VIEWER_READ.get(deck.pk)
            for name in RELATED:  # brought along, or None: no query either way
                related, related_expected = getattr(got, name), getattr(expected, name)
                assert (related is None) == (related_expected is None), name
                if related is not None:
                    assert loaded(related) == loaded(related_expected), name
        assert type(got) is Deck and got.pk == deck.pk
        assert loaded(got) == loaded(expected)
        assert set(got.get_deferred_fields()) == set(expected.get_deferred_fields())
        assert got._state.db == expected._state.db and not got._state.adding


@pytest.mark.parametrize("key", [0, -1, 10**12, 2**63 - 1, 2**63, 10**30])
def test_a_key_no_row_has_is_does_not_exist(key, decks):
    with pytest.raises(Deck.DoesNotExist):
        _VIEWER_READ.get(key)
    assert _ENTRY_ROWS.rows(key) == ()


def test_prepared_rows_are_the_orms_rows(decks):
    """The main deck's rows and the considering list's, in the ORM's order, with its values (tags, counts)."""
    deck = decks[3]
    first, second = (entry.card for entry in deck_entries(deck)[:2])
    deck, _ = deck_tag_card(deck=deck, actor=deck.owner, card=first, tag="Engine")
    deck, _ = deck_consider(deck=deck, actor=deck.owner, card=second, delta=2)
    columns = [f"card__{f}" for f in _INFO_FIELDS]
    for each in decks:
        entries = tuple(each.entries.order_by("card__name").values_list(*columns, "count", "tag"))
        considering = tuple(each.considering.order_by("card__name").values_list(*columns, "count"))
        pairs = ((_ENTRY_ROWS.rows(each.pk), entries), (_CONSIDERING_ROWS.rows(each.pk), considering))
        for prepared, expected in pairs:
            assert prepared == expected
            assert [[type(v) for v in row] for row in prepared] == [[type(v) for v in row] for row in expected]
    assert any(row[-1] == "Engine" for row in _ENTRY_ROWS.rows(deck.pk)) and _CONSIDERING_ROWS.rows(deck.pk)


def test_a_statement_with_other_parameters_is_refused():
    prepared = PreparedGet(lambda key: Deck.objects.filter(name="x", pk=key))
    with pytest.raises(ValueError, match="only parameter"):
        prepared.get(1)
