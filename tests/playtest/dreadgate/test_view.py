"""A seat's view: what it shows, and determinized states drawn from it (the hidden cards drawn again)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from playtest.dreadgate import observation
from playtest.dreadgate.state import DISCARD_PHASE, _in_order
from playtest.dreadgate.view import SeatView

from .test_properties import FORMATS, SETTINGS, check_invariants, full_state, play_random, start


def _knows_hand(s, seat: int) -> bool:
    """The chooser of a discard sees the hand it chooses from."""
    return s.phase == DISCARD_PHASE and s.decider == seat and s.discards[0][1] == 1 - seat


def hide_differently(s, seat: int, rnd: random.Random):
    """A state that differs from s only in what `seat` can't see: the opponent's unseen hand cards traded with
    its deck, both decks in another order, another random source."""
    t = s.copy()
    other = 1 - seat
    shown = set(s.revealed[seat]) | (set(s.hand[other]) if _knows_hand(s, seat) else set())
    hidden = [i for i in t.hand[other] if i not in shown]
    pool = hidden + t.deck[other]
    rnd.shuffle(pool)
    new = iter(pool[: len(hidden)])
    t.hand[other] = [i if i in shown else next(new) for i in t.hand[other]]
    t.deck[other] = pool[len(hidden) :]
    rnd.shuffle(t.deck[seat])
    t.rs = rnd.getrandbits(64)
    t._stamp += 1
    return t


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 400), seat=st.integers(0, 1))
def test_states_that_differ_only_in_hidden_cards_look_the_same_and_determinize_the_same(seed, fmt, steps, seat):
    s = start(seed, fmt)
    play_random(s, random.Random(seed), steps)
    t = hide_differently(s, seat, random.Random(seed + 1))
    assert full_state(t) != full_state(s) or len(s.deck[1 - seat]) + len(s.hand[1 - seat]) < 2
    assert observation(s, seat) == observation(t, seat)
    assert SeatView(s, seat).legal_actions() == SeatView(t, seat).legal_actions()
    for k in range(3):  # the same random draws give the same determinized state: the same distribution
        a = SeatView(s, seat).determinize(random.Random(k))
        b = SeatView(t, seat).determinize(random.Random(k))
        assert full_state(a) == full_state(b)


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 400), seat=st.integers(0, 1))
def test_a_determinized_state_keeps_what_the_seat_knows_and_plays_on(seed, fmt, steps, seat):
    s = start(seed, fmt)
    rnd = random.Random(seed)
    play_random(s, rnd, steps)
    before = full_state(s)
    d = s.determinize(seat, random.Random(seed + 7))
    assert full_state(s) == before  # the true state is untouched
    other = 1 - seat
    assert observation(d, seat) == observation(s, seat)
    assert d.hand[seat] == s.hand[seat]
    assert sorted(d.hand[other] + d.deck[other]) == sorted(s.hand[other] + s.deck[other])
    assert sorted(d.deck[seat]) == sorted(s.deck[seat])
    for iid in s.revealed[seat]:
        if iid in s.hand[other]:
            assert d.hand[other].index(iid) == s.hand[other].index(iid)
    if s.current_player == seat:
        assert d.legal_actions() == s.legal_actions()
    check_invariants(d)
    play_random(d, rnd, 60, every=check_invariants)


@SETTINGS
@given(seed=st.integers(0, 2**40), fmt=FORMATS, steps=st.integers(0, 400))
def test_a_view_determinizes_with_its_legal_actions_and_a_line_plays_again_unchecked_as_it_played(seed, fmt, steps):
    """A view's determinized state keeps the view's legal actions (they depend on nothing hidden) rather than working
    them out again; and an action played again after undo with `known_legal` plays exactly as it did."""
    s = start(seed, fmt)
    rnd = random.Random(seed)
    play_random(s, rnd, steps)
    if s.is_over():
        return
    seat = s.current_player
    view = SeatView(s, seat)
    legal = view.legal_actions()
    d = view.determinize(random.Random(seed + 3))
    assert d.legal_actions() == legal
    d._legal = None
    assert d.legal_actions() == legal
    line = []
    for _ in range(6):
        if d.is_over():
            break
        line.append(rnd.choice(d.legal_actions()))
        d.apply(line[-1])
    played = full_state(d)
    for _ in line:
        d.undo()
    for action in line:
        d.apply(action, known_legal=True)
    assert full_state(d) == played


def test_determinizing_draws_the_opponents_hand_and_both_decks_again():
    s = start(3, "standard")
    play_random(s, random.Random(3), 12)
    seat, other = s.current_player, 1 - s.current_player
    hands, decks, own_decks, sources = set(), set(), set(), set()
    for k in range(40):
        d = s.determinize(seat, random.Random(k))
        hands.add(tuple(sorted(d.inst[i].code for i in d.hand[other])))
        # A deck's order is drawn when a draw first reaches it: until then the decks are in order of id.
        assert all(d.deck[p] == sorted(d.deck[p]) for p in (0, 1))
        d._order_deck(seat)  # as the first draw from each would
        d._order_deck(other)
        decks.add(tuple(d.deck[other]))
        own_decks.add(tuple(d.deck[seat]))
        sources.add(d.rs)
        assert d.hand[seat] == s.hand[seat]
    assert len(hands) > 1 and len(decks) > 1 and len(own_decks) > 1 and len(sources) == 40
    assert s.rs not in sources


def test_a_seat_view_shows_no_hidden_card():
    s = start(5, "standard")
    play_random(s, random.Random(5), 30)
    view = SeatView(s, 0)
    assert view.hand == s.hand[0]
    assert not any(hasattr(view, name) for name in ("deck", "rs", "seed", "history", "_undo"))
    assert (view.hand_size(1), view.deck_size(1)) == (len(s.hand[1]), len(s.deck[1]))
    assert "hand" not in view.observation()["players"][1]
    if s.current_player != 0:
        assert view.legal_actions() == []


def test_zones_put_in_order_of_id_are_remembered_by_content_never_by_the_list():
    """Sealing sorts the decks and the opponent's hidden hand through a memo keyed on their content: the same ids
    in order whatever list they come from, and a list changed after a call (or the copy a call returned) never
    brings back a stale order, also once the memo has been emptied for its bound."""
    rnd = random.Random(5)
    deck = list(range(40))
    rnd.shuffle(deck)
    first = _in_order(deck)
    assert first == sorted(deck)
    first.reverse()  # the caller's copy: changing it changes nothing remembered
    assert _in_order(deck) == sorted(deck)
    deck[3], deck[7] = deck[7], deck[3]  # the same content in another order
    assert _in_order(deck) == sorted(deck)
    deck[0] = 99  # the same list, another content
    assert _in_order(deck) == sorted(deck)
    for _ in range(600):
        ids = rnd.sample(range(60), rnd.randrange(0, 12))
        assert _in_order(ids) == sorted(ids)
