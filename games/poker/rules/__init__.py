"""Matematický poker rules engine: pure, deterministic, no Django.

See ``docs/rules/poker.md`` for the API and the decisions behind it.
"""

from .deck import (
    DAILY_TIMEZONE,
    JOKER,
    build_deck,
    daily_date,
    daily_deck,
    daily_seed,
    randbelow,
    seeded_deck,
    shuffle,
)
from .scoring import (
    COMBINATIONS,
    LINE_NAMES,
    LINES,
    LINES_THROUGH_CELL,
    BoardScore,
    holding_combinations,
    preview,
    score_board,
    score_line,
)
from .state import EASY, ERROR_CODES, HARD, MODES, IllegalMove, PokerGame
from .tables import DEFAULT_TABLE, TABLE_NAMES, TABLES, TABLES_FILE, Row, Table, get_table

__all__ = [
    "COMBINATIONS",
    "DAILY_TIMEZONE",
    "DEFAULT_TABLE",
    "EASY",
    "ERROR_CODES",
    "HARD",
    "JOKER",
    "LINES",
    "LINES_THROUGH_CELL",
    "LINE_NAMES",
    "MODES",
    "TABLES",
    "TABLES_FILE",
    "TABLE_NAMES",
    "BoardScore",
    "IllegalMove",
    "PokerGame",
    "Row",
    "Table",
    "build_deck",
    "daily_date",
    "daily_deck",
    "daily_seed",
    "get_table",
    "holding_combinations",
    "preview",
    "randbelow",
    "score_board",
    "score_line",
    "seeded_deck",
    "shuffle",
]
