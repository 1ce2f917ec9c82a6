"""The undo journal's vocabulary: how each entry is taken back (read by State.undo).

One flat list per game, used as a stack: an entry is its values, then its kind (so undo pops the kind, then
ARITY[kind] values). FRAME opens the entries of one action and holds the attributes that most actions
reassign; the others record one change each. A flat list of mostly small ints keeps a game's journal cheap: no
object per entry for the allocator or the collector to handle.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

FRAME, ITEM, ATTR, POP, DRAWN, COPY, SET, UATTR, BOARD, HAND_INS, BONE_POP, CPOP, TURN, MOVED, RECYCLED = range(15)
UNIT_DEL, SET_ADD, SET_DISCARD, KEY_DEL = range(15, 19)
ARITY = (4, 3, 3, 1, 2, 2, 2, 3, 2, 3, 1, 0, 7, 3, 3, 1, 2, 2, 2)
# FRAME (ap, rp, phase, decider): the attributes most actions reassign
# UATTR (iid, name, old): an attribute of the unit iid on the battlefield
# BOARD (cell, old): a cell of the board
# HAND_INS (seat, index, iid): a card left that hand
# BONE_POP (seat,): a card was put on that boneyard
# DRAWN (seat, n): n cards were drawn
# CPOP (): an attacker joined the combat
# TURN (seat, turn, active, infl, used, ap_next[seat], tp[seat]): a turn started (infl None if all 0, used None
#   if empty: an entry keeps no object alive that undo can make again)
# MOVED (iid, from cell, old moved): a unit maneuvered to an empty cell, no subdued unit involved
# RECYCLED (seat, hand index, iid): a card was recycled (DG-7.6)
# UNIT_DEL (iid,): a unit was deployed (it is the newest key of `units`)
# SET_ADD / SET_DISCARD (name, iid): iid left / joined the state's set `name` (statics, users)
# ITEM (container, key, old): container[key] = old (a list cell, a dict key)
# KEY_DEL (dict, key): the key was added to the dict (as its newest key)
# ATTR (unit, name, old): an attribute of a unit that left the battlefield in the same action
# POP (list,): the action appended to list
# COPY (container or unit, copy): put the whole copy back in place
# SET (name, old): the state's attribute `name` was reassigned


class NoJournal:
    """Where entries go outside `apply` (positions set up by hand): nowhere."""

    __slots__ = ()

    def append(self, value: Any) -> None:
        pass

    def extend(self, values: Iterable[Any]) -> None:
        pass


NO_JOURNAL = NoJournal()
Journal = list[Any] | NoJournal
