"""The Dreadgate rules engine: pure Python, no Django (rules in docs/rules.md, DG-1 to DG-19).

    state = new_game([deck_a, deck_b], seed=7, fmt="standard")
    while not state.is_over():
        state.apply(random.choice(state.legal_actions()))
    state.winner, state.condition, state.scores(), state.log()
"""

from .actions import IllegalAction
from .cards import CardDataError, CardDef
from .effects import UnknownEffect, check_ability
from .notation import NotationError, format_action, parse_action
from .record import RecordError, from_record, from_snapshot, game_log, new_game, observation, to_record, to_snapshot
from .state import DRAW_RESULT, ENGINE_VERSION, FORMATS, TURN_LIMIT, GameSetupError, State

__all__ = [
    "DRAW_RESULT", "ENGINE_VERSION", "FORMATS", "TURN_LIMIT", "CardDataError", "CardDef", "GameSetupError",
    "IllegalAction", "NotationError", "RecordError", "State", "UnknownEffect", "check_ability", "format_action",
    "from_record", "from_snapshot", "game_log", "new_game", "observation", "parse_action", "to_record",
    "to_snapshot",
]  # fmt: skip
