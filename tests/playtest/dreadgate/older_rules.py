"""A stand-in for rules of an older version, for tests of what the app does with games stored under rules it no
longer plays (docs/rules.md, RV-2 to RV-6): this engine's rules, except that each player opens with seven cards
instead of six. The app never plays these: its tests store their games' records and frames."""

from __future__ import annotations

from playtest import dreadgate as current
from playtest.dreadgate import CardDef, State

ENGINE_VERSION = "0.9.0-test"


class OlderState(State):
    def _setup(self) -> None:
        super()._setup()
        for seat in (0, 1):
            self._draw(seat, 1)


def new_game(decks, seed, fmt="standard") -> OlderState:
    return OlderState([[c if isinstance(c, CardDef) else CardDef.from_dict(dict(c)) for c in d] for d in decks],
                      seed, fmt)


def to_record(state: OlderState) -> dict:
    return {**current.to_record(state), "engine": ENGINE_VERSION}
