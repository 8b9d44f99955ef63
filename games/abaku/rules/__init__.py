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
from .review import best_move, review
from .robot import (
    DEFAULT_LEVEL,
    LEVEL_TABLE,
    LEVELS,
    OLD_LEVELS,
    Level,
    choose_move,
    current_level,
    percentile_move,
    resolve_level,
    robot_action,
)

__all__ = [
    "CENTRE",
    "DEFAULT_LEVEL",
    "JOKER",
    "LEVEL_TABLE",
    "LEVELS",
    "LAYOUTS",
    "OLD_LEVELS",
    "current_level",
    "OPERATIONS",
    "RACK_SIZE",
    "STONE_SET",
    "Board",
    "Example",
    "GameState",
    "IllegalMove",
    "Level",
    "Move",
    "MoveResult",
    "Placed",
    "Player",
    "Reading",
    "Stone",
    "all_moves",
    "all_readings",
    "apply",
    "best_move",
    "choose_move",
    "evaluate_move",
    "new_game",
    "percentile_move",
    "read_example",
    "resolve_level",
    "review",
    "robot_action",
    "view",
]
