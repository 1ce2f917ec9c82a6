"""Dread Draw: a pure-Python engine (no Django), its bots and its observations."""

from .cardset import CardSet, CardSetError, load_cardset, parse_cardset
from .decisions import parse, to_notation
from .errors import IllegalDecision
from .game import ENGINE_VERSION, Game
from .observation import PlayerView, observe, replay_frames
from .serialize import game_from_dict, game_to_dict, replay

__all__ = [
    "ENGINE_VERSION", "CardSet", "CardSetError", "Game", "IllegalDecision", "PlayerView", "game_from_dict",
    "game_to_dict", "load_cardset", "observe", "parse", "parse_cardset", "replay", "replay_frames", "to_notation",
]
