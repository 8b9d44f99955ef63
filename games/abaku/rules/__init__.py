"""Abaku rules engine: pure, standard library only (spec: shared/spec/abaku.md).

Public API, re-exported here so callers import from ``games.abaku.rules``.
"""

from .board import Board, Placed, Stone
from .data import CENTRE, JOKER, LAYOUTS, RACK_SIZE, STONE_SET
from .errors import IllegalMove
from .examples import OPERATIONS, Reading, all_readings, read_example
from .movegen import Move, all_moves
from .moves import Example, MoveResult, evaluate_move

__all__ = [
    "CENTRE",
    "JOKER",
    "LAYOUTS",
    "OPERATIONS",
    "RACK_SIZE",
    "STONE_SET",
    "Board",
    "Example",
    "IllegalMove",
    "Move",
    "MoveResult",
    "Placed",
    "Reading",
    "Stone",
    "all_moves",
    "all_readings",
    "evaluate_move",
    "read_example",
]
