"""Abaku rules engine: pure, standard library only (spec: shared/spec/abaku.md).

Public API, re-exported here so callers import from ``games.abaku.rules``.
"""

from .board import Board, Placed, Stone
from .data import CENTRE, JOKER, LAYOUTS, RACK_SIZE, STONE_SET
from .errors import IllegalMove
from .examples import OPERATIONS, Reading, all_readings, read_example
from .game import GameState, Player, apply, new_game, view
from .movegen import Move, all_moves
from .moves import Example, MoveResult, evaluate_move
from .robot import LEVELS, choose_move, robot_action

__all__ = [
    "CENTRE",
    "JOKER",
    "LEVELS",
    "LAYOUTS",
    "OPERATIONS",
    "RACK_SIZE",
    "STONE_SET",
    "Board",
    "Example",
    "GameState",
    "IllegalMove",
    "Move",
    "MoveResult",
    "Placed",
    "Player",
    "Reading",
    "Stone",
    "all_moves",
    "all_readings",
    "apply",
    "choose_move",
    "evaluate_move",
    "new_game",
    "read_example",
    "robot_action",
    "view",
]
