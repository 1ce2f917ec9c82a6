"""The rules a stored game was played under, by engine version (docs/rules.md, RV-1 to RV-6).

    engine = engine_for(record["engine"])       # the package whose rules played it, or None
    if engine is None: ...                      # a version whose rules this app no longer has: say so
    state = engine.new_game(decks, seed, fmt)   # then apply its actions, describe them, observe them

Every engine version that a stored record names stays here, mapped to the package that plays exactly those
rules. A change of rules bumps ENGINE_VERSION and keeps the outgoing rules (a frozen copy of this package)
beside the new ones, under their old version, for as long as any stored record names them (RV-2).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .zones import ENGINE_VERSION

# version -> the importable package that plays those rules; the current one is this package
ENGINES: dict[str, str] = {ENGINE_VERSION: __package__ or ""}  # frozen: this package plays its own version


def engine_for(version: str | None) -> ModuleType | None:
    """The engine package that plays records of that version, or None if this app no longer has its rules."""
    path = ENGINES.get(version or "")
    return None if path is None else importlib.import_module(path)


def is_current(version: str | None) -> bool:
    return version == ENGINE_VERSION
