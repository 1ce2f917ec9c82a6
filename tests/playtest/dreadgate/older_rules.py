"""A stand-in for an older rules version that the app keeps (docs/rules.md, RV-2), for tests: this engine's
rules, except that each player opens with seven cards instead of six."""

from __future__ import annotations

from playtest import dreadgate as current
from playtest.dreadgate import CardDef, State

ENGINE_VERSION = "0.9.0-test"
describe_action = current.describe_action
describe_log = current.describe_log
observation = current.observation
format_action = current.format_action
parse_action = current.parse_action
NotationError = current.NotationError


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


def from_record(record, cards) -> OlderState:
    state = new_game([[cards[code] for code in deck] for deck in record["decks"]], record["seed"], record["format"])
    for action in record["actions"]:
        state.apply(tuple(action))
    return state


def keep(monkeypatch) -> None:
    """Make this version one the app keeps, for one test."""
    from playtest.dreadgate import versions

    monkeypatch.setitem(versions.ENGINES, ENGINE_VERSION, __name__)
