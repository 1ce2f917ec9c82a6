"""The Dreadgate rules engine: pure Python, no Django (rules in docs/rules.md, DG-1 to DG-19).

    state = new_game([deck_a, deck_b], seed=7, fmt="standard")   # CardDef lists or Card-field dicts
    while not state.is_over():
        state.apply(random.choice(state.legal_actions()))
    state.winner, state.condition, state.scores(), state.log()

- `state.current_player` decides now (the defender in a defence step, the chooser of a discard, ...);
  `state.deck_of_seat[seat]` says which deck list sits there (the seed picks who moves first, DG-4.3).
- Actions are (kind, a, b) tuples of ints (`actions.py`); `format_action(state, action)` and
  `parse_action(state, text)` convert them to and from the text notation of DG-19.1 (`NotationError` with a
  position). `describe_action(state, action, viewer)` says it in words for a person ("You deploy Ardent Page
  on a5"), `describe_refusal(state, refused)` says why the rules refuse one, with the rule.
- `state.apply(action)` raises `IllegalAction` (with `.rule`, e.g. "DG-8.3", and `.anchor` for /rules/) and
  leaves the state unchanged; `state.undo()` takes back the last action exactly.
- `state.observation(player)` hides what that player may not see; `to_record`/`from_record` store a game as
  seed plus actions, `to_snapshot`/`from_snapshot` as a compact state; both carry ENGINE_VERSION.
  `game_frames(state)` says what each step of the game showed each viewer (its observation and the describer's
  words), for a stored game's replay without the engine (core.frames packs them; docs/rules.md, RV-2).
- The storeys (state.py says more): zones.py (the data), effects.py, rules.py, play.py, state.py; notation.py
  and record.py beside State.
"""

from .actions import IllegalAction
from .cards import CardDataError, CardDef
from .describe import describe_action, describe_log, describe_refusal, hidden_from, why_not_played
from .effects import UnknownEffect, check_ability
from .notation import NotationError, format_action, parse_action
from .observe import observation
from .record import RecordError, from_record, from_snapshot, game_frames, game_log, new_game, to_record, to_snapshot
from .state import State
from .zones import DRAW_RESULT, ENGINE_VERSION, FORMATS, TURN_LIMIT, GameSetupError

__all__ = [
    "DRAW_RESULT", "ENGINE_VERSION", "FORMATS", "TURN_LIMIT", "CardDataError", "CardDef", "GameSetupError",
    "IllegalAction", "NotationError", "RecordError", "State", "UnknownEffect", "check_ability", "describe_action",
    "describe_log", "describe_refusal", "format_action", "from_record", "from_snapshot", "game_frames", "game_log",
    "hidden_from", "new_game", "observation", "parse_action", "to_record", "to_snapshot", "why_not_played",
]  # fmt: skip
