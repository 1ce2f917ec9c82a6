"""What one seat may see of a game: the view a policy plays through, never the true State.

    view = SeatView(state, seat)
    if view.to_act:
        action = policy(view, rng)          # reads view.units, view.hand, view.legal_actions(), ...
    for _ in range(budget):                 # a search samples the hidden cards
        guess = view.determinize(rng)       # a full State: apply, undo, copy, legal_actions
        ...

Public zones, counts and the seat's own hand are exposed; the deck order, the opponent's hand and the random
source are not (DG-2.6). The view is sealed: it holds no reference to the game's State, only a SealedWorld made
when the view is made (a determinization whose hidden cards depend only on what the seat sees, without the seed,
deck lists or history that could rebuild the true hands and decks by replay). Its units and board are that
world's copies: changing them can't change the game. So a view shows the position it was made at: make one at
each decision. The card tables (definitions) are shared by every game of the same decks: read them only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .actions import Action
from .cards import Compiled
from .observe import observation
from .state import State
from .zones import Unit


class SealedWorld(State):
    """A State a policy may hold: a determinization with nothing that leads back to the game it was made from.

    Its seed, deck lists and history are blank, so `replay` has nothing to rebuild the true hidden cards from;
    its copies and determinizations are SealedWorlds too. It plays on (apply, undo, legal_actions) like a State.
    """

    def replay(self, actions: Sequence[Action]) -> State:
        raise TypeError("a sealed world has no seed, deck lists or history to replay: it is a guess, not the game")


def seal(state: State, seat: int) -> SealedWorld:
    """What `seat` may see of `state` as a SealedWorld of its own (a sealed world is returned as it is: it is
    already a guess, such as a policy's own search world).

    The hidden cards are placed in order of id (State.determinize without a random source), so they depend only
    on what the seat sees, and sealing costs no shuffle. The legal actions of the seat to act are the same in both
    (they depend on nothing hidden), so a fresh cached list is carried over rather than worked out again.
    """
    if type(state) is SealedWorld:
        return state
    world = state.determinize(seat, None)  # its decks stay in order of id: a guess that never needs a shuffle
    world.__class__ = SealedWorld
    world.seed = 0
    world.deck_lists = ((), ())
    _carry_legal(state, world, seat)
    return world  # type: ignore[return-value]


def _carry_legal(state: State, world: State, seat: int) -> None:
    """Give `world`, a determinization of `state` for `seat`, the fresh cached legal actions of `state` when `seat`
    is to act: they depend on nothing hidden, so they are the same in both, and need not be worked out again."""
    cached = state._legal
    if cached is not None and cached[0] == state._stamp and state.current_player == seat:
        world._legal = (world._stamp, list(cached[1]))


def seen_by(state: State, seat: int) -> tuple[Any, ...]:
    """Everything `seat` sees of `state`, as one value to compare (for a policy that planned ahead: the position it
    meets is the one it planned for when, and only when, these are equal). Hidden cards count only by number. The
    units' fields are tuples whose lists are replaced, never changed in place, so the value stays as it was made."""
    other = 1 - seat
    pending, combat = state.pending, state.combat
    return (
        state.turn, state.phase, state.decider, state.active, state.ap, state.rp, tuple(state.infl), tuple(state.tp),
        tuple(state.hand[seat]), len(state.hand[other]), len(state.deck[0]), len(state.deck[1]), tuple(state.board),
        [u.fields() for u in state.units.values()], tuple(state.beyond_score), tuple(state.bone_score),
        tuple(state.boneyard[0]), tuple(state.boneyard[1]), tuple(state.beyond[0]), tuple(state.beyond[1]),
        tuple(state.sideline[0]), tuple(state.sideline[1]), tuple(state.revealed[seat]), frozenset(state.used),
        tuple(state.ap_next), state.ending,
        None if pending is None else repr(pending), None if combat is None else repr(combat),
        None if not state.discards else repr(state.discards),
    )


class SeatView:
    """Read-only access to what `seat` may see of `state`, as it is when the view is made."""

    __slots__ = ("_s", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._s = seal(state, seat)
        self.seat = seat

    # --- the game's public facts ----------------------------------------------------------

    @property
    def fmt(self) -> int:
        return self._s.fmt

    @property
    def turn(self) -> int:
        return self._s.turn

    @property
    def phase(self) -> int:
        return self._s.phase

    @property
    def active(self) -> int:
        return self._s.active

    @property
    def current_player(self) -> int:
        return self._s.current_player

    @property
    def to_act(self) -> bool:
        return self._s.current_player == self.seat

    @property
    def ap(self) -> int:
        """Action points of the player on turn."""
        return self._s.ap

    @property
    def units(self) -> dict[int, Unit]:
        """The units on the battlefield by instance id, in order of play."""
        return self._s.units

    @property
    def board(self) -> list[int]:
        """Cell -> instance id of the unit holding it, or -1."""
        return self._s.board

    @property
    def combat(self) -> list[Any] | None:
        """[target iid, [(attacker iid, melee)], {attacker iid: defense}] during an attack."""
        return self._s.combat

    @property
    def defs(self) -> list[Compiled]:
        """The game's card definitions; actions name hand cards by their index here."""
        return self._s.defs

    @property
    def inst(self) -> list[Compiled]:
        """Instance id -> card definition, for the cards this view shows (units, items, zones, the own hand)."""
        return self._s.inst

    def is_over(self) -> bool:
        return self._s.is_over()

    @property
    def winner(self) -> int:
        return self._s.winner

    def scores(self) -> dict[str, list[int]]:
        return self._s.scores()

    def hand_size(self, p: int) -> int:
        return len(self._s.hand[p])

    def deck_size(self, p: int) -> int:
        return len(self._s.deck[p])

    def zone(self, name: str, p: int) -> list[int]:
        """A public zone of seat p: "boneyard", "beyond" or "sideline" (instance ids, in order)."""
        if name not in ("boneyard", "beyond", "sideline"):
            raise ValueError(f"{name!r} is not a public zone")
        return list(getattr(self._s, name)[p])

    # --- the seat's own knowledge ---------------------------------------------------------

    @property
    def hand(self) -> list[int]:
        """The seat's own hand (instance ids)."""
        return list(self._s.hand[self.seat])

    def available(self, craft: int) -> int:
        """Points the player on turn has for a deploy cost of that craft (DG-7.3, DG-7.4)."""
        return self._s._available(craft)

    def legal_actions(self) -> list[Action]:
        """The seat's legal actions when it is to act; none otherwise."""
        return self._s.legal_actions() if self.to_act else []

    def observation(self) -> dict[str, Any]:
        return observation(self._s, self.seat)

    def seen(self) -> tuple[Any, ...]:
        """What the seat sees, as one value to compare (seen_by)."""
        return seen_by(self._s, self.seat)

    def determinize(self, rng: random.Random) -> State:
        """A full State consistent with this view (a SealedWorld); see State.determinize."""
        world = self._s.determinize(self.seat, rng)
        _carry_legal(self._s, world, self.seat)
        return world
