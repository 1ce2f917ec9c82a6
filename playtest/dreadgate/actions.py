"""Action values: small tuples of ints (kind, a, b), comparable and hashable (DG-19).

The meaning of a and b depends on the kind; unused ones are 0. Units on the battlefield are named by
their card instance id, cards in hand by their definition index in the game's card table.
"""

from __future__ import annotations

END, DRAW, DEPLOY, RECYCLE, MOVE, ATTACK, STRIKE, DEFEND, PASS, EQUIP, PLAY, INSTANT, USE, GROUND, FLY = range(15)
TARGET_UNIT, TARGET_DIR, DISCARD, KEEP, MULLIGAN, TARGET_DIST = range(15, 21)

KIND_NAMES = (
    "end", "draw", "deploy", "recycle", "move", "attack", "strike", "defend", "pass", "equip", "play", "instant",
    "use", "ground", "fly", "target", "target", "discard", "keep", "mulligan", "distance",
)  # fmt: skip

Action = tuple[int, int, int]

A_END: Action = (END, 0, 0)
A_DRAW: Action = (DRAW, 0, 0)
A_STRIKE: Action = (STRIKE, 0, 0)
A_PASS: Action = (PASS, 0, 0)
A_KEEP: Action = (KEEP, 0, 0)
A_MULLIGAN: Action = (MULLIGAN, 0, 0)
NO_BEARER = -1


class IllegalAction(Exception):
    """An action the rules refuse; `rule` is the DG number it breaks. The state is unchanged."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} ({rule})")

    @property
    def anchor(self) -> str:
        return f"/rules/#{self.rule}"
